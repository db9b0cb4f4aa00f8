import type { JobName, JobPayload } from './jobs';

/** The queues (Bull queue names); which job runs on which is `JOB_QUEUES` in jobs.ts. */
export enum QueueName {
  Images = 'images',
  Prints = 'prints',
  Maintenance = 'maintenance',
  /** Payment reconciliation (one processor per queue keeps Bull's shutdown clean). */
  Payments = 'payments',
  Shops = 'shops',
  Webhooks = 'webhooks',
  Mail = 'mail',
}

export interface JobContext<T> {
  id: string;
  name: JobName;
  data: T;
  attemptsMade: number;
  /** 0–100. */
  progress(percent: number): Promise<void>;
}

export type JobHandler<T = unknown> = (job: JobContext<T>) => Promise<unknown>;

export interface AddJobOptions {
  /** Deterministic id: adding a job whose id is waiting or running does nothing. */
  jobId?: string;
  attempts?: number;
  backoffMs?: number;
}

/**
 * Called once a job has failed for good: all attempts used, or given up by the runner
 * (Bull fails a job that stalled more than once — its worker died twice — without using
 * its attempts).
 */
export type FailedHandler<T = unknown> = (job: JobContext<T>, error: Error) => Promise<void>;

/**
 * Where a job is: `waiting` (queued or delayed for a retry), `running` (a worker holds it),
 * finished, or `missing`: unknown to the runner, or in no state it can run from (Bull's
 * `stuck`: a bare job record left when Redis lost its data under a running job).
 */
export type JobState = 'waiting' | 'running' | 'completed' | 'failed' | 'missing';

export interface ProcessOptions<T> {
  /** Jobs of this name run at once in this process (default 1). */
  concurrency?: number;
  /**
   * Jobs with a fairness group (jobGroup in jobs.ts): at most this many of one group run at
   * once (with Bull: on all nodes together), so other groups always find a free slot.
   * Default: concurrency − 1, at least 1.
   */
  groupCap?: number;
  onFailed?: FailedHandler<T>;
}

/**
 * Runs the jobs of jobs.ts: Bull on Redis (BullRunner) or in this process (InProcessRunner,
 * the embedded default). A process started with PROCESS_JOBS=false only enqueues: there
 * `process` and `repeat` do nothing, so modules register their handlers unconditionally.
 */
export interface JobRunner {
  add<N extends JobName>(name: N, data: JobPayload<N>, opts?: AddJobOptions): Promise<{ id: string; added: boolean }>;
  process<N extends JobName>(name: N, handler: JobHandler<JobPayload<N>>, opts?: ProcessOptions<JobPayload<N>>): void;
  /** Runs `name` every `everyMs` on exactly one node (Bull repeatable job / local timer). */
  repeat(name: JobName, everyMs: number): Promise<void>;
  /** For the recovery sweep: is the job with this id still going to run? */
  state(name: JobName, jobId: string): Promise<JobState>;
  health(): Promise<void>;
  close(): Promise<void>;
}
