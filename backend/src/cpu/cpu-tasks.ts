/**
 * The work the CPU workers do (see cpu-pool.ts): every function takes and returns plain,
 * serialisable data, so it can run in a child process. Callers go through CpuPool.run;
 * tests and benchmarks may call these directly to compare with the pooled path.
 */
import { inspectUpload, measureArt, previewWebp } from '../images/image-decode';
import { engineInProcess } from '../prints/engine.adapter';

export const cpuTasks = {
  inspectUpload,
  measureArt,
  previewWebp,
  engineInspect: engineInProcess.inspect,
  engineLayout: engineInProcess.layout,
  engineCompare: engineInProcess.compare,
  engineRender: engineInProcess.render,
  /** Pool plumbing checks: the worker's pid, and a busy loop that only a kill ends. */
  pid: async () => process.pid,
  spin: async (ms: number) => {
    const end = Date.now() + ms;
    while (Date.now() < end);
    return process.pid;
  },
};

export type CpuTasks = typeof cpuTasks;
export type CpuTaskName = keyof CpuTasks;
