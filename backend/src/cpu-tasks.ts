/**
 * The work the CPU workers do (see cpu/cpu-pool.ts), composed here because it is the only
 * place that may know both the pool and the features: the pool's own tasks plus the CPU-bound
 * functions the features hand to it. Every function takes and returns plain, serialisable
 * data, so it can run in a child process. Callers go through CpuPool.run; tests and
 * benchmarks may call these directly to compare with the pooled path.
 */
import { join } from 'node:path';
import type { CpuTasks } from './cpu/cpu-pool';
import { poolTasks } from './cpu/pool-tasks';
import { inspectUpload, measureArt, previewWebp } from './images/image-decode';
import { engineInProcess } from './prints/engine.adapter';

/** The features' tasks, added to the pool's task map so `CpuPool.run` checks names and arguments. */
declare module './cpu/cpu-pool' {
  interface CpuTasks {
    inspectUpload: typeof inspectUpload;
    measureArt: typeof measureArt;
    previewWebp: typeof previewWebp;
    engineInspect: typeof engineInProcess.inspect;
    engineLayout: typeof engineInProcess.layout;
    engineCompare: typeof engineInProcess.compare;
    engineCheckLayout: typeof engineInProcess.checkLayout;
    engineRender: typeof engineInProcess.render;
  }
}

/** Typed as the whole task map: a task declared above but not registered here does not compile. */
export const cpuTasks: CpuTasks = {
  ...poolTasks,
  inspectUpload,
  measureArt,
  previewWebp,
  engineInspect: engineInProcess.inspect,
  engineLayout: engineInProcess.layout,
  engineCompare: engineInProcess.compare,
  engineCheckLayout: engineInProcess.checkLayout,
  engineRender: engineInProcess.render,
};

/** The worker entry (cpu.worker.ts next to this file), without its extension. */
export const CPU_WORKER = join(__dirname, 'cpu.worker');
