import { QueueName } from './queue.types';

/**
 * Every background job by name. Adding a job is one entry here (its name, its payload in
 * `JobPayloads` and its queue in `JOB_QUEUES`; the compiler insists on all three) and one
 * handler registered with `JobRunner.process(JobName.X, handler)` in the owning module's
 * `onModuleInit` (see docs/architecture.md). The name is what Bull stores, so renaming one
 * orphans jobs already queued under the old name.
 */
export enum JobName {
  /** Inspect an uploaded image: trim, ink mask, preview. */
  ImagePreview = 'preview',
  /** Render one attempt of a print (charged before it is enqueued). */
  ProcessPrint = 'process-print',
  /** Delete the files of prints past their retention (repeating). */
  PrintRetention = 'print-retention',
  /** Recovery sweep: outbox rows, stuck prints and images, dead run folders (repeating). */
  JobRecovery = 'job-recovery',
  /** Settle payments nobody came back for: capture approved orders, give up abandoned checkouts (repeating). */
  PaymentReconcile = 'payments-reconcile',
  /** Sync one shop's orders (one per shop at a time: job id `order-sync:{integrationId}`). */
  OrderSync = 'order-sync',
  /** Queue an order sync for every connected shop (repeating). */
  OrderSyncSchedule = 'order-sync-schedule',
  /** POST one signed webhook delivery; retried with backoff within the retry window. */
  WebhookDelivery = 'deliver',
  /** Re-queue webhook deliveries whose job was lost; give up those past the window (repeating). */
  WebhookSweep = 'webhook-sweep',
  /** Delete Idempotency-Key records past their time to live (repeating). */
  IdempotencyCleanup = 'idempotency-cleanup',
  /** Send one e-mail written to the outbox with the change it is about; retried with backoff. */
  SendMail = 'send-mail',
  /** Update one order in its shop (status, note, shipment); each step is sent once, retried with backoff. */
  OrderFulfil = 'order-fulfil',
  /** Evaluate one seller's production batching rules (one per seller at a time: job id `production:{userId}`). */
  ProductionEvaluate = 'production-evaluate',
  /** Queue a production evaluation for every seller with automatic batching (repeating). */
  ProductionSchedule = 'production-schedule',
}

/** The payload of each job; a repeating job has none. */
export interface JobPayloads {
  /** userId: the owner, the job's fairness group (absent in jobs queued before groups existed). */
  [JobName.ImagePreview]: { imageId: string; userId?: string };
  [JobName.ProcessPrint]: { printId: string; attempt: number; userId?: string };
  [JobName.PrintRetention]: Record<string, never>;
  [JobName.JobRecovery]: Record<string, never>;
  [JobName.PaymentReconcile]: Record<string, never>;
  [JobName.OrderSync]: { integrationId: string };
  [JobName.OrderSyncSchedule]: Record<string, never>;
  [JobName.WebhookDelivery]: { deliveryId: string };
  [JobName.WebhookSweep]: Record<string, never>;
  [JobName.IdempotencyCleanup]: Record<string, never>;
  [JobName.SendMail]: { to: string; subject: string; text: string; html?: string };
  [JobName.OrderFulfil]: { orderId: string };
  [JobName.ProductionEvaluate]: { userId: string; cause?: 'schedule' | 'sync' };
  [JobName.ProductionSchedule]: Record<string, never>;
}

export type JobPayload<N extends JobName> = JobPayloads[N];

/**
 * The queue each job runs on. A queue is a unit of scaling (a worker's concurrency is per
 * queue), so long renders do not hold up image previews.
 */
export const JOB_QUEUES: { readonly [N in JobName]: QueueName } = {
  [JobName.ImagePreview]: QueueName.Images,
  [JobName.ProcessPrint]: QueueName.Prints,
  [JobName.PrintRetention]: QueueName.Maintenance,
  [JobName.JobRecovery]: QueueName.Maintenance,
  [JobName.PaymentReconcile]: QueueName.Payments,
  [JobName.OrderSync]: QueueName.Shops,
  [JobName.OrderSyncSchedule]: QueueName.Shops,
  [JobName.WebhookDelivery]: QueueName.Webhooks,
  [JobName.WebhookSweep]: QueueName.Maintenance,
  [JobName.IdempotencyCleanup]: QueueName.Maintenance,
  [JobName.SendMail]: QueueName.Mail,
  [JobName.OrderFulfil]: QueueName.Shops,
  [JobName.ProductionEvaluate]: QueueName.Shops,
  [JobName.ProductionSchedule]: QueueName.Shops,
};

/**
 * The fairness group of a job: the seller whose work it is. On a queue shared by all sellers
 * a job of a group with fewer jobs queued or running goes first, and one group never runs
 * more than the queue's group cap at once (see ProcessOptions.groupCap), so one seller's
 * slow file or long backlog cannot hold up another seller's small job. Derived from the
 * payload, so a job enqueued through the outbox or again by the recovery sweep keeps it.
 */
const JOB_GROUP: { readonly [N in JobName]?: (data: JobPayload<N>) => string | undefined } = {
  [JobName.ImagePreview]: (d) => d.userId,
  [JobName.ProcessPrint]: (d) => d.userId,
};

export function jobGroup<N extends JobName>(name: N, data: JobPayload<N>): string | undefined {
  return (JOB_GROUP[name] as ((d: JobPayload<N>) => string | undefined) | undefined)?.(data) ?? undefined;
}
