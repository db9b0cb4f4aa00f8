/**
 * Entry point of one CPU worker (a child process forked by CpuPool; part of the composition
 * root, since it loads every feature's tasks). Every task first tells
 * the pool which process runs it, so an abort can wait until that process is gone; tasks
 * that report progress get an `emit` callback as their last argument.
 */
import workerpool from 'workerpool';
import { cpuTasks } from './cpu-tasks';
import { PID_EVENT } from './cpu/cpu-worker-protocol';

const announced =
  <A extends unknown[], R>(fn: (...args: A) => R) =>
  (...args: A): R => {
    workerpool.workerEmit({ [PID_EVENT]: process.pid });
    return fn(...args);
  };

workerpool.worker(
  Object.fromEntries(
    Object.entries({
      ...cpuTasks,
      engineRender: (req: Parameters<typeof cpuTasks.engineRender>[0]) => cpuTasks.engineRender(req, (p) => workerpool.workerEmit(p)),
    }).map(([name, fn]) => [name, announced(fn as (...args: unknown[]) => unknown)]),
  ),
);
