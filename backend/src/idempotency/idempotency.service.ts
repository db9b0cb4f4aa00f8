import { ConflictException, Inject, Injectable, Logger, OnModuleInit, UnprocessableEntityException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { returned } from '../common/sql';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { JOB_RUNNER } from '../queue/queue.tokens';
import { JobName } from '../queue/jobs';
import { JobRunner } from '../queue/queue.types';

/** What the first request answered: a body, or an error (4xx) to be thrown again. */
export interface StoredResponse {
  status: number;
  body: unknown;
  error?: boolean;
}

export type Claim = { kind: 'owner' } | { kind: 'replay'; response: StoredResponse };

/** An unfinished record older than this belongs to a request that died with its process. */
const ABANDONED_SECONDS = 600;
const POLL_MS = 100;

/**
 * Idempotency-Key records, in PostgreSQL so every API node sees them. The first request with
 * a key inserts the row (the primary key (user, key) lets exactly one win), runs, and stores
 * its answer; a later one with the same body gets that answer, waiting while the first is
 * still running; with a different body it is refused. Keys are remembered IDEMPOTENCY_TTL_HOURS.
 */
@Injectable()
export class IdempotencyService implements OnModuleInit {
  private readonly logger = new Logger('Idempotency');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_RUNNER) private readonly jobs: JobRunner,
  ) {}

  async onModuleInit() {
    this.jobs.process(JobName.IdempotencyCleanup, () => this.removeExpired());
    await this.jobs.repeat(JobName.IdempotencyCleanup, 3600_000);
  }

  private get ttlSeconds() {
    return this.config.api.idempotencyTtlMs / 1000;
  }

  /**
   * Becomes the owner of (user, key), or answers what its owner answered. Waits (polling, no
   * connection held) while the owner runs, up to `waitMs`.
   */
  async claim(userId: string, key: string, fingerprint: string, waitMs = 120_000): Promise<Claim> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const won = returned(
        await this.db.query(
          `INSERT INTO idempotency_keys (user_id, key, fingerprint) VALUES ($1, $2, $3)
           ON CONFLICT (user_id, key) DO UPDATE
             SET fingerprint = EXCLUDED.fingerprint, status_code = NULL, response = NULL, created_at = now(), completed_at = NULL
             WHERE idempotency_keys.created_at < now() - make_interval(secs => $4)
                OR (idempotency_keys.completed_at IS NULL AND idempotency_keys.created_at < now() - make_interval(secs => $5))
           RETURNING key`,
          [userId, key, fingerprint, this.ttlSeconds, ABANDONED_SECONDS],
        ),
      );
      if (won.length) return { kind: 'owner' };
      const [row]: Array<{ fingerprint: string; status_code: number | null; response: string | null }> = await this.db.query(
        `SELECT fingerprint, status_code, response FROM idempotency_keys WHERE user_id = $1 AND key = $2`,
        [userId, key],
      );
      if (row) {
        if (row.fingerprint !== fingerprint)
          throw new UnprocessableEntityException({
            message: 'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
            code: 'idempotency_key_reused',
          });
        // Kept as text, not jsonb: jsonb would reorder the keys and the replay would differ.
        if (row.status_code !== null && row.response) return { kind: 'replay', response: JSON.parse(row.response) };
      }
      // Still running (or just released after a server error: then the next INSERT wins).
      if (Date.now() > deadline)
        throw new ConflictException({ message: 'A request with this Idempotency-Key is still being processed. Try again shortly.', code: 'idempotency_in_progress' });
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  async complete(userId: string, key: string, response: StoredResponse): Promise<void> {
    await this.db.query(`UPDATE idempotency_keys SET status_code = $3, response = $4, completed_at = now() WHERE user_id = $1 AND key = $2`, [
      userId,
      key,
      response.status,
      JSON.stringify(response),
    ]);
  }

  /** A server error is not remembered: the client may retry with the same key. */
  async release(userId: string, key: string): Promise<void> {
    await this.db.query(`DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND completed_at IS NULL`, [userId, key]);
  }

  async removeExpired(): Promise<number> {
    const rows = returned(
      await this.db.query(`DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(secs => $1) RETURNING key`, [this.ttlSeconds]),
    );
    if (rows.length) this.logger.log(`removed ${rows.length} expired idempotency key(s)`);
    return rows.length;
  }
}
