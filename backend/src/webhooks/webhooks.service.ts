import { BadRequestException, Inject, Injectable, Logger, NotFoundException, OnModuleInit } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { paginate } from '../common/pagination';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { JOB_RUNNER } from '../queue/queue.tokens';
import { JobName } from '../queue/jobs';
import { JobContext, JobRunner } from '../queue/queue.types';
import { CreateWebhookDto, DeliveryListQueryDto, UpdateWebhookDto } from './dto/webhook.dto';
import { DeliveryStatus, WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';
import { isLiveEvent, PING_EVENT, WebhookEnvelope, WebhookEvent, WebhookEventData } from './webhook-events';
import { WebhookMode } from './entities/webhook-endpoint.entity';
import { sendWebhook, signature } from './webhook-sender';
import { checkWebhookUrl, WebhookTargetError } from './webhook-target';
import { EndpointPatch, WebhooksRepository } from './webhooks.repository';

const newSecret = () => 'whsec_' + randomBytes(24).toString('base64url');

export interface DeliveryJobData {
  deliveryId: string;
}
export const deliveryJobId = (deliveryId: string) => `webhook:${deliveryId}`;
/** More than the retry window ever needs; the window, not this, ends the retries. */
const MAX_ATTEMPTS = 40;
const MAX_ENDPOINTS = 20;
/** How long GET /api/events can list an event. */
export const EVENT_RETENTION_DAYS = 30;

/** A delivery that failed and will be retried (thrown so the runner applies its backoff). */
class RetryLater extends Error {}

/**
 * Webhook endpoints and deliveries. `publish` records one delivery per subscribed endpoint
 * and queues it; the delivery job POSTs the signed body and, on anything but a 2xx, throws
 * so the job runner retries it with exponential backoff, until the delivery is older than
 * WEBHOOK_RETRY_WINDOW_SECONDS: then it is marked failed. Each row keeps its last outcome.
 */
@Injectable()
export class WebhooksService implements OnModuleInit {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly repo: WebhooksRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_RUNNER) private readonly jobs: JobRunner,
  ) {}

  async onModuleInit() {
    this.jobs.process(JobName.WebhookDelivery, (job) => this.runDelivery(job), {
      concurrency: 4,
      onFailed: (job, error) => this.giveUp(job.data.deliveryId, error.message),
    });
    this.jobs.process(JobName.WebhookSweep, () => this.sweep());
    await this.jobs.repeat(JobName.WebhookSweep, this.config.recovery.intervalMs);
  }

  // ---- endpoints ----

  list(userId: string): Promise<WebhookEndpoint[]> {
    return this.repo.endpoints(userId);
  }

  async get(userId: string, id: string): Promise<WebhookEndpoint> {
    const e = await this.repo.endpoint(userId, id);
    if (!e) throw new NotFoundException('Webhook not found');
    return e;
  }

  /** `testMode`: the request is in test mode, so the endpoint is a test one unless `dto.mode` says otherwise. */
  async create(userId: string, dto: CreateWebhookDto, testMode = false): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const url = await this.checkUrl(dto.url);
    if ((await this.repo.countEndpoints(userId)) >= MAX_ENDPOINTS)
      throw new BadRequestException({ message: `You have ${MAX_ENDPOINTS} webhooks already. Delete one first.`, code: 'too_many_webhooks' });
    const secret = newSecret();
    const mode = dto.mode ?? (testMode ? WebhookMode.Test : WebhookMode.Live);
    const id = await this.repo.createEndpoint({ userId, url, events: dto.events, description: dto.description ?? '', secret, active: true, mode });
    return { endpoint: await this.get(userId, id), secret };
  }

  /**
   * Replaces the signing secret; the replaced one keeps signing beside it for `overlapHours`
   * (a second `v1`), so the receiver can switch without refusing a delivery. Rolling again
   * within an overlap keeps only the secret just replaced.
   */
  async rollSecret(userId: string, id: string, overlapHours: number): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const secret = newSecret();
    if (!(await this.repo.rollSecret(userId, id, secret, overlapHours))) throw new NotFoundException('Webhook not found');
    return { endpoint: await this.get(userId, id), secret };
  }

  async update(userId: string, id: string, dto: UpdateWebhookDto): Promise<WebhookEndpoint> {
    await this.get(userId, id);
    const patch: EndpointPatch = {};
    if (dto.url !== undefined) patch.url = await this.checkUrl(dto.url);
    if (dto.events !== undefined) patch.events = dto.events;
    if (dto.description !== undefined) patch.description = dto.description;
    if (dto.active !== undefined) patch.active = dto.active;
    if (Object.keys(patch).length) await this.repo.updateEndpoint(userId, id, patch);
    return this.get(userId, id);
  }

  async remove(userId: string, id: string): Promise<void> {
    if (!(await this.repo.deleteEndpoint(userId, id))) throw new NotFoundException('Webhook not found');
  }

  private async checkUrl(raw: string): Promise<string> {
    try {
      return (await checkWebhookUrl(raw, this.config.webhooks.allowPrivate)).toString();
    } catch (e) {
      if (e instanceof WebhookTargetError) throw new BadRequestException({ message: e.message, code: 'invalid_webhook_url' });
      throw e;
    }
  }

  // ---- deliveries ----

  async deliveries(userId: string, endpointId: string, q: DeliveryListQueryDto) {
    await this.get(userId, endpointId);
    const page = q.page ?? 1;
    const limit = q.limit ?? 20;
    const [rows, total] = await this.repo.deliveryPage(userId, endpointId, page, limit, q.sort === 'asc' ? 'asc' : 'desc');
    return paginate(rows, total, limit);
  }

  private async delivery(userId: string, id: string): Promise<WebhookDelivery> {
    const d = await this.repo.delivery(userId, id);
    if (!d) throw new NotFoundException('Delivery not found');
    return d;
  }

  /**
   * Records `event` (kept for the catch-up list) and a delivery to every active endpoint of
   * the user subscribed to it in the event's mode, and queues the deliveries.
   */
  async publish<E extends WebhookEvent>(userId: string, event: E, data: WebhookEventData[E]): Promise<string[]> {
    return this.publishAll(userId, event, [data]);
  }

  /** publish() for many events of one type (an order sync's new orders) in a few queries. */
  async publishAll<E extends WebhookEvent>(userId: string, event: E, data: Array<WebhookEventData[E]>): Promise<string[]> {
    const ids = await this.recordAll(this.repo.manager, userId, event, data);
    await this.dispatch(ids);
    return ids;
  }

  /**
   * Writes an event and its deliveries (one per listening endpoint) with the caller's manager,
   * so a feature can commit them in the same transaction as the change they report; queue
   * them with dispatch() after the commit. Rows that never get queued (a crash in between)
   * are picked up by the sweep.
   */
  record(m: EntityManager, userId: string, event: string, data: unknown, endpointId?: string): Promise<string[]> {
    return this.recordAll(m, userId, event, [data], endpointId);
  }

  /**
   * An event about a test print (its data says `test: true`) is a test-mode event: it goes to
   * the test endpoints only, and the others to the live ones.
   */
  private async recordAll(m: EntityManager, userId: string, event: string, data: unknown[], endpointId?: string): Promise<string[]> {
    if (!data.length) return [];
    const createdAt = new Date().toISOString();
    if (endpointId) {
      // A test ping goes to one endpoint only, in its mode, and is not an event of the account.
      const mode = await this.repo.endpointMode(m, userId, endpointId);
      if (!mode) return [];
      const envelopes: WebhookEnvelope[] = data.map((d) => ({ id: randomUUID(), type: event, createdAt, livemode: mode === WebhookMode.Live, data: d }));
      return this.repo.insertDeliveries(m, userId, [endpointId], envelopes);
    }
    const envelopes: WebhookEnvelope[] = data.map((d) => ({ id: randomUUID(), type: event, createdAt, livemode: isLiveEvent(d), data: d }));
    await this.repo.insertEvents(m, userId, envelopes);
    const ids: string[] = [];
    for (const livemode of [true, false]) {
      const ofMode = envelopes.filter((e) => e.livemode === livemode);
      if (!ofMode.length) continue;
      ids.push(...(await this.repo.insertDeliveries(m, userId, await this.repo.recipients(m, userId, event, livemode), ofMode)));
    }
    return ids;
  }

  /**
   * The user's events of one mode (`livemode`: the live ones, else those of test mode) after
   * `after` (an event id; from the oldest kept without), oldest first, optionally of one type:
   * what the webhooks sent, for a receiver catching up after downtime.
   */
  async events(userId: string, q: { livemode: boolean; after?: string; type?: string; limit: number }): Promise<{ data: WebhookEnvelope[]; hasMore: boolean }> {
    let afterSeq: string | null = null;
    if (q.after) {
      afterSeq = await this.repo.eventSeq(userId, q.after, q.livemode);
      if (!afterSeq)
        throw new BadRequestException({
          message: `No event with id ${q.after}. Events are kept for ${EVENT_RETENTION_DAYS} days; start again without "after".`,
          code: 'invalid_cursor',
        });
    }
    const since = new Date(Date.now() - EVENT_RETENTION_DAYS * 86_400_000);
    const rows = await this.repo.eventsAfter(userId, { livemode: q.livemode, afterSeq, type: q.type, since, limit: q.limit + 1 });
    return { data: rows.slice(0, q.limit), hasMore: rows.length > q.limit };
  }

  async dispatch(deliveryIds: string[]): Promise<void> {
    for (const id of deliveryIds) {
      try {
        await this.jobs.add(JobName.WebhookDelivery, { deliveryId: id }, {
          jobId: deliveryJobId(id),
          attempts: MAX_ATTEMPTS,
          backoffMs: this.config.webhooks.backoffMs,
        });
      } catch (e) {
        // The row stays pending; the sweep queues it again.
        this.logger.error(`queueing webhook delivery ${id} failed: ${e}`);
      }
    }
  }

  /** "Send test event": a `ping` to this endpoint only, queued like any delivery. */
  async sendTest(userId: string, endpointId: string): Promise<WebhookDelivery> {
    await this.get(userId, endpointId);
    const [id] = await this.record(this.repo.manager, userId, PING_EVENT, { message: 'Test event from GangSheet Studio' }, endpointId);
    await this.dispatch([id]);
    return this.delivery(userId, id);
  }

  /** Sends a delivery again now, once, whatever its state; the log keeps the outcome. */
  async redeliver(userId: string, deliveryId: string): Promise<WebhookDelivery> {
    const d = await this.delivery(userId, deliveryId);
    await this.attempt(d, true);
    return this.delivery(userId, deliveryId);
  }

  /** The queue job: one attempt; throws to be retried while inside the window. */
  async runDelivery(job: JobContext<DeliveryJobData>): Promise<string> {
    const d = await this.repo.deliveryById(job.data.deliveryId);
    if (!d || d.status !== DeliveryStatus.Pending) return 'skipped';
    const ok = await this.attempt(d, false);
    if (ok) return 'delivered';
    const age = Date.now() - new Date(d.createdAt).getTime();
    if (age >= this.config.webhooks.retryWindowMs) {
      await this.giveUp(d._id, d.lastError ?? 'no 2xx answer');
      return 'failed';
    }
    throw new RetryLater(`delivery ${d._id} failed (${d.lastError}); retrying`);
  }

  /** One POST; updates the row with its outcome. A manual redelivery that works marks it delivered. */
  private async attempt(d: WebhookDelivery, manual: boolean): Promise<boolean> {
    const endpoint = await this.repo.signingTarget(d.endpointId);
    let result: { ok: boolean; status: number | null; error: string | null };
    if (!endpoint) result = { ok: false, status: null, error: 'The endpoint was deleted' };
    else if (!endpoint.active && !manual) result = { ok: false, status: null, error: 'The endpoint is paused' };
    else {
      const body = JSON.stringify(d.payload);
      const t = Math.floor(Date.now() / 1000);
      result = await sendWebhook(
        endpoint.url,
        body,
        { 'GangSheet-Event': d.event, 'GangSheet-Delivery': d._id, 'GangSheet-Signature': signature([endpoint.secret, endpoint.previousSecret].filter((s): s is string => !!s), t, body) },
        { timeoutMs: this.config.webhooks.timeoutMs, allowPrivate: this.config.webhooks.allowPrivate },
      );
    }
    const exists = await this.repo.recordAttempt(d._id, result);
    d.lastError = result.error;
    if (!exists) return true; // deleted meanwhile: nothing left to retry
    return result.ok;
  }

  private async giveUp(deliveryId: string, reason: string) {
    await this.repo.markFailed(deliveryId, reason);
    this.logger.warn(`webhook delivery ${deliveryId} given up: ${reason}`);
  }

  /** Pending deliveries whose job was lost (a crash, the in-process runner restarting) are queued again. */
  async sweep(): Promise<number> {
    await this.repo.purgeEvents(new Date(Date.now() - EVENT_RETENTION_DAYS * 86_400_000), 5_000);
    const rows = await this.repo.stalePending(this.config.recovery.graceMs / 1000, 500);
    let n = 0;
    for (const r of rows) {
      if (Date.now() - new Date(r.created_at).getTime() >= this.config.webhooks.retryWindowMs) {
        await this.giveUp(r.id, 'retry window passed');
        continue;
      }
      const state = await this.jobs.state(JobName.WebhookDelivery, deliveryJobId(r.id));
      if (state !== 'waiting' && state !== 'running') {
        await this.dispatch([r.id]);
        n++;
      }
    }
    return n;
  }
}
