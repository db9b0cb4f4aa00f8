/** Queues and their jobs, with a typed payload per job. */
export enum QueueName {
  Images = 'images',
  Prints = 'prints',
  Maintenance = 'maintenance',
  /** Payment reconciliation (one processor per queue keeps Bull's shutdown clean). */
  Payments = 'payments',
}

export interface JobContext<T> {
  id: string;
  name: string;
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

/** Where a job is: `live` (waiting, delayed or running), finished, or unknown to the runner. */
export type JobState = 'live' | 'completed' | 'failed' | 'missing';

export interface JobRunner {
  add<T>(queue: QueueName, name: string, data: T, opts?: AddJobOptions): Promise<{ id: string; added: boolean }>;
  process<T>(queue: QueueName, name: string, handler: JobHandler<T>, concurrency?: number, onFailed?: FailedHandler<T>): void;
  /** Runs `name` every `everyMs` on exactly one node (Bull repeatable job / local timer). */
  repeat(queue: QueueName, name: string, everyMs: number): Promise<void>;
  /** For the recovery sweep: is the job with this id still going to run? */
  state(queue: QueueName, jobId: string): Promise<JobState>;
  health(): Promise<void>;
  close(): Promise<void>;
}
