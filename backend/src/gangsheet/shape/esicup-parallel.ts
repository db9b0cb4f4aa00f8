/**
 * ESICUP nesting on every core: independent searches with different seeds, the shortest
 * checked strip wins; or (`race`) the threads racing on one strip, as the artwork layouts do.
 *
 * The overlap minimisation is stochastic and its results spread from seed to seed more than
 * tuning moves them, so a second search on the second core buys more than a second search's
 * worth of time in one thread would: sparrow's records, too, are the best of many runs.
 */
import { availableParallelism } from 'os';
import { EsicupInstance, EsicupSolution, nestEsicup, NestEsicupOptions } from './esicup';
import { startEngineWorker } from './engine-worker';

/** Seeds far apart, so the searches share no random sequence. */
export const SEED_STRIDE = 7919;

/** One worker's search (see `startEngineWorker`): its budget runs to the common deadline. */
export function esicupWorker(d: { inst: EsicupInstance; opts: NestEsicupOptions; endAt: number }): EsicupSolution {
  return nestEsicup(d.inst, { ...d.opts, timeLimitMs: Math.max(1, d.endAt - Date.now()) });
}

export interface ParallelOptions extends NestEsicupOptions {
  /** Searches at once; default one per core (at most 8). */
  threads?: number;
  /**
   * The threads race on one strip (race.ts; `NestEsicupOptions.threads`) instead of searching
   * side by side: each shorter strip any of them finds is shared at once.
   */
  race?: boolean;
}

export async function nestEsicupParallel(inst: EsicupInstance, opts: ParallelOptions): Promise<EsicupSolution> {
  const threads = Math.max(1, Math.min(8, opts.threads ?? availableParallelism()));
  const { threads: _threads, race, ...single } = opts;
  const seed = single.seed ?? 1;
  if (threads === 1) return nestEsicup(inst, single);
  if (race) return nestEsicup(inst, { ...single, threads });
  // one deadline for all: a worker's start-up (loading the engine) comes out of its own budget
  const endAt = Date.now() + single.timeLimitMs;
  const workers = Array.from({ length: threads - 1 }, (_, i) => {
    const w = startEngineWorker(__filename, 'esicupWorker', { inst, opts: { ...single, seed: seed + (i + 1) * SEED_STRIDE }, endAt });
    return new Promise<EsicupSolution>((resolve, reject) => {
      w.once('message', (sol: EsicupSolution) => resolve(sol));
      w.once('error', reject);
      w.once('exit', (code) => (code ? reject(new Error(`nesting worker exited with code ${code}`)) : undefined));
    });
  });
  // this thread runs the first search itself while the workers run theirs
  const mine = nestEsicup(inst, { ...single, seed, timeLimitMs: Math.max(1, endAt - Date.now()) });
  const all = [mine, ...(await Promise.all(workers))];
  // shortest strip; ties go to the lower thread, so a run is reproducible with maxEvaluations
  return all.reduce((best, s) => (s.length < best.length - 1e-12 ? s : best));
}
