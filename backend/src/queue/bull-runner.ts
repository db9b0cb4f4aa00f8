import { Logger } from '@nestjs/common';
import Bull, { Queue } from 'bull';
import { JOB_QUEUES, jobGroup, JobName, JobPayload } from './jobs';
import { AddJobOptions, JobHandler, JobRunner, JobState, ProcessOptions, QueueName } from './queue.types';

/** How long a group's claim on a running slot lasts unless renewed (a dead worker's frees by then). */
const SLOT_TTL_MS = 30_000;
/** How long a queued job counts towards its group's priority unless it finishes first. */
const LIVE_TTL_MS = 3600_000;
/** Bull's largest priority. */
const MAX_PRIORITY = 2_097_152;
/** How long after a job failed its failure handler is taken to be still at work. */
const FAILED_HANDLER_GRACE_MS = 10_000;

/**
 * Claims a running slot for a job of a group (KEYS[1]: the group's set of running job ids,
 * scored by when their claim expires): yes when the job holds one already or the group has
 * fewer than ARGV[2] live claims. Redis's clock, so nodes' clocks do not matter.
 */
const CLAIM_SLOT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return 1
end
return 0`;

/** Counts a group's live jobs (KEYS[1]) before adding ARGV[1]; the count is the new job's place. */
const COUNT_AND_ADD = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local n = redis.call('ZCARD', KEYS[1])
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return n`;

/**
 * Where a job is, read in one step (Bull's own getState reads the lists one after another,
 * so a job moving from waiting to active between two reads looks "stuck").
 * KEYS: job hash, completed, failed, delayed, active, wait, paused; ARGV[1]: job id.
 */
