import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { jobGroup, JobName, JobPayload } from './jobs';
import { AddJobOptions, FailedHandler, JobHandler, JobRunner, JobState, ProcessOptions } from './queue.types';

interface Registered {
  handler: JobHandler<any>;
  concurrency: number;
  groupCap: number;
  running: number;
  /** Per fairness group: its running jobs and when it last started one (for round-robin). */
  groups: Map<string, { running: number; lastStart: number }>;
  onFailed?: FailedHandler<any>;
}

interface PendingJob {
  id: string;
  name: JobName;
  data: unknown;
  attempts: number;
  attemptsMade: number;
  backoffMs: number;
  group?: string;
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
  /** Ids of the jobs waiting, running or between attempts (a second add of one is a no-op). */
  private readonly active = new Set<string>();
  private readonly running = new Set<string>();
  private readonly timers: NodeJS.Timeout[] = [];
  private closed = false;
  /** Counts job starts: a group's lastStart orders the round-robin. */
  private starts = 0;

  /** processJobs false: only enqueues (a test app standing in for an API node). */
  constructor(private readonly processJobs = true) {}

  async add<N extends JobName>(name: N, data: JobPayload<N>, opts: AddJobOptions = {}) {
    const id = opts.jobId ?? randomUUID();
    if (this.active.has(id)) return { id, added: false };
    this.active.add(id);
    this.waiting.push({ id, name, data, attempts: opts.attempts ?? 1, attemptsMade: 0, backoffMs: opts.backoffMs ?? 1000, group: jobGroup(name, data) });
    setImmediate(() => this.drain());
    return { id, added: true };
  }

  process<N extends JobName>(name: N, handler: JobHandler<JobPayload<N>>, { concurrency = 1, groupCap, onFailed }: ProcessOptions<JobPayload<N>> = {}) {
    if (!this.processJobs) return;
    this.handlers.set(name, { handler, concurrency, groupCap: groupCap ?? Math.max(1, concurrency - 1), running: 0, groups: new Map(), onFailed });
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
    if (this.running.has(jobId)) return 'running';
    return this.active.has(jobId) ? 'waiting' : 'missing';
  }

  async health() {
    if (this.closed) throw new Error('job runner closed');
  }

  async close() {
    this.closed = true;
    this.timers.forEach(clearInterval);
  }

  /**
   * Starts waiting jobs while their handlers have free slots. Of the jobs that may start, the
   * one whose group has the fewest running jobs goes first, then the group that started one
   * least recently (round-robin), then the oldest; a group at its cap waits.
   */
  private drain() {
    if (this.closed) return;
    for (;;) {
      let best = -1;
      let bestKey: [number, number] = [Infinity, Infinity];
      for (let i = 0; i < this.waiting.length; i++) {
        const job = this.waiting[i];
        const reg = this.handlers.get(job.name);
        if (!reg || reg.running >= reg.concurrency) continue;
        const g = job.group === undefined ? undefined : reg.groups.get(job.group);
        if (g && g.running >= reg.groupCap) continue;
        const key: [number, number] = [g?.running ?? 0, g?.lastStart ?? 0];
        if (key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) {
          best = i;
          bestKey = key;
        }
      }
      if (best < 0) return;
      const [job] = this.waiting.splice(best, 1);
      const reg = this.handlers.get(job.name)!;
      let g: { running: number; lastStart: number } | undefined;
      if (job.group !== undefined) {
        g = reg.groups.get(job.group) ?? { running: 0, lastStart: 0 };
        reg.groups.set(job.group, g);
        g.running++;
        g.lastStart = ++this.starts;
      }
      reg.running++;
      this.running.add(job.id);
      void this.run(job, reg).finally(() => {
        reg.running--;
        if (g) g.running--;
        this.running.delete(job.id);
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
