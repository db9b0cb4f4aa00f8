import { Injectable } from '@nestjs/common';

/** The reason a cancelled run is aborted with; the job recognises it and ends quietly. */
export class PrintCancelled extends Error {
  constructor() {
    super('The print was cancelled');
  }
}

/**
 * The running processing jobs of this process, so a cancel can stop a render at once
 * instead of deleting files under it. A job running in another process (a worker) learns
 * of the cancel by polling its print's status (PRINT_CANCEL_POLL_MS); both end in the same
 * AbortSignal, and the job's `finally` is the one place that removes the run's files.
 */
@Injectable()
export class PrintCancellations {
  private readonly running = new Map<string, Set<AbortController>>();

  /** Registers a run; call the returned function when it ends. */
  register(printId: string, attempt: number, controller: AbortController): () => void {
    const key = `${printId}:${attempt}`;
    const set = this.running.get(key) ?? new Set();
    set.add(controller);
    this.running.set(key, set);
    return () => {
      set.delete(controller);
      if (!set.size) this.running.delete(key);
    };
  }

  /** Aborts the runs of this attempt in this process (none in an API that does not run jobs). */
  abort(printId: string, attempt: number): void {
    for (const c of this.running.get(`${printId}:${attempt}`) ?? []) c.abort(new PrintCancelled());
  }
}
