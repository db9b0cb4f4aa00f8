import { BadRequestException, Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { IntegrationsService, MSG, ShopError, ShopOrder, SyncWindow } from '../integrations/integrations.service';
import { JOB_RUNNER } from '../queue/queue.tokens';
import { JobName } from '../queue/jobs';
import { JobRunner } from '../queue/queue.types';
import { LiveEvents } from '../realtime/events';
import { RealtimeService } from '../realtime/realtime.service';
import { WebhooksService } from '../webhooks/webhooks.service';
import { OrdersRepository } from './orders.repository';

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
    private readonly orders: OrdersRepository,
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
    await this.webhooks
      .publishAll(i.userId, 'order.synced', createdIds.map((orderId) => ({ orderId, source: i.type, printId: null })))
      .catch((e) => this.logger.warn(`webhook order.synced for ${createdIds.length} orders: ${e}`));
    // The next sync starts from when this one started: nothing changed meanwhile is missed.
    await this.integrations.markSync(i._id, { syncStatus: 'done', syncError: null, lastSync: started });
    // Production batching looks at the new orders (its job id is per seller: one evaluation at a time).
    await this.jobs
      .add(JobName.ProductionEvaluate, { userId: i.userId, cause: 'sync' }, { jobId: `production:${i.userId}` })
      .catch((e) => this.logger.warn(`production evaluation after the sync of ${i._id}: ${e}`));
    const created = createdIds.length;
    const updated = orders - created;
    this.emit(i.userId, { integrationId, status: 'done', orders, created, updated, lastSync: started.toISOString() });
    return { outcome: 'done', orders, created, updated };
  }

  /** Stores a page of shop orders (OrdersRepository.upsertShopOrders: idempotent). */
  async upsert(userId: string, integrationId: string, page: ShopOrder[]): Promise<{ orders: number; createdIds: string[] }> {
    const rows = await this.orders.upsertShopOrders(userId, integrationId, page);
    return { orders: rows.length, createdIds: rows.filter((r) => r.inserted).map((r) => r.id) };
  }
}
