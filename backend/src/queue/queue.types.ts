/** Queues and their jobs, with a typed payload per job. */
export enum QueueName {
  Images = 'images',
  Prints = 'prints',
  Maintenance = 'maintenance',
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

/** Called once a job has failed for good (all attempts used). */
export type FailedHandler<T = unknown> = (job: JobContext<T>, error: Error) => Promise<void>;

export interface JobRunner {
  add<T>(queue: QueueName, name: string, data: T, opts?: AddJobOptions): Promise<{ id: string; added: boolean }>;
  process<T>(queue: QueueName, name: string, handler: JobHandler<T>, concurrency?: number, onFailed?: FailedHandler<T>): void;
  /** Runs `name` every `everyMs` on exactly one node (Bull repeatable job / local timer). */
  repeat(queue: QueueName, name: string, everyMs: number): Promise<void>;
  health(): Promise<void>;
  close(): Promise<void>;
}
