/**
 * A worker thread that runs one exported function of an engine module on its `workerData`
 * and posts back what it returns (if anything). Under ts-node or jest the module is
 * TypeScript, so the thread registers ts-node first (a dev dependency, never needed by the
 * build, where the module is its compiled sibling).
 */
import { Worker } from 'worker_threads';

export function startEngineWorker(modulePath: string, fn: string, data: unknown): Worker {
  const source = `
const { parentPort, workerData } = require('worker_threads');
if (${JSON.stringify(modulePath)}.endsWith('.ts')) require('ts-node').register({ transpileOnly: true });
const result = require(${JSON.stringify(modulePath)})[${JSON.stringify(fn)}](workerData);
if (result !== undefined) parentPort.postMessage(result);
`;
  return new Worker(source, { eval: true, workerData: data });
}
