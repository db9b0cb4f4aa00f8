import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { JOB_RUNNER } from './queue.tokens';
import { JOB_QUEUES, JobName, JobPayload } from './jobs';
import { AddJobOptions, JobRunner, QueueName } from './queue.types';

export interface OutboxJob<N extends JobName> {
  name: N;
  data: JobPayload<N>;
  /** Required: the outbox row is keyed by it, and it makes a second enqueue a no-op. */
  jobId: string;
  attempts?: number;
  backoffMs?: number;
}

interface OutboxRow {
  job_id: string;
  queue: QueueName;
  name: JobName;
  data: unknown;
  attempts: number;
  backoff_ms: number;
}

/**
 * The transactional outbox: `write` records a job in the caller's transaction, `dispatch`
 * enqueues it after the commit and deletes the row. A process that dies between the two
 * leaves the row, which `dispatchPending` (the recovery sweep) enqueues later; the job id
 * is deterministic, so enqueueing twice runs the job once.
 */
@Injectable()
export class OutboxService {
  private readonly logger = new Logger('Outbox');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(JOB_RUNNER) private readonly jobs: JobRunner,
  ) {}

  async write<N extends JobName>(m: EntityManager, job: OutboxJob<N>): Promise<void> {
    await m.query(
      `INSERT INTO job_outbox (job_id, queue, name, data, attempts, backoff_ms) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (job_id) DO NOTHING`,
      [job.jobId, JOB_QUEUES[job.name], job.name, JSON.stringify(job.data), job.attempts ?? 1, job.backoffMs ?? 1000],
    );
  }

  /** Enqueues the job and deletes its row; throws when the queue refuses it (the row stays). */
  async dispatch(jobId: string): Promise<boolean> {
    const [row]: OutboxRow[] = await this.db.query(`SELECT * FROM job_outbox WHERE job_id = $1`, [jobId]);
    if (!row) return false;
    const opts: AddJobOptions = { jobId: row.job_id, attempts: row.attempts, backoffMs: row.backoff_ms };
    await this.jobs.add(row.name, row.data as JobPayload<JobName>, opts);
    await this.db.query(`DELETE FROM job_outbox WHERE job_id = $1`, [jobId]);
    return true;
  }

  /** Drops a row whose job must not run any more (its attempt was ended before the enqueue). */
  async discard(jobId: string): Promise<void> {
    await this.db.query(`DELETE FROM job_outbox WHERE job_id = $1`, [jobId]);
  }

  /** True while a job is written but not yet enqueued. */
  async pending(jobId: string): Promise<boolean> {
    return (await this.db.query(`SELECT 1 FROM job_outbox WHERE job_id = $1`, [jobId])).length > 0;
  }

  /** Enqueues rows older than `graceMs` (younger ones are being dispatched by their request). */
  async dispatchPending(graceMs: number): Promise<number> {
    const rows: Array<{ job_id: string }> = await this.db.query(
      `SELECT job_id FROM job_outbox WHERE created_at < now() - make_interval(secs => $1) ORDER BY created_at LIMIT 500`,
      [graceMs / 1000],
    );
    let n = 0;
    for (const r of rows) {
      try {
        if (await this.dispatch(r.job_id)) n++;
      } catch (e) {
        this.logger.error(`dispatch of ${r.job_id} failed (kept for the next sweep): ${e}`);
      }
    }
    if (n) this.logger.log(`dispatched ${n} job(s) left in the outbox`);
    return n;
  }
}
