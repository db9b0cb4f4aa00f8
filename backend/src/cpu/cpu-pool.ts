/**
 * CPU-heavy work (SVG checks and image decoding at upload, previews, layout search, sheet
 * rendering) runs in a small pool of child processes, never on the event loop that answers
 * HTTP requests, in the embedded default as well as in dedicated workers. Child processes
 * rather than worker threads: aborting a task kills its process at once, even inside a
 * libvips call, and nothing of it is left in the API's memory (terminating a thread in the
 * middle of a sharp call can take the whole process down). See docs/architecture.md.
 */
import { DynamicModule, Global, Inject, Module, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { extname, join } from 'node:path';
import workerpool from 'workerpool';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { PID_EVENT } from './cpu-worker-protocol';
import { poolTasks } from './pool-tasks';

/**
 * The tasks a worker runs, by name: the pool's own here; the composition root
 * (src/cpu-tasks.ts) adds the features' by augmenting this interface and registers their
 * functions, so cpu/ imports no feature and `run` still checks task names and arguments.
 */
export interface CpuTasks {
  pid: typeof poolTasks.pid;
  spin: typeof poolTasks.spin;
}
export type CpuTaskName = keyof CpuTasks;

/** Rejection of a task whose AbortSignal fired; `name` is 'AbortError' like the platform's own. */
export class AbortError extends Error {
  override name = 'AbortError';
  constructor(cause?: unknown) {
    super('The operation was aborted', { cause });
  }
}

export const isAbortError = (e: unknown): boolean => (e as Error | undefined)?.name === 'AbortError';

/** A task that ran longer than its time limit; its worker was killed. */
export class CpuTimeoutError extends Error {
  override name = 'CpuTimeoutError';
}

type ErrorClass = abstract new (...args: any[]) => Error;

export interface CpuRunOptions {
  /** Aborting kills the worker running the task and rejects with AbortError. */
  signal?: AbortSignal;
  /** Kills the worker and rejects with CpuTimeoutError after this long. */
  timeoutMs?: number;
  /** Events the task emits (progress). */
  onEvent?: (payload: any) => void;
  /** Errors thrown in the worker come back as plain Errors; these classes are restored by name. */
  errors?: readonly ErrorClass[];
}

export class CpuPool {
  private readonly pool: workerpool.Pool;

  /**
   * `worker`: the worker entry without its extension (the composition root's, which registers
   * every task); `env`: the workers' environment (config.cpu.workerEnv); without it they
   * inherit the parent's.
   */
  constructor(workers: number, worker: string, env?: NodeJS.ProcessEnv) {
    // Compiled (dist/) the worker is a .js; under ts-node/ts-jest a .ts, loaded through
    // ts-worker.js, which compiles it with ts-node as the child starts.
    const ts = extname(__filename) === '.ts';
    this.pool = workerpool.pool(ts ? join(__dirname, 'ts-worker.js') : `${worker}.js`, {
      workerType: 'process',
      maxWorkers: workers,
      // one worker starts with the app, so the first upload or preview does not wait for a process start
      minWorkers: 1,
      // how long a cancelled worker may take to exit by itself before it is killed
      workerTerminateTimeout: 250,
      forkArgs: ts ? [`${worker}.ts`] : [],
      forkOpts: {
        // structured clone: Buffers and typed arrays cross as binary, not JSON
        serialization: 'advanced',
        env,
      },
    });
  }

  async run<K extends CpuTaskName>(task: K, args: Parameters<CpuTasks[K]>, opts: CpuRunOptions = {}): Promise<Awaited<ReturnType<CpuTasks[K]>>> {
    const { signal } = opts;
    if (signal?.aborted) throw new AbortError(signal.reason);
    let pid: number | undefined;
    const on = (payload: any) => {
      if (typeof payload?.[PID_EVENT] === 'number') pid = payload[PID_EVENT];
      else opts.onEvent?.(payload);
    };
    const promise = this.pool.exec(task, args, { on });
    if (opts.timeoutMs) promise.timeout(opts.timeoutMs);
    // cancel() rejects at once and makes the pool terminate the worker running the task;
    // workerpool's synchronous promises may rethrow the cancellation from cancel() itself
    const onAbort = () => {
      try {
        promise.cancel();
      } catch {
        // the rejection is handled below
      }
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await promise;
    } catch (e) {
      const cancelled = e instanceof workerpool.Promise.CancellationError;
      const timedOut = e instanceof workerpool.Promise.TimeoutError;
      // Settle only once the process is gone, so that nothing it did outlives the rejection
      // (a caller may delete the folder it was writing to).
      if ((cancelled || timedOut) && pid !== undefined) await gone(pid);
      if (cancelled) throw new AbortError(signal?.reason);
      if (timedOut) throw new CpuTimeoutError(`${task} took longer than ${opts.timeoutMs} ms`);
      throw restore(e, opts.errors ?? []);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Tasks running or waiting for a worker. */
  inFlight(): number {
    const { activeTasks, pendingTasks } = this.pool.stats();
    return activeTasks + pendingTasks;
  }

  async close(): Promise<void> {
    await this.pool.terminate(true);
  }
}

/** Whether a process with this id still exists (signal 0 only checks). */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Waits until a cancelled worker has exited. The pool itself ends it (a terminate message,
 * then SIGTERM after workerTerminateTimeout), which takes well under a second; we only
 * watch, and stop watching after 5 s rather than signal a pid that may have been reused.
 */
async function gone(pid: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

/** Gives a worker's error its class back (instanceof checks keep working across the process boundary). */
function restore(e: unknown, classes: readonly ErrorClass[]): unknown {
  if (!(e instanceof Error)) return e;
  const cls = classes.find((c) => c.name === e.name);
  return cls ? Object.assign(Object.create(cls.prototype), e, { message: e.message, stack: e.stack }) : e;
}

/** The pool for the app; `forRoot(worker)` names the worker entry (see the CpuPool constructor). */
@Global()
@Module({})
export class CpuModule implements OnModuleInit, OnModuleDestroy {
  static forRoot(worker: string): DynamicModule {
    return {
      module: CpuModule,
      providers: [{ provide: CpuPool, useFactory: (config: AppConfig) => new CpuPool(config.cpu.workers, worker, config.cpu.workerEnv), inject: [APP_CONFIG] }],
      exports: [CpuPool],
    };
  }

  constructor(@Inject(CpuPool) private readonly pool: CpuPool) {}

  /** Start-up waits for the first worker: a broken worker set-up fails here, not at the first upload. */
  async onModuleInit() {
    await this.pool.run('pid', []);
  }

  onModuleDestroy() {
    return this.pool.close();
  }
}
