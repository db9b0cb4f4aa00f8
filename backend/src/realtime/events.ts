/**
 * The socket events the server sends to a signed-in user, by topic. The event name on the
 * wire is `{topic}-{userId}` and goes to that user's room only. This file is shared with
 * the frontend (imported as types only), so it imports nothing: a payload changed here
 * breaks the build of whichever side no longer matches. The server emits only through
 * `RealtimeService.emit(userId, topic, payload)`, which is typed by this map.
 */

/** A sheet file of a Completed print, as the print's `fileId` lists it. */
export interface LiveFile {
  /** The file's format (a sheet has one entry per format it was written in). */
  format: 'png' | 'pdf';
  /** Sheet number, 1-based. */
  sheet: number;
  path: string;
  previewPath: string;
  widthPx: number;
  heightPx: number;
  lengthIn: number;
  bytes: number;
}

/**
 * The statuses a print event reports (the print's status values, as strings on the wire):
 * every change of a print's status, a new draft ('In Draft') and a deletion included, so
 * lists and the dashboard's counts follow without a reload.
 */
export type LivePrintEvent =
  | { printId: string; status: 'Completed'; fileId: LiveFile[] }
  | { printId: string; status: 'Error'; message: string }
  | { printId: string; status: 'In Draft' }
  /** Deleted: its files were removed; Removed: the print itself is gone (both change the dashboard's counts). */
  | { printId: string; status: 'Deleted' | 'Removed' };

/** The stages of a print's processing job, in order. */
export type LivePrintStage = 'trim' | 'layout' | 'render' | 'store' | 'done';

/** The fields of an image the library shows; the event carries the whole image as the API returns it. */
export interface LiveImage {
  _id: string;
  name: string;
  status: 'processing' | 'ready' | 'error';
  error: string | null;
  previewFile: { path: string } | null;
  width: number | null;
  height: number | null;
}

/** The fields of a size; the event carries the whole size as the API returns it. */
export interface LiveSize {
  _id: string;
  name: string;
  value: number;
}

export type NotificationType = 'print' | 'image' | 'size' | 'payment' | 'profile';

export interface LiveNotification {
  _id: string;
  type: NotificationType;
  message: string;
  attachmentId: string | null;
  status: 'unread' | 'read';
  createdAt: string;
}

export interface LiveEvents {
  /** A print changed status: Completed with its files, Error with its reason, or back to In Draft (cancelled). */
  print: LivePrintEvent;
  /** Rendering progress of a Processing print, 0–100. */
  'print-update': { printId: string; percent: number; stage: LivePrintStage };
  /** An image finished inspection (ready) or failed it (error). */
  image: { status: LiveImage['status']; data: LiveImage };
  /** A size was created, changed or deleted. */
  size: { action: 'created' | 'updated' | 'deleted'; data: LiveSize };
  /** A payment was completed, cancelled or refunded; availableCredits is the new balance. */
  payment: { paymentId: string; status: string; credits: number; availableCredits: number; message: string };
  /** A shop's order sync: queued/running (with the orders seen so far), done (counts) or failed (message). */
  'order-sync': {
    integrationId: string;
    status: 'running' | 'done' | 'failed';
    orders: number;
    created?: number;
    updated?: number;
    lastSync?: string | null;
    message?: string;
  };
  /** A notification was stored for the user (the bell adds it and bumps its count). */
  notification: LiveNotification;
  /** The production queue changed: a batch was made, or a batch ended (completed, failed, cancelled). */
  production: { reason: 'batch-created' | 'batch-ended' | 'queue'; printId?: string };
}

export type LiveTopic = keyof LiveEvents;

export const liveEventName = (topic: LiveTopic, userId: string) => `${topic}-${userId}`;
