/**
 * The race helper: worker threads that race the calling thread on compacting a shape
 * layout's sheet (race.ts holds the strip they share). Each helper runs a bottom-left search
 * of its own (another seed) meanwhile, then compacts the shortest strip any thread has.
 */
import { Rng } from '../pack/rng';
import { startEngineWorker } from './engine-worker';
import { NestType, prepare } from './grid';
import { NestConfig, NestFixed, nestSheets } from './nest';
import { toCompactShape } from './compact-sheet';
import { compactStrip } from './overlap';
import type { PlacementRule } from './placement';
import { SharedStrip } from './race';

/**
 * The helper threads of a racing compaction (race.ts): each runs a bottom-left search of its
 * own until `searchEnd`, then compacts the shortest shared strip with its own random cuts
 * until `deadline` (performance.now() of this thread) or until the race is stopped; it ends
 * by `deadline` also when the caller throws. A helper that fails to start only means no
 * help: the calling thread compacts on its own.
 */
export function startRace(types: readonly NestType[], copies: readonly number[], cfg: NestConfig, searchEnd: number, deadline: number): SharedStrip {
  const race = SharedStrip.create(copies.length + (cfg.fixed?.length ?? 0), (cfg.threads ?? 1) - 1);
  const endAt = Date.now() + (deadline - performance.now());
  for (let k = 1; k < (cfg.threads ?? 1); k++) {
    const data: RaceHelperData = {
      types: types as NestType[],
      copies: copies as number[],
      maxRows: cfg.maxRows,
      rules: cfg.rules as PlacementRule[] | undefined,
      searchEndAt: Date.now() + (searchEnd - performance.now()),
      buffer: race.buffer,
      width: cfg.width,
      seed: (cfg.seed ?? 1) + 7 + 7919 * k,
      firstStep: cfg.compactFirstStep,
      cutTail: cfg.compactCutTail,
      endAt,
      helper: k,
      converge: cfg.converge,
      fixed: cfg.fixed as NestFixed[] | undefined,
    };
    const w = startEngineWorker(__filename, 'raceHelper', data);
    // a helper that fails publishes nothing: a converging compaction need not wait for it
    w.on('error', () => race.searchDone(k));
    w.unref();
  }
  return race;
}

interface RaceHelperData {
  types: NestType[];
  copies: number[];
  maxRows: number;
  rules?: PlacementRule[];
  /** Date.now() when the caller's bottom-left search ends. */
  searchEndAt: number;
  buffer: SharedArrayBuffer;
  width: number;
  seed: number;
  firstStep?: number;
  cutTail?: number;
  /** Date.now() deadline (clocks of performance.now() differ between threads). */
  endAt: number;
  /** Which helper this is (1-based), for `SharedStrip.searchDone`. */
  helper?: number;
  /** The caller converges: so does this helper's search (the caller ends the race). */
  converge?: boolean;
  /** Fixed copies: in the helper's search as in the caller's, and never moved by its compaction. */
  fixed?: NestFixed[];
}

/** A helper thread's work (see `startRace`). */
export function raceHelper(d: RaceHelperData): void {
  const race = new SharedStrip(d.buffer);
  // the pieces in the order of the copies, then the fixed copies (as the caller's compaction has them)
  const all = [...d.copies, ...(d.fixed ?? []).map((f) => f.type)];
  const fixed = d.fixed?.length ? all.map((_, i) => i >= d.copies.length) : undefined;
  // a bottom-left search of its own meanwhile (another seed): the shorter strip of the two
  // is the one both compact. Only on one endless sheet: with a maximum length the caller
  // compacts its last sheet, which holds other copies than a whole layout of the order.
  const searchMs = d.searchEndAt - Date.now();
  try {
    if (searchMs > 0 && !Number.isFinite(d.maxRows)) {
      const res = nestSheets(d.types, d.copies, { width: d.width, maxRows: d.maxRows, timeLimitMs: searchMs, seed: d.seed, rules: d.rules, converge: d.converge, fixed: d.fixed });
      const sheet = res.sheets[0];
      if (res.sheets.length === 1 && !race.over())
        race.publish(
          [...sheet.placements].sort((a, b) => a.copy - b.copy).map((p) => ({ type: all[p.copy], orientation: p.orientation, x: p.x, y: p.y })),
          sheet.rows,
        );
    }
  } finally {
    if (d.helper !== undefined) race.searchDone(d.helper);
  }
  const deadline = performance.now() + (d.endAt - Date.now());
  // the same objects its search prepared, so nothing is prepared twice
  const shapes = d.types.map((t) => t.orientations.map((o) => toCompactShape(prepare(o))));
  race.waitForStart(d.endAt - Date.now());
  const start = race.best();
  if (!start || race.over()) return;
  // fixed copies race on one endless sheet only, where the strip holds every copy
  if (fixed && (start.pieces.length !== all.length || start.pieces.some((p, i) => p.type !== all[i]))) return;
  compactStrip(shapes, start.pieces, { width: d.width, deadline, rng: new Rng(d.seed), firstStep: d.firstStep, cutTail: d.cutTail, race, fixed });
}
