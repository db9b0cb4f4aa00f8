/**
 * The events a webhook endpoint can subscribe to, and the `data` each carries. Every delivery
 * body is `{ id, type, createdAt, data }`; `id` is the event's id (the same on a retry or a
 * redelivery, so receivers can drop duplicates).
 */
export const WEBHOOK_EVENTS = ['print.completed', 'print.failed', 'payment.completed', 'order.synced'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Sent only by "Send test event"; endpoints need not subscribe to it. */
export const PING_EVENT = 'ping';

export interface WebhookFile {
  n: number;
  /** GET with the same API key (or session) to download. */
  url: string;
  previewUrl: string;
  widthPx: number;
  heightPx: number;
  lengthIn: number;
  bytes: number;
}

export interface WebhookEventData {
  'print.completed': { printId: string; status: 'Completed'; printedAt: string; filesExpireAt: string; files: WebhookFile[] };
  'print.failed': { printId: string; status: 'Error'; error: string; creditsRefunded: boolean };
  'payment.completed': { paymentId: string; credits: number; amount: string; currency: string };
  'order.synced': { orderId: string; source: string; printId?: string | null };
}

export interface WebhookEnvelope<E extends string = string> {
  id: string;
  type: E;
  createdAt: string;
  data: unknown;
}
