/**
 * The socket events the server sends to a signed-in user, by topic. The event name on the
 * wire is `{topic}-{userId}` and goes to that user's room only. This file is shared with
 * the frontend (imported as types only), so it imports nothing: a payload changed here
 * breaks the build of whichever side no longer matches.
 */
export interface LiveFile {
  path: string;
  previewPath: string;
  widthPx: number;
  heightPx: number;
  lengthIn: number;
  bytes: number;
}

export interface LiveEvents {
  /** A print changed status (Completed with its files, Error with its reason, back to In Draft). */
  print: { printId: string; status: string; fileId?: LiveFile[]; message?: string };
  /** Rendering progress of a print. */
  'print-update': { printId: string; percent: number; stage: string };
  /** An image finished inspection (or failed it). */
  image: { status: string; data: { _id: string; status: string } & Record<string, unknown> };
  /** A size was created, changed or deleted. */
  size: { action: string; data: { _id: string } & Record<string, unknown> };
  /** A payment was completed, cancelled or refunded; availableCredits is the new balance. */
  payment: { paymentId: string; status: string; credits: number; availableCredits: number; message: string };
}

export type LiveTopic = keyof LiveEvents;

export const liveEventName = (topic: LiveTopic, userId: string) => `${topic}-${userId}`;
