import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { JobName, JobPayload } from './jobs';
import { AddJobOptions, FailedHandler, JobHandler, JobRunner, JobState, ProcessOptions } from './queue.types';

interface Registered {
  handler: JobHandler<any>;
  concurrency: number;
  running: number;
  onFailed?: FailedHandler<any>;
}

interface PendingJob {
  id: string;
  name: JobName;
  data: unknown;
  attempts: number;
  attemptsMade: number;
  backoffMs: number;
}

/**
 * The embedded default's job runner: the same processors as Bull, run in this process.
 * Jobs live in memory, so the jobs of a process that stops are gone; the recovery sweep at
 * the next start finds their prints and images still processing and enqueues them again.
 */
export class InProcessRunner implements JobRunner {
  private readonly logger = new Logger('Jobs');
  private readonly handlers = new Map<string, Registered>();
  private readonly waiting: PendingJob[] = [];
  private readonly active = new Set<string>();
  private readonly timers: NodeJS.Timeout[] = [];
  private closed = false;

  /** processJobs false: only enqueues (a test app standing in for an API node). */
  constructor(private readonly processJobs = true) {}

  async add<N extends JobName>(name: N, data: JobPayload<N>, opts: AddJobOptions = {}) {
    const id = opts.jobId ?? randomUUID();
    if (this.active.has(id)) return { id, added: false };
    this.active.add(id);
    this.waiting.push({ id, name, data, attempts: opts.attempts ?? 1, attemptsMade: 0, backoffMs: opts.backoffMs ?? 1000 });
    setImmediate(() => this.drain());
    return { id, added: true };
  }

  process<N extends JobName>(name: N, handler: JobHandler<JobPayload<N>>, { concurrency = 1, onFailed }: ProcessOptions<JobPayload<N>> = {}) {
    if (!this.processJobs) return;
    this.handlers.set(name, { handler, concurrency, running: 0, onFailed });
    setImmediate(() => this.drain());
  }

  async repeat(name: JobName, everyMs: number) {
    if (!this.processJobs) return;
    const timer = setInterval(() => void this.add(name, {} as JobPayload<typeof name>, { jobId: `repeat:${name}` }), everyMs);
    timer.unref();
    this.timers.push(timer);
  }

  async state(_name: JobName, jobId: string): Promise<JobState> {
    // Only this process runs jobs, and it forgets finished ones.
    return this.active.has(jobId) ? 'live' : 'missing';
  }

  async health() {
    if (this.closed) throw new Error('job runner closed');
  }

  async close() {
    this.closed = true;
    this.timers.forEach(clearInterval);
  }

  private drain() {
    if (this.closed) return;
    for (let i = 0; i < this.waiting.length; ) {
      const job = this.waiting[i];
      const reg = this.handlers.get(job.name);
      if (!reg || reg.running >= reg.concurrency) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      reg.running++;
      void this.run(job, reg).finally(() => {
        reg.running--;
        this.drain();
      });
    }
  }

  private async run(job: PendingJob, reg: Registered) {
    const ctx = {
      id: job.id,
      name: job.name,
      data: job.data,
      attemptsMade: job.attemptsMade,
      progress: async () => undefined,
    };
    try {
      await reg.handler(ctx);
      this.active.delete(job.id);
    } catch (error) {
      job.attemptsMade++;
      if (job.attemptsMade < job.attempts && !this.closed) {
        this.logger.warn(`${job.name} ${job.id} failed (attempt ${job.attemptsMade}): ${error}`);
        setTimeout(() => {
          this.waiting.push(job);
          this.drain();
        }, job.backoffMs * 2 ** (job.attemptsMade - 1)).unref();
        return;
      }
      this.active.delete(job.id);
      this.logger.error(`${job.name} ${job.id} failed for good: ${error}`);
      await reg.onFailed?.({ ...ctx, attemptsMade: job.attemptsMade }, error as Error).catch((e) =>
        this.logger.error(`onFailed for ${job.id}: ${e}`),
      );
    }
  }
}
