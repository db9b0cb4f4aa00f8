import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { returned } from '../common/sql';
import { DeliveryStatus, WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookEndpoint, WebhookMode } from './entities/webhook-endpoint.entity';
import type { WebhookEnvelope } from './webhook-events';

/** What a delivery attempt needs of its endpoint: where to send and the secrets that sign. */
export interface SigningTarget {
  url: string;
  active: boolean;
  secret: string;
  /** The replaced secret while its overlap lasts, else null. */
  previousSecret: string | null;
}

export type NewEndpoint = Pick<WebhookEndpoint, 'userId' | 'url' | 'events' | 'description' | 'secret' | 'active' | 'mode'>;
export type EndpointPatch = Partial<Pick<WebhookEndpoint, 'url' | 'events' | 'description' | 'active'>>;

/** Pending is written into the SQL, not bound, so the planner can use the partial index on pending deliveries. */
const PENDING = `'${DeliveryStatus.Pending}'`;

/**
 * Every read and write of `webhook_endpoints` and `webhook_deliveries`. Methods that take an
 * EntityManager run in the caller's transaction (a feature recording its event's deliveries
 * with the change they report).
 */
@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  get manager(): EntityManager {
    return this.db.manager;
  }

  // ---- endpoints ----

  endpoints(userId: string): Promise<WebhookEndpoint[]> {
    return this.db.getRepository(WebhookEndpoint).find({ where: { userId }, order: { createdAt: 'DESC' } });
  }

  endpoint(userId: string, id: string): Promise<WebhookEndpoint | null> {
    return this.db.getRepository(WebhookEndpoint).findOne({ where: { _id: id, userId } });
  }

  countEndpoints(userId: string): Promise<number> {
    return this.db.getRepository(WebhookEndpoint).count({ where: { userId } });
  }

  async createEndpoint(e: NewEndpoint): Promise<string> {
    const repo = this.db.getRepository(WebhookEndpoint);
    return (await repo.save(repo.create(e)))._id;
  }

  async updateEndpoint(userId: string, id: string, patch: EndpointPatch): Promise<void> {
    await this.db.getRepository(WebhookEndpoint).update({ _id: id, userId }, patch);
  }

  /** False when the user has no such endpoint. */
  async deleteEndpoint(userId: string, id: string): Promise<boolean> {
    const res = await this.db.getRepository(WebhookEndpoint).delete({ _id: id, userId });
    return !!res.affected;
  }

  /**
   * Sets a new signing secret; with `overlapHours` > 0 the replaced one keeps signing until
   * then, else it is dropped. False when the user has no such endpoint.
   */
  async rollSecret(userId: string, id: string, secret: string, overlapHours: number): Promise<boolean> {
    const rows = returned(
      await this.db.query(
        `UPDATE webhook_endpoints SET
           previous_secret = CASE WHEN $4 > 0 THEN secret END,
           previous_secret_expires_at = CASE WHEN $4 > 0 THEN now() + make_interval(hours => $4) END,
           secret = $3, updated_at = now()
         WHERE id = $1 AND user_id = $2 RETURNING id`,
        [id, userId, secret, overlapHours],
      ),
    );
    return rows.length > 0;
  }

  /** The user's active endpoints of the event's mode listening to `event`. */
  async recipients(m: EntityManager, userId: string, event: string, livemode: boolean): Promise<string[]> {
    const rows: Array<{ id: string }> = await m.query(`SELECT id FROM webhook_endpoints WHERE user_id = $1 AND active AND $2 = ANY(events) AND mode = $3`, [
      userId,
      event,
      livemode ? WebhookMode.Live : WebhookMode.Test,
    ]);
    return rows.map((r) => r.id);
  }

  /** The mode of one of the user's endpoints (active or not), or null when there is none. */
  async endpointMode(m: EntityManager, userId: string, endpointId: string): Promise<WebhookMode | null> {
    const [row] = await m.query(`SELECT mode FROM webhook_endpoints WHERE id = $1 AND user_id = $2`, [endpointId, userId]);
    return row?.mode ?? null;
  }

  /** The endpoint's address and signing secrets, or null when it was deleted. */
  async signingTarget(endpointId: string): Promise<SigningTarget | null> {
    const [row] = await this.db.query(
      `SELECT url, active, secret, CASE WHEN previous_secret_expires_at > now() THEN previous_secret END AS previous_secret FROM webhook_endpoints WHERE id = $1`,
      [endpointId],
    );
    return row ? { url: row.url, active: row.active, secret: row.secret, previousSecret: row.previous_secret } : null;
  }

  // ---- events ----

  /** Keeps events (one envelope each) for the catch-up list, in the caller's transaction. */
  async insertEvents(m: EntityManager, userId: string, envelopes: WebhookEnvelope[]): Promise<void> {
    if (!envelopes.length) return;
    await m.query(
      `INSERT INTO webhook_events (id, user_id, type, envelope, created_at, livemode)
       SELECT (e->>'id')::uuid, $1, e->>'type', e, (e->>'createdAt')::timestamptz, (e->>'livemode')::boolean FROM jsonb_array_elements($2::jsonb) e`,
      [userId, JSON.stringify(envelopes)],
    );
  }

  /** The position of one of the user's events of this mode, or null when there is none (or it has expired). */
  async eventSeq(userId: string, id: string, livemode: boolean): Promise<string | null> {
    const [row] = await this.db.query(`SELECT seq FROM webhook_events WHERE id = $1 AND user_id = $2 AND livemode = $3`, [id, userId, livemode]);
    return row ? String(row.seq) : null;
  }

  /**
   * Up to `limit` of the user's events of one mode after position `afterSeq` (from the start
   * without), oldest first. Events kept from before modes existed get their `livemode` here.
   */
  async eventsAfter(userId: string, q: { livemode: boolean; afterSeq: string | null; type?: string; since: Date; limit: number }): Promise<WebhookEnvelope[]> {
    const rows: Array<{ envelope: WebhookEnvelope }> = await this.db.query(
      `SELECT envelope || jsonb_build_object('livemode', livemode) AS envelope FROM webhook_events
        WHERE user_id = $1 AND livemode = $5 AND seq > $2 AND ($3::varchar IS NULL OR type = $3) AND created_at >= $4
        ORDER BY seq LIMIT ${Number(q.limit)}`,
      [userId, q.afterSeq ?? '0', q.type ?? null, q.since, q.livemode],
    );
    return rows.map((r) => r.envelope);
  }

  /** Deletes up to `limit` events older than `before`; returns how many. */
  async purgeEvents(before: Date, limit: number): Promise<number> {
    const rows = returned(
      await this.db.query(
        `DELETE FROM webhook_events WHERE seq IN (SELECT seq FROM webhook_events WHERE created_at < $1 ORDER BY created_at LIMIT ${Number(limit)}) RETURNING seq`,
        [before],
      ),
    );
    return rows.length;
  }

  // ---- deliveries ----

  deliveryPage(userId: string, endpointId: string, page: number, limit: number, sort: 'asc' | 'desc'): Promise<[WebhookDelivery[], number]> {
    return this.db.getRepository(WebhookDelivery).findAndCount({
      where: { endpointId, userId },
      order: { createdAt: sort === 'asc' ? 'ASC' : 'DESC', _id: 'ASC' },
      skip: (page - 1) * limit,
      take: limit,
    });
  }

  delivery(userId: string, id: string): Promise<WebhookDelivery | null> {
    return this.db.getRepository(WebhookDelivery).findOne({ where: { _id: id, userId } });
  }

  /** Any user's delivery: for the delivery job. */
  deliveryById(id: string): Promise<WebhookDelivery | null> {
    return this.db.getRepository(WebhookDelivery).findOne({ where: { _id: id } });
  }

  /** One delivery per endpoint and event, in the caller's transaction; returns their ids. */
  async insertDeliveries(m: EntityManager, userId: string, endpointIds: string[], envelopes: WebhookEnvelope[]): Promise<string[]> {
    if (!endpointIds.length || !envelopes.length) return [];
    const rows: Array<{ id: string }> = await m.query(
      `INSERT INTO webhook_deliveries (endpoint_id, user_id, event, event_id, payload)
       SELECT ep, $1, e->>'type', (e->>'id')::uuid, e FROM unnest($2::uuid[]) ep CROSS JOIN jsonb_array_elements($3::jsonb) e
       RETURNING id`,
      [userId, endpointIds, JSON.stringify(envelopes)],
    );
    return rows.map((r) => r.id);
  }

  /** Counts one attempt and its outcome; a success marks the delivery delivered. False when the delivery is gone. */
  async recordAttempt(id: string, outcome: { ok: boolean; status: number | null; error: string | null }): Promise<boolean> {
    const rows = returned(
      await this.db.query(
        `UPDATE webhook_deliveries SET attempts = attempts + 1, last_status_code = $2, last_error = $3, last_attempt_at = now(),
           status = CASE WHEN $4 THEN '${DeliveryStatus.Succeeded}' ELSE status END,
           delivered_at = CASE WHEN $4 THEN now() ELSE delivered_at END
         WHERE id = $1 RETURNING id`,
        [id, outcome.status, outcome.error?.slice(0, 500) ?? null, outcome.ok],
      ),
    );
    return rows.length > 0;
  }

  /** A pending delivery becomes failed, keeping its last error (or this reason). */
  async markFailed(id: string, reason: string): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET status = '${DeliveryStatus.Failed}', last_error = coalesce(last_error, $2) WHERE id = $1 AND status = ${PENDING}`,
      [id, reason.slice(0, 500)],
    );
  }

  /** Pending deliveries older than `graceSeconds`, oldest first. */
  stalePending(graceSeconds: number, limit: number): Promise<Array<{ id: string; created_at: Date }>> {
    return this.db.query(
      `SELECT id, created_at FROM webhook_deliveries WHERE status = ${PENDING} AND created_at < now() - make_interval(secs => $1) ORDER BY created_at LIMIT ${Number(limit)}`,
      [graceSeconds],
    );
  }
}
