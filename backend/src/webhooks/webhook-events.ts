/**
 * The events a webhook endpoint can subscribe to, and the `data` each carries. Every delivery
 * body is `{ id, type, createdAt, data }`; `id` is the event's id (the same on a retry or a
 * redelivery, so receivers can drop duplicates).
 */
export const WEBHOOK_EVENTS = ['print.completed', 'print.failed', 'print.cancelled', 'payment.completed', 'order.synced', 'order.fulfilled', 'batch.created', 'batch.completed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Sent only by "Send test event"; endpoints need not subscribe to it. */
export const PING_EVENT = 'ping';

/** One print file: every sheet in every format the print was made in (PNGs, then PDFs). */
export interface WebhookFile {
  format: 'png' | 'pdf';
  /** 1-based sheet number. */
  sheet: number;
  /** The same as `sheet` (kept for receivers written before PDF output). */
  n: number;
  /** GET with the same API key (or session) to download. */
  url: string;
  previewUrl: string;
  bytes: number;
  lengthIn: number;
  /** PNG: the image's size. */
  widthPx?: number;
  heightPx?: number;
  /** PDF: the page's size, the sheet's real size. */
  pageWidthIn?: number;
  pageHeightIn?: number;
}

/** The print's externalId and metadata, as the integrator gave them when creating it. */
export interface IntegratorRefs {
  externalId: string | null;
  metadata: Record<string, string>;
}

/**
 * Whether the print is a test print (made with a test key). An event whose data says
 * `test: true` is a test-mode event: `livemode: false`, sent to test endpoints only.
 */
export interface PrintMode {
  test: boolean;
}

export interface WebhookEventData {
  'print.completed': { printId: string; status: 'Completed'; printedAt: string; filesExpireAt: string; files: WebhookFile[] } & IntegratorRefs & PrintMode;
  'print.failed': { printId: string; status: 'Error'; error: string; creditsRefunded: boolean } & IntegratorRefs & PrintMode;
  'print.cancelled': { printId: string; status: 'In Draft'; creditsRefunded: boolean } & IntegratorRefs & PrintMode;
  'payment.completed': { paymentId: string; credits: number; amount: string; currency: string };
  'order.synced': { orderId: string; source: string; printId?: string | null };
  /** The order was updated in its shop (status and note, or the shipment with tracking). */
  'order.fulfilled': { orderId: string; orderNumber: string; shop: string; source: 'batch' | 'manual'; carrier: string | null; trackingNumber: string | null; fulfilledAt: string };
  /** A production batch was made: a print of type Batch holding these order items. */
  'batch.created': { printId: string; trigger: string; orders: number; items: number; copies: number; status: string };
  /** A production batch's print completed (its print.completed carries the files). */
  'batch.completed': { printId: string; orderIds: string[]; copies: number };
}

export interface WebhookEnvelope<E extends string = string> {
  id: string;
  type: E;
  createdAt: string;
  /** false for an event of test mode (see PrintMode); such events reach test endpoints only. */
  livemode: boolean;
  data: unknown;
}

/** The mode of an event with this data: test when it is about a test print. */
export const isLiveEvent = (data: unknown): boolean => !(data && typeof data === 'object' && (data as { test?: unknown }).test === true);
