import { BadRequestException, Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { returned } from '../common/sql';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { IntegrationsService, MSG, ShopError, ShopOrder, SyncWindow } from '../integrations/integrations.service';
import { JOB_RUNNER } from '../queue/queue.tokens';
import { JobName } from '../queue/jobs';
import { JobRunner } from '../queue/queue.types';
import { LiveEvents } from '../realtime/events';
import { RealtimeService } from '../realtime/realtime.service';
import { WebhooksService } from '../webhooks/webhooks.service';

/** One sync per shop at a time: a second request while one waits or runs is a no-op. */
export const syncJobId = (integrationId: string) => `order-sync:${integrationId}`;
/** Incremental syncs look this far before the last sync, for clock skew between us and the shop. */
const OVERLAP_MS = 10 * 60_000;

export interface SyncOutcome {
  outcome: 'done' | 'failed' | 'skipped';
  orders?: number;
  created?: number;
  updated?: number;
  reason?: string;
}

/** Sync states after which a sync's job is over (or about to be). */
const FINISHED: readonly (string | null)[] = ['done', 'failed'];

@Injectable()
export class OrderSyncService {
  private readonly logger = new Logger('OrderSync');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly db: DataSource,
    @Inject(JOB_RUNNER) private readonly jobs: JobRunner,
    private readonly integrations: IntegrationsService,
    private readonly realtime: RealtimeService,
    private readonly webhooks: WebhooksService,
  ) {}

  /** The Sync orders button: queue the job and answer at once. */
  async request(userId: string, integrationId: string): Promise<{ message: string; status: 'queued' | 'running' }> {
    const i = await this.integrations.get(userId, integrationId);
    if (!i.connected) throw new BadRequestException({ message: MSG.notConnected, code: 'not_connected' });
    let { added } = await this.jobs.add(JobName.OrderSync, { integrationId }, { jobId: syncJobId(integrationId) });
    // A sync that has just reported done (or failed) still holds its job id for a moment while
    // its job returns: a request in that moment is a new sync, not a duplicate, so try again.
    for (let tries = 0; !added && tries < 20 && FINISHED.includes((await this.integrations.get(userId, integrationId)).syncStatus); tries++) {
      await new Promise((r) => setTimeout(r, 50));
      ({ added } = await this.jobs.add(JobName.OrderSync, { integrationId }, { jobId: syncJobId(integrationId) }));
    }
    if (added) await this.integrations.markSync(integrationId, { syncStatus: 'queued' });
    return added ? { message: 'Order sync started', status: 'queued' } : { message: 'Order sync is already running', status: 'running' };
  }

  /** The scheduled job: one sync job per connected shop (deterministic ids, so never two). */
  async schedule(): Promise<number> {
    let n = 0;
    for (const integrationId of await this.integrations.connectedIds()) {
      const { added } = await this.jobs.add(JobName.OrderSync, { integrationId }, { jobId: syncJobId(integrationId) });
      if (added) n++;
    }
    return n;
  }

  private emit(userId: string, payload: LiveEvents['order-sync']) {
    this.realtime.emit(userId, 'order-sync', payload);
  }

  /** The job: pages through the shop's orders changed since the last sync and upserts them. */
  async run(integrationId: string): Promise<SyncOutcome> {
    const i = await this.integrations.byId(integrationId);
    if (!i) return { outcome: 'skipped', reason: 'integration deleted' };
    if (!i.connected) {
      await this.integrations.markSync(i._id, { syncStatus: 'failed', syncError: MSG.notConnected });
      this.emit(i.userId, { integrationId, status: 'failed', orders: 0, message: MSG.notConnected });
      return { outcome: 'skipped', reason: 'not connected' };
    }
    const started = new Date();
    const window: SyncWindow = i.lastSync
      ? { modifiedAfter: new Date(i.lastSync.getTime() - OVERLAP_MS) }
      : { createdAfter: new Date(started.getTime() - this.config.shops.firstSyncDays * 86_400_000) };
    await this.integrations.markSync(i._id, { syncStatus: 'running' });
    this.emit(i.userId, { integrationId, status: 'running', orders: 0 });
    let orders = 0;
    const createdIds: string[] = [];
    try {
      const client = this.integrations.clientFor(i);
      await client.listOrders(window, async (page) => {
        const r = await this.upsert(i.userId, i._id, page);
        orders += r.orders;
        createdIds.push(...r.createdIds);
        this.emit(i.userId, { integrationId, status: 'running', orders });
      });
    } catch (e) {
      const message = e instanceof ShopError ? e.message : 'The sync failed unexpectedly; it will be tried again';
      if (!(e instanceof ShopError)) this.logger.error(`sync of ${i._id} failed: ${(e as Error).stack ?? e}`);
      await this.integrations.markSync(i._id, { syncStatus: 'failed', syncError: message.slice(0, 500) });
      this.emit(i.userId, { integrationId, status: 'failed', orders, message });
      return { outcome: 'failed', orders, reason: message };
    }
    // Integrators hear of each newly imported order (a re-sync of a known order is not news),
    // before the sync reports done.
    if (createdIds.length && (await this.webhooks.hasSubscribers(i.userId, 'order.synced'))) {
      for (const orderId of createdIds) {
        await this.webhooks
          .publish(i.userId, 'order.synced', { orderId, source: i.type, printId: null })
          .catch((e) => this.logger.warn(`webhook order.synced for ${orderId}: ${e}`));
      }
    }
    // The next sync starts from when this one started: nothing changed meanwhile is missed.
    await this.integrations.markSync(i._id, { syncStatus: 'done', syncError: null, lastSync: started });
    const created = createdIds.length;
    const updated = orders - created;
    this.emit(i.userId, { integrationId, status: 'done', orders, created, updated, lastSync: started.toISOString() });
    return { outcome: 'done', orders, created, updated };
  }

  /**
   * Idempotent: orders by (integration, shop id), items by (order, shop line id). A changed
   * or cancelled order overwrites what was stored; syncing twice adds nothing.
   */
  async upsert(userId: string, integrationId: string, page: ShopOrder[]): Promise<{ orders: number; createdIds: string[] }> {
    const unique = [...new Map(page.map((o) => [o.externalId, o])).values()];
    if (!unique.length) return { orders: 0, createdIds: [] };
    const orders = unique.map((o) => ({
      external_id: o.externalId,
      number: o.number.slice(0, 64),
      shop_status: o.shopStatus,
      buyer_info: o.buyerInfo,
      total_amount: o.totalAmount,
      currency: o.currency,
      created: o.createdAt.toISOString(),
      updated: o.updatedAt?.toISOString() ?? null,
    }));
    const items = unique.flatMap((o) =>
      [...new Map(o.items.map((it) => [it.externalId, it])).values()].map((it) => ({
        order_ext: o.externalId,
        external_id: it.externalId,
        title: it.title || 'Untitled item',
        sku: it.sku,
        size: it.size,
        quantity: it.quantity,
        price: it.price,
        design_url: it.designUrl,
        attributes: it.attributes,
      })),
    );
    return this.db.transaction(async (m) => {
      const rows = returned<{ id: string; inserted: boolean }>(await m.query(
        `INSERT INTO orders (user_id, integration_id, external_id, number, shop_status, buyer_info, total_amount, currency,
                             integration_order_created_date, integration_order_updated_date)
         SELECT $1, $2, x.external_id, x.number, x.shop_status, x.buyer_info, x.total_amount, x.currency, x.created, x.updated
           FROM jsonb_to_recordset($3::jsonb) AS x(external_id text, number text, shop_status text, buyer_info jsonb,
                                                   total_amount numeric, currency text, created timestamptz, updated timestamptz)
         ON CONFLICT (integration_id, external_id) DO UPDATE SET
           number = EXCLUDED.number, shop_status = EXCLUDED.shop_status, buyer_info = EXCLUDED.buyer_info,
           total_amount = EXCLUDED.total_amount, currency = EXCLUDED.currency,
           integration_order_created_date = EXCLUDED.integration_order_created_date,
           integration_order_updated_date = EXCLUDED.integration_order_updated_date, updated_at = now()
         RETURNING id, (xmax = 0) AS inserted`,
        [userId, integrationId, JSON.stringify(orders)],
      ));
      if (items.length)
        await m.query(
          `INSERT INTO order_items (order_id, user_id, external_id, title, sku, size, quantity, price, design_url, attributes)
           SELECT o.id, $1, x.external_id, left(x.title, 500), x.sku, x.size, x.quantity, x.price, x.design_url, x.attributes
             FROM jsonb_to_recordset($3::jsonb) AS x(order_ext text, external_id text, title text, sku text, size text,
                                                     quantity int, price numeric, design_url text, attributes jsonb)
             JOIN orders o ON o.integration_id = $2 AND o.external_id = x.order_ext
           ON CONFLICT (order_id, external_id) DO UPDATE SET
             title = EXCLUDED.title, sku = EXCLUDED.sku, size = EXCLUDED.size, quantity = EXCLUDED.quantity,
             price = EXCLUDED.price, design_url = EXCLUDED.design_url, attributes = EXCLUDED.attributes, updated_at = now()`,
          [userId, integrationId, JSON.stringify(items)],
        );
      return { orders: rows.length, createdIds: rows.filter((r) => r.inserted).map((r) => r.id) };
    });
  }
}