const JOB_STATE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 'missing' end
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 'completed' end
if redis.call('ZSCORE', KEYS[3], ARGV[1]) then return 'failed' end
if redis.call('ZSCORE', KEYS[4], ARGV[1]) then return 'delayed' end
if redis.call('LPOS', KEYS[5], ARGV[1]) then return 'active' end
if redis.call('LPOS', KEYS[6], ARGV[1]) then return 'waiting' end
if redis.call('LPOS', KEYS[7], ARGV[1]) then return 'paused' end
return 'stuck'`;

export interface BullRunnerOptions {
  /** How often the repeating jobs are re-registered (they are gone when Redis lost its data). */
  repeatCheckMs?: number;
}

/**
 * Bull on Redis: jobs survive restarts, any number of worker processes share them, and a
 * job whose worker died is picked up again by Bull's stalled-job check.
 *
 * Fairness (jobs with a group, see jobGroup): a job's Bull priority is 1 + the number of its
 * group's jobs already queued or running, so a seller with nothing queued goes ahead of
 * another's backlog; and a group's running jobs on all nodes are capped (a claim in Redis,
 * renewed while the job runs): a worker that takes a job of a group at its cap puts it back,
 * delayed a little, without using one of its attempts.
 */
export class BullRunner implements JobRunner {
  private readonly logger = new Logger('Jobs');
  private readonly queues = new Map<QueueName, Queue>();
  private readonly repeats = new Map<JobName, number>();
  private repeatTimer?: NodeJS.Timeout;

  constructor(
    private readonly redisUrl: string,
    private readonly prefix: string,
    private readonly settings: Bull.AdvancedSettings = {},
    /** False on an API node that only enqueues (PROCESS_JOBS=false). */
    private readonly processJobs = true,
    private readonly options: BullRunnerOptions = {},
  ) {}

  private queue(name: QueueName): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Bull(name, this.redisUrl, { prefix: this.prefix, settings: this.settings });
      q.on('error', (e) => this.logger.error(`queue ${name}: ${e.message}`));
      // Bull names the blocking connection (CLIENT SETNAME, diagnostics only) in a promise
      // nobody handles: a queue closed right after process() rejects it as unhandled.
      const setWorkerName = (q as any).setWorkerName.bind(q);
      (q as any).setWorkerName = () => setWorkerName().catch(() => undefined);
      // A Redis that comes back after an outage may have come back empty: register the
      // repeating jobs of this queue again (a no-op when they are still there).
      q.client.on('ready', () => void this.registerRepeats(name));
      this.queues.set(name, q);
    }
    return q;
  }

  private groupKey(queue: QueueName, kind: 'running' | 'live', group: string) {
    return `${this.prefix}:${queue}:fair:${kind}:${group}`;
  }

  async add<N extends JobName>(name: N, data: JobPayload<N>, opts: AddJobOptions = {}) {
    const queueName = JOB_QUEUES[name];
    const q = this.queue(queueName);
    if (opts.jobId) {
      const state = await this.rawState(q, opts.jobId);
      if (state !== 'missing') {
        if (state !== 'completed' && state !== 'failed' && state !== 'stuck') return { id: opts.jobId, added: false };
        // A finished job with the same id would make Bull ignore the new one; so would the
        // bare record of a job whose lists Redis lost.
        await (await q.getJob(opts.jobId))?.remove();
      }
    }
    const group = jobGroup(name, data);
    let priority: number | undefined;
    if (group !== undefined && opts.jobId) {
      const ahead = Number(await q.client.eval(COUNT_AND_ADD, 1, this.groupKey(queueName, 'live', group), opts.jobId, LIVE_TTL_MS));
      priority = Math.min(MAX_PRIORITY, 1 + ahead);
    }
    const job = await q.add(name, data, {
      jobId: opts.jobId,
      attempts: opts.attempts ?? 1,
      backoff: { type: 'exponential', delay: opts.backoffMs ?? 1000 },
      removeOnComplete: 1000,
      removeOnFail: 1000,
      ...(priority ? { priority } : {}),
    });
    return { id: String(job.id), added: true };
  }

  process<N extends JobName>(name: N, handler: JobHandler<JobPayload<N>>, { concurrency = 1, groupCap, onFailed }: ProcessOptions<JobPayload<N>> = {}) {
    if (!this.processJobs) return;
    type T = JobPayload<N>;
    const queueName = JOB_QUEUES[name];
    const q = this.queue(queueName);
    const cap = groupCap ?? Math.max(1, concurrency - 1);
    const run = (job: Bull.Job) =>
      handler({
        id: String(job.id),
        name,
        data: job.data as T,
        attemptsMade: job.attemptsMade,
        progress: async (p) => {
          await job.progress(p);
        },
      });
    void q.process(name, concurrency, async (job) => {
      const group = jobGroup(name, job.data as T);
      if (group === undefined) return run(job);
      const slots = this.groupKey(queueName, 'running', group);
      const claim = async () => Number(await q.client.eval(CLAIM_SLOT, 1, slots, String(job.id), cap, SLOT_TTL_MS)) === 1;
      if (!(await claim())) {
        // Back to the delayed set, lock released, attempts untouched; the further back in its
        // group's line (its priority), the longer, so a long backlog does not spin.
        const delay = Math.min(10_000, 200 * Math.max(1, job.opts.priority ?? 1));
        // (Job#moveToDelayed is Bull's, missing from its typings; with the job's lock token)
        const bullJob = job as Bull.Job & { moveToDelayed(timestamp: number): Promise<void> };
        await bullJob.moveToDelayed(Date.now() + delay);
        // Bull would now record the job as completed; it is not, it waits for its turn.
        bullJob.moveToCompleted = async () => null as never;
        return undefined;
      }
      const renew = setInterval(() => void claim().catch(() => undefined), SLOT_TTL_MS / 3);
      try {
        const result = await run(job);
        await q.client.zrem(this.groupKey(queueName, 'live', group), String(job.id)).catch(() => undefined);
        return result;
      } finally {
        clearInterval(renew);
        await q.client.zrem(slots, String(job.id)).catch(() => undefined);
      }
    });
    q.on('failed', (job, error) => {
      if (job.name !== name) return;
      // Final when Bull left the job in the failed set. Counting attempts is not enough:
      // a job that stalled too often (its worker was killed twice) is failed with attempts
      // to spare, and its print would stay Processing with the credits held.
      void job
        .getState()
        .then(async (state) => {
          if (state !== 'failed') return;
          const group = jobGroup(name, job.data as T);
          if (group !== undefined) await q.client.zrem(this.groupKey(queueName, 'live', group), String(job.id));
          await onFailed?.(
            {
              id: String(job.id),
              name,
              data: job.data as T,
              attemptsMade: job.attemptsMade,
              progress: async () => undefined,
            },
            error,
          );
        })
        .catch((e) => this.logger.error(`onFailed for ${job.id}: ${e}`));
    });
  }

  async repeat(name: JobName, everyMs: number) {
    if (!this.processJobs) return;
    this.repeats.set(name, everyMs);
    await this.addRepeat(name, everyMs);
    if (!this.repeatTimer) {
      // Redis may lose its data without the connection dropping (a flush, a failover to an
      // empty replica): then no 'ready' comes, and only this check brings the schedules back.
      this.repeatTimer = setInterval(() => void this.registerRepeats(), this.options.repeatCheckMs ?? 60_000);
      this.repeatTimer.unref();
    }
  }

  /** Adds the repeating jobs again (of one queue, or all): Bull keeps one schedule per name. */
  private async registerRepeats(queue?: QueueName) {
    for (const [name, everyMs] of this.repeats) {
      if (queue && JOB_QUEUES[name] !== queue) continue;
      await this.addRepeat(name, everyMs).catch((e) => this.logger.warn(`re-registering ${name}: ${e}`));
    }
  }

  private async addRepeat(name: JobName, everyMs: number) {
    await this.queue(JOB_QUEUES[name]).add(name, {}, { repeat: { every: everyMs }, jobId: `repeat:${name}`, removeOnComplete: true, removeOnFail: 100 });
  }

  private async rawState(q: Queue, jobId: string): Promise<string> {
    const keys = ['', 'completed', 'failed', 'delayed', 'active', 'wait', 'paused'].map((k) => (k ? q.toKey(k) : q.toKey(jobId)));
    return String(await q.client.eval(JOB_STATE, keys.length, ...keys, jobId));
  }

  async state(name: JobName, jobId: string): Promise<JobState> {
    const q = this.queue(JOB_QUEUES[name]);
    const state = await this.rawState(q, jobId);
    if (state === 'failed') {
      // Bull moves a job to the failed set before the 'failed' event reaches its handler;
      // until the handler has had its moment the job counts as held, so a sweep does not
      // end the print first with a text that lacks the failure's reason
      const finishedOn = Number(await q.client.hget(q.toKey(jobId), 'finishedOn'));
      return Date.now() - finishedOn < FAILED_HANDLER_GRACE_MS ? 'running' : 'failed';
    }
    if (state === 'completed') return state;
    // an active job of a dead worker is Bull's to recover (its stalled-job check)
    if (state === 'active') return 'running';
    if (state === 'waiting' || state === 'delayed' || state === 'paused') return 'waiting';
    // 'stuck' (a record in no list: Redis lost the lists under it) runs nowhere, ever
    return 'missing';
  }

  async health() {
    const q = this.queue(QueueName.Maintenance);
    await q.isReady();
    await q.client.ping();
  }

  async close() {
    clearInterval(this.repeatTimer);
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
