import { BadRequestException, ConflictException, Inject, Injectable, Logger, NotFoundException, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { returned } from '../common/sql';
import { DEFAULT_WOO_FULFILMENT_STATUS, Integration } from '../integrations/entities/integration.entity';
import { EtsyClient, IntegrationsService, ShopError, WooCommerceClient } from '../integrations/integrations.service';
import { printReadSql } from '../prints/print-read-model';
import { OutboxService } from '../queue/outbox.service';
import { JOB_RUNNER } from '../queue/queue.tokens';
import { JobName } from '../queue/jobs';
import { JobRunner } from '../queue/queue.types';
import { WebhooksService } from '../webhooks/webhooks.service';

export interface ShipDetails {
  carrier?: string;
  trackingNumber?: string;
}

export type FulfilmentStatus = 'none' | 'pending' | 'fulfilled' | 'failed';
export type FulfilmentSource = 'batch' | 'manual';
type StepState = 'started' | 'done';
/** What was sent to the shop: `status` and `note` (WooCommerce), `shipment` (Etsy). */
type Steps = Partial<Record<'status' | 'note' | 'shipment', StepState>>;

/** An order's fulfilment as the API shows it (status none: never requested). */
export interface OrderFulfilment {
  status: FulfilmentStatus;
  source: FulfilmentSource | null;
  carrier: string | null;
  trackingNumber: string | null;
  error: string | null;
  requestedAt: Date | null;
  fulfilledAt: Date | null;
}

interface FulfilmentRow {
  order_id: string;
  user_id: string;
  status: Exclude<FulfilmentStatus, 'none'>;
  source: FulfilmentSource;
  carrier: string | null;
  tracking_number: string | null;
  steps: Steps;
  round: number;
  error: string | null;
  requested_at: Date;
  fulfilled_at: Date | null;
}

interface OrderRef {
  id: string;
  user_id: string;
  number: string;
  external_id: string;
  integration_id: string;
}

export const FULFIL_MSG = {
  notFound: 'Order not found',
  trackingNeedsCarrier: 'Give the carrier together with the tracking number',
  notRetryable: 'Only a fulfilment that the shop refused or that failed can be retried',
  notRequested: 'This order was not marked shipped yet',
  notConnected: 'The shop is not connected. Connect it again, then retry.',
};

/** Attempts of one fulfilment job for transient failures (5xx, no answer), and the first wait (doubling). */
export const FULFIL_ATTEMPTS = 6;
export const FULFIL_BACKOFF_MS = 2000;
/** A run holds the order this long; a worker that died mid-run leaves it to the next attempt after it. */
const LEASE = '2 minutes';

export const fulfilmentOf = (r: { f_status?: string | null; f_source?: string | null; f_carrier?: string | null; f_tracking_number?: string | null; f_error?: string | null; f_requested_at?: Date | null; f_fulfilled_at?: Date | null }): OrderFulfilment => ({
  status: (r.f_status ?? 'none') as FulfilmentStatus,
  source: (r.f_source ?? null) as FulfilmentSource | null,
  carrier: r.f_carrier ?? null,
  trackingNumber: r.f_tracking_number ?? null,
  error: r.f_error ?? null,
  requestedAt: r.f_requested_at ?? null,
  fulfilledAt: r.f_fulfilled_at ?? null,
});

const toDto = (r: FulfilmentRow): OrderFulfilment =>
  fulfilmentOf({ f_status: r.status, f_source: r.source, f_carrier: r.carrier, f_tracking_number: r.tracking_number, f_error: r.error, f_requested_at: r.requested_at, f_fulfilled_at: r.fulfilled_at });

const jobIdOf = (orderId: string, round: number) => `fulfil:${orderId}:${round}`;

/**
 * Fulfilment back to the shop. A request (a completed batch, or the seller's "Mark shipped")
 * stores one row per order — the order id is its key, so asking twice changes nothing — and
 * writes the job to the outbox in the same transaction. The job sends each step once: a step
 * is marked `started` before the call and `done` after it; a step found `started` (its answer
 * was lost) is first looked up in the shop (the order's notes, the receipt's shipments). A 4xx
 * is the shop's refusal, stored on the order until the seller retries; a 5xx or no answer is
 * retried with backoff.
 */
@Injectable()
export class FulfilmentService implements OnModuleInit {
  private readonly logger = new Logger('Fulfilment');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(JOB_RUNNER) private readonly jobs: JobRunner,
    private readonly outbox: OutboxService,
    private readonly integrations: IntegrationsService,
    private readonly webhooks: WebhooksService,
  ) {}

  onModuleInit() {
    this.jobs.process(JobName.OrderFulfil, (job) => this.run(job.data.orderId), {
      concurrency: 2,
      onFailed: (job, e) => this.gaveUp(job.data.orderId, job.attemptsMade, e),
    });
  }

  // ---- requests ----

  /**
   * For each order of this print whose every item is in a completed print: request its
   * fulfilment (source 'batch'). Idempotent: an order already requested is left as it is.
   */
  async requestForBatch(userId: string, printId: string): Promise<void> {
    const jobIds = await this.db.transaction(async (m) => {
      const orders: Array<{ id: string }> = await m.query(
        `SELECT o.id FROM orders o
          WHERE o.user_id = $1
            AND EXISTS (SELECT 1 FROM order_items oi WHERE oi.order_id = o.id AND ${printReadSql.orderItemPrintIds('oi.id')} @> ARRAY[$2::text])
            AND NOT EXISTS (SELECT 1 FROM order_items oi WHERE oi.order_id = o.id AND NOT ${printReadSql.orderItemPrinted('oi.id')})`,
        [userId, printId],
      );
      if (!orders.length) return [];
      const inserted = returned<{ order_id: string }>(
        await m.query(
          `INSERT INTO order_fulfilments (order_id, user_id, status, source)
           SELECT x, $2, 'pending', 'batch' FROM unnest($1::uuid[]) AS x
           ON CONFLICT (order_id) DO NOTHING RETURNING order_id`,
          [orders.map((o) => o.id), userId],
        ),
      );
      const ids: string[] = [];
      for (const r of inserted) ids.push(await this.writeJob(m, r.order_id, 1));
      return ids;
    });
    if (jobIds.length) this.logger.log(`batch ${printId}: fulfilment of ${jobIds.length} order(s) requested`);
    await this.dispatch(jobIds);
  }

  /**
   * The seller's "Mark shipped". Asking again with the same details (or none) answers the
   * fulfilment as it is; a failed one is retried (with the details given now). A different
   * tracking number for an order already marked shipped is refused: it was sent already.
   */
  async markShipped(userId: string, orderId: string, details: ShipDetails = {}): Promise<OrderFulfilment> {
    const carrier = details.carrier?.trim() || null;
    const tracking = details.trackingNumber?.trim() || null;
    if (tracking && !carrier) throw new BadRequestException({ message: FULFIL_MSG.trackingNeedsCarrier, code: 'carrier_required' });
    const { row, jobId } = await this.db.transaction(async (m) => {
      await this.order(m, userId, orderId);
      const [created]: FulfilmentRow[] = returned(
        await m.query(
          `INSERT INTO order_fulfilments (order_id, user_id, status, source, carrier, tracking_number) VALUES ($1, $2, 'pending', 'manual', $3, $4)
           ON CONFLICT (order_id) DO NOTHING RETURNING *`,
          [orderId, userId, carrier, tracking],
        ),
      );
      if (created) return { row: created, jobId: await this.writeJob(m, orderId, 1) };
      const [existing]: FulfilmentRow[] = await m.query(`SELECT * FROM order_fulfilments WHERE order_id = $1 FOR UPDATE`, [orderId]);
      if (existing.status === 'failed') return this.retryIn(m, existing, carrier || tracking ? { carrier, tracking } : null);
      if ((tracking && tracking !== existing.tracking_number) || (carrier && carrier !== existing.carrier)) {
        const was = existing.tracking_number ? ` with tracking number ${existing.tracking_number}` : ' without a tracking number';
        throw new ConflictException({ message: `This order was already marked shipped${was}; the shop has it (or is getting it) as it was sent`, code: 'already_shipped' });
      }
      return { row: existing, jobId: null };
    });
    await this.dispatch(jobId ? [jobId] : []);
    return toDto(row);
  }

  /** Sends a refused or failed fulfilment again (steps the shop accepted already are not repeated). */
  async retry(userId: string, orderId: string): Promise<OrderFulfilment> {
    const { row, jobId } = await this.db.transaction(async (m) => {
      await this.order(m, userId, orderId);
      const [existing]: FulfilmentRow[] = await m.query(`SELECT * FROM order_fulfilments WHERE order_id = $1 FOR UPDATE`, [orderId]);
      if (!existing) throw new ConflictException({ message: FULFIL_MSG.notRequested, code: 'fulfilment_not_requested' });
      if (existing.status !== 'failed') throw new ConflictException({ message: FULFIL_MSG.notRetryable, code: 'fulfilment_not_failed' });
      return this.retryIn(m, existing, null);
    });
    await this.dispatch([jobId]);
    return toDto(row);
  }

  private async retryIn(m: EntityManager, f: FulfilmentRow, details: { carrier: string | null; tracking: string | null } | null) {
    const [row]: FulfilmentRow[] = returned(
      await m.query(
        `UPDATE order_fulfilments SET status = 'pending', round = round + 1, error = NULL, lease_until = NULL, updated_at = now(),
                carrier = CASE WHEN $2 THEN $3 ELSE carrier END, tracking_number = CASE WHEN $2 THEN $4 ELSE tracking_number END
          WHERE order_id = $1 RETURNING *`,
        [f.order_id, !!details, details?.carrier ?? null, details?.tracking ?? null],
      ),
    );
    return { row, jobId: await this.writeJob(m, f.order_id, row.round) };
  }

  private async order(m: EntityManager, userId: string, orderId: string): Promise<OrderRef> {
    const [o]: OrderRef[] = await m.query(`SELECT id, user_id, number, external_id, integration_id FROM orders WHERE id = $1 AND user_id = $2`, [orderId, userId]);
    if (!o) throw new NotFoundException(FULFIL_MSG.notFound);
    return o;
  }

  private async writeJob(m: EntityManager, orderId: string, round: number): Promise<string> {
    const jobId = jobIdOf(orderId, round);
    await this.outbox.write(m, { name: JobName.OrderFulfil, data: { orderId }, jobId, attempts: FULFIL_ATTEMPTS, backoffMs: FULFIL_BACKOFF_MS });
    return jobId;
  }

  private async dispatch(jobIds: string[]) {
    for (const id of jobIds) await this.outbox.dispatch(id).catch((e) => this.logger.warn(`fulfilment ${id} left for the recovery sweep: ${e}`));
  }

  // ---- the job ----

  /** One attempt: sends the steps not yet done; returns what happened (for logs and tests). */
  async run(orderId: string): Promise<'fulfilled' | 'refused' | 'skipped'> {
    const [f]: FulfilmentRow[] = returned(
      await this.db.query(
        `UPDATE order_fulfilments SET lease_until = now() + interval '${LEASE}'
          WHERE order_id = $1 AND status = 'pending' AND (lease_until IS NULL OR lease_until < now()) RETURNING *`,
        [orderId],
      ),
    );
    if (!f) {
      const [held] = await this.db.query(`SELECT 1 FROM order_fulfilments WHERE order_id = $1 AND status = 'pending'`, [orderId]);
      // Another run holds it (or one whose worker died): try again after the wait.
      if (held) throw new Error('another run is updating the shop for this order');
      return 'skipped'; // fulfilled, refused or gone: nothing to send
    }
    const [o]: OrderRef[] = await this.db.query(`SELECT id, user_id, number, external_id, integration_id FROM orders WHERE id = $1`, [orderId]);
    try {
      const i = o ? await this.integrations.byId(o.integration_id) : null;
      if (!o || !i?.connected) throw new ShopError(FULFIL_MSG.notConnected, 'refused');
      await this.send(f, o, i);
    } catch (e) {
      const msg = (e instanceof Error ? e.message : String(e)).slice(0, 1000);
      if (e instanceof ShopError && (e.kind === 'refused' || e.kind === 'auth' || e.kind === 'not_shop')) {
        await this.db.query(`UPDATE order_fulfilments SET status = 'failed', error = $2, lease_until = NULL, updated_at = now() WHERE order_id = $1`, [orderId, msg]);
        this.logger.warn(`order ${orderId}: the shop refused the fulfilment: ${msg}`);
        return 'refused';
      }
      // Transient: kept pending with the last error, the runner tries again after a wait.
      await this.db.query(`UPDATE order_fulfilments SET error = $2, lease_until = NULL, updated_at = now() WHERE order_id = $1`, [orderId, msg]);
      throw e;
    }
    const hooks = await this.db.transaction(async (m) => {
      const [done]: FulfilmentRow[] = returned(
        await m.query(
          `UPDATE order_fulfilments SET status = 'fulfilled', fulfilled_at = now(), error = NULL, lease_until = NULL, updated_at = now()
            WHERE order_id = $1 AND status = 'pending' RETURNING *`,
          [orderId],
        ),
      );
      if (!done) return [];
      const i = await this.integrations.byId(o.integration_id);
      return this.webhooks.record(m, o.user_id, 'order.fulfilled', {
        orderId,
        orderNumber: o.number,
        shop: i?.type ?? 'unknown',
        source: done.source,
        carrier: done.carrier,
        trackingNumber: done.tracking_number,
        fulfilledAt: done.fulfilled_at!.toISOString(),
      });
    });
    await this.webhooks.dispatch(hooks).catch((e) => this.logger.warn(`webhook order.fulfilled for ${orderId}: ${e}`));
    return 'fulfilled';
  }

  private async step(orderId: string, name: keyof Steps, state: StepState) {
    await this.db.query(`UPDATE order_fulfilments SET steps = steps || jsonb_build_object($2::text, $3::text), updated_at = now() WHERE order_id = $1`, [orderId, name, state]);
  }

  private async send(f: FulfilmentRow, o: OrderRef, i: Integration) {
    const steps = f.steps ?? {};
    const client = this.integrations.clientFor(i);
    if (client instanceof WooCommerceClient) {
      if (steps.status !== 'done') {
        // Setting the same status again is harmless, so a lost answer is simply sent again.
        await client.setOrderStatus(o.external_id, i.settings?.fulfilmentStatus || DEFAULT_WOO_FULFILMENT_STATUS);
        await this.step(o.id, 'status', 'done');
      }
      if (steps.note !== 'done') {
        const note = wooNote(f, o.id);
        // Every POST adds a note: when an earlier call's answer was lost, look for it first.
        const arrived = steps.note === 'started' && (await client.orderNotes(o.external_id)).some((n) => String(n.note ?? '').includes(noteRef(o.id)));
        if (!arrived) {
          await this.step(o.id, 'note', 'started');
          await client.addOrderNote(o.external_id, note);
        }
        await this.step(o.id, 'note', 'done');
      }
      return;
    }
    if (client instanceof EtsyClient) {
      // Etsy has no plain "shipped" without tracking; the order is fulfilled here only.
      if (!f.tracking_number || steps.shipment === 'done') return;
      const arrived =
        steps.shipment === 'started' && ((await client.receipt(o.external_id)).shipments ?? []).some((s) => s.tracking_code === f.tracking_number);
      if (!arrived) {
        await this.step(o.id, 'shipment', 'started');
        await client.createReceiptShipment(o.external_id, { trackingCode: f.tracking_number, carrierName: f.carrier ?? 'other' });
      }
      await this.step(o.id, 'shipment', 'done');
      return;
    }
    throw new ShopError(`Fulfilment is not available for ${i.type} shops`, 'refused');
  }

  /** All attempts used on transient failures: shown on the order as failed, for a retry. */
  private async gaveUp(orderId: string, attempts: number, e: Error) {
    const msg = `The shop could not be updated after ${attempts} attempt(s): ${e.message}`.slice(0, 1000);
    await this.db.query(`UPDATE order_fulfilments SET status = 'failed', error = $2, lease_until = NULL, updated_at = now() WHERE order_id = $1 AND status = 'pending'`, [orderId, msg]);
    this.logger.error(`order ${orderId}: ${msg}`);
  }
}

/** The reference in our note that lets a retry recognise it among the order's notes. */
export const noteRef = (orderId: string) => `[ref ${orderId}]`;

export function wooNote(f: Pick<FulfilmentRow, 'source' | 'carrier' | 'tracking_number'>, orderId: string): string {
  const how = f.carrier || f.tracking_number ? ` Shipped${f.carrier ? ` with ${f.carrier}` : ''}${f.tracking_number ? `, tracking number ${f.tracking_number}` : ''}.` : '';
  const why = f.source === 'batch' ? 'Printed and marked fulfilled by GangSheet Studio.' : 'Marked shipped in GangSheet Studio.';
  return `${why}${how} ${noteRef(orderId)}`;
}
