/**
 * True-shape nesting: the search over bottom-left fills.
 *
 * The copies are laid out on a raster occupancy grid (grid.ts) by a bottom-left fill under a
 * placement rule (placement.ts). A local search over the sequence (swaps and moves) and over
 * the fill rule's parameters, kept when the film does not get longer, improves it until the
 * time limit (or, with `compactShare`, until that share of it is left for compacting the
 * last sheet by overlap minimisation, compact-sheet.ts and overlap.ts: half in the product's
 * shape layouts, `nestShapes`), raced by helper threads when asked (race-helper.ts); with
 * `converge` (the product's layouts) each phase also ends once it has stopped finding shorter
 * layouts (`CONVERGENCE`). Copies that do not fit a sheet of the maximum length go to the
 * next sheet.
 */
import { Rng } from '../pack/rng';
import { compactLast, toCompactShape } from './compact-sheet';
import { CompactShape, gapOverlap } from './cell-overlap';
import { NestType, prepare, Prepared } from './grid';
import { BottomLeftFill, Evaluated, FillParams, PlacementRule, PresetPlacement, RULES } from './placement';
import { startRace } from './race-helper';
import type { OverlapMeasure } from './overlap';

export interface NestConfig {
  /** Sheet width in cells (the fixed dimension). */
  width: number;
  /** Maximum sheet length in cells; Infinity for one sheet. */
  maxRows: number;
  timeLimitMs: number;
  /** Deterministic effort cap (sequence evaluations), for tests. */
  maxEvaluations?: number;
  seed?: number;
  /**
   * Share of the time limit given to overlap-minimisation compaction of the last sheet
   * (overlap.ts) after the bottom-left search. Default 0 (off); `nestEsicup` uses 0.9 and the
   * product's shape layouts 0.5 (`nestShapes`; docs/gangsheet.md).
   */
  compactShare?: number;
  /** That compaction's first shrink step, a share of the length (overlap.ts FIRST_STEP by default). */
  compactFirstStep?: number;
  /** That compaction cuts only within this last share of the sheet (default 1: anywhere). */
  compactCutTail?: number;
  /** Deterministic effort cap for that compaction (position searches), for tests. */
  compactMoves?: number;
  /** That compaction's overlap measure (overlap.ts; default "cells"). */
  overlap?: OverlapMeasure;
  /** Only these placement rules (tests and benchmarks); default all of them. */
  rules?: readonly PlacementRule[];
  /**
   * Threads that race on that compaction (race.ts; default 1). The helpers start at once and
   * search with their own seeds meanwhile; only a timed compaction of at least RACE_MIN_MS
   * races (counted moves stay deterministic).
   */
  threads?: number;
  /**
   * Copies already placed (each of its own type, orientation 0): every sheet's fill starts
   * with those of that sheet, the others go around them; they never move. Sheets up to the
   * last one that holds a fixed copy always exist. The compaction of the last sheet moves
   * every copy but them, and so do the helpers racing on it (one endless sheet only).
   */
  fixed?: readonly NestFixed[];
  /**
   * Stop before the time limit once the layout has stopped getting shorter (`CONVERGENCE`):
   * the bottom-left search, then the compaction, each when it has found nothing shorter for
   * long enough. Timed runs only (counted ones stay deterministic); the time limit stays the
   * upper bound. Default false (run to the time limit); the product's shape layouts turn it
   * on (`nestShapes`).
   */
  converge?: boolean;
  /**
   * A starting layout (the seller's current one, around copies pinned or moved since): where
   * copies stood, by index into `copies`. The search's first layouts keep every one that
   * stands clear of the fixed copies and of those kept before it (in reading order), and
   * lay the others out around them (`startLayout`); the usual starting layouts still run,
   * and the shortest is searched on and compacted.
   */
  start?: readonly NestStart[];
}

/** A copy's place in a starting layout (`NestConfig.start`). */
export interface NestStart {
  /** Index into the copies array. */
  copy: number;
  sheet: number;
  /** Orientation index of the copy's type. */
  orientation: number;
  /** Cell of the mask's (0, 0). */
  x: number;
  y: number;
}

export interface NestPlacement {
  /** Index into the copies array; copies.length + k for the k-th fixed copy. */
  copy: number;
  /** Orientation index of the copy's type. */
  orientation: number;
  /** Cell of the mask's (0, 0). */
  x: number;
  y: number;
}

/** A fixed copy: its type (one orientation), sheet and cell of the mask's (0, 0). */
export interface NestFixed {
  type: number;
  sheet: number;
  x: number;
  y: number;
}

export interface NestSheet {
  /** Used length in cells: the far edge of the lowest ink. */
  rows: number;
  placements: NestPlacement[];
}

export interface NestResult {
  sheets: NestSheet[];
  evaluations: number;
  /**
   * A timed run that ended before its time limit: it had stopped getting shorter (`converge`)
   * or could not get any shorter. False for counted runs and for runs that used the whole limit.
   */
  converged: boolean;
  /** Wall time of the run, ms. */
  elapsedMs: number;
}

/** A copy that cannot fit an empty sheet in any orientation. */
export class NestPieceTooLargeError extends Error {
  constructor(
    readonly copy: number,
    readonly reason: 'width' | 'length',
  ) {
    super(`copy ${copy} does not fit the sheet ${reason}`);
    this.name = 'NestPieceTooLargeError';
  }
}

/**
 * Share of the search's evaluations that draw new fill parameters (window 3, 4, 6 or all
 * designs; tolerance 0.1–0.35 of a typical copy's side; area or width) instead of moving
 * copies in the sequence. The fill layouts' lengths jump with these parameters, so fresh
 * draws find shorter layouts more often than sequence moves do on orders of a few hundred
 * copies.
 */
const FILL_DRAWS = 0.5;
/**
 * Shortest budget that starts helper threads: a helper needs a few hundred ms to load the
 * engine and prepare its masks, and the quick previews would get little from it.
 */
export const RACE_MIN_MS = 3000;

/**
 * The repaired starting layout of `cfg.start`: per sheet, the fixed copies first, then the
 * start's copies in reading order, each kept where it stands if it fits there (within the
 * sheet, and clear of the fixed copies and of those kept before it by the gap); `rest`, the
 * copies displaced or without a place in the start, in the order of `order`, is laid out
 * around them by the fill.
 */
function startLayout(prepared: readonly (readonly Prepared[])[], copies: readonly number[], cfg: NestConfig, order: readonly number[]): { preset: PresetPlacement[]; rest: number[] } {
  const fixed = cfg.fixed ?? [];
  const seen = new Set<number>();
  const given = (cfg.start ?? [])
    .filter((q) => {
      const ok = Number.isInteger(q.copy) && q.copy >= 0 && q.copy < copies.length && !seen.has(q.copy) && prepared[copies[q.copy]][q.orientation] !== undefined;
      if (ok) seen.add(q.copy);
      return ok && (Number.isFinite(cfg.maxRows) || q.sheet === 0);
    })
    .sort((a, b) => a.sheet - b.sheet || a.y - b.y || a.x - b.x);
  // the engine's own test of two copies (`gapOverlap`: clear when either one's ink misses the
  // other's grown cells), as for fixed copies and the compaction; a bottom-left fill tests only
  // the new copy's ink, so its layouts hold copies that the reverse test alone would refuse
  const placed: { s: CompactShape; x: number; y: number; sheet: number }[] = fixed.map((f) => ({ s: toCompactShape(prepared[f.type][0]), x: f.x, y: f.y, sheet: f.sheet }));
  const preset: PresetPlacement[] = [];
  for (const q of given) {
    const s = toCompactShape(prepared[copies[q.copy]][q.orientation]);
    if (q.x < 0 || q.y < 0 || q.x + s.w > cfg.width || q.y + s.h > cfg.maxRows) continue;
    const clear = placed.every(
      (r) =>
        r.sheet !== q.sheet ||
        r.x - r.s.pad >= q.x + s.w ||
        q.x - s.pad >= r.x + r.s.w ||
        r.y - r.s.pad >= q.y + s.h ||
        q.y - s.pad >= r.y + r.s.h ||
        !gapOverlap(s, q.x, q.y, r.s, r.x, r.y, 1),
    );
    if (!clear) continue;
    placed.push({ s, x: q.x, y: q.y, sheet: q.sheet });
    preset.push({ copy: q.copy, orientation: q.orientation, x: q.x, y: q.y, sheet: q.sheet });
  }
  const kept = new Set(preset.map((q) => q.copy));
  return { preset, rest: order.filter((c) => !kept.has(c)) };
}

/**
 * Share of the compaction's time the layout laid over the fixed copies (`overLayout`) may
 * take to separate before the compaction goes on from the best feasible layout instead
 * (a separation that succeeds at the preview takes 40–280 ms of the 500).
 */
const RESEAT_SHARE = 0.35;
/** And at most this long (ms): at the product's budget a separation that has not ended by then will not. */
const RESEAT_MAX_MS = 1000;
/** That layout is separated in a strip this share longer than its own length (at its own length the overlap spreads instead of ending). */
const RESEAT_SLACK = 0.02;

/**
 * With fixed copies on one endless sheet: a layout of every copy as if nothing were fixed,
 * with the fixed copies put in over it where they stand, for the compaction to separate
 * (`CompactOptions.reseat`). A bottom-left fill (by `rule`) of the copies together with the
 * fixed copies' types as copies that may go anywhere (they come last, so at the far end);
 * each fixed copy's spot in it then goes to the copy of the fixed copy's design (the same
 * cells) nearest the fixed copy, whose own spot, by the fixed copy, is left free: the fixed
 * copy mostly covers the room its design had there, and the far end holds what the fixed
 * copies took. A bottom-left fill *around* the fixed copies instead leaves slivers under and
 * beside each of them and breaks the rows and columns of repeated copies where they stand.
 */
export function overLayout(prepared: readonly (readonly Prepared[])[], copies: readonly number[], cfg: NestConfig, order: readonly number[], rule: PlacementRule): { placements: NestPlacement[]; rows: number } | undefined {
  const fixed = cfg.fixed ?? [];
  if (!fixed.length || Number.isFinite(cfg.maxRows)) return undefined;
  const all = [...copies, ...fixed.map((f) => f.type)];
  const filler = new BottomLeftFill(prepared, all, { width: cfg.width, maxRows: cfg.maxRows });
  filler.rule = rule;
  const e = filler.evaluate([...order, ...fixed.map((_, k) => copies.length + k)], Infinity);
  if (!e || e.sheets.length !== 1) return undefined;
  const at = new Map(e.sheets[0].placements.map((p) => [p.copy, p]));
  const swapped = new Set<number>();
  fixed.forEach((f, k) => {
    const spot = at.get(copies.length + k);
    // a fixed copy on the cell grid is its design's prepared orientation itself
    const own = prepared[f.type][0];
    if (!spot) return;
    const dist = (p: { x: number; y: number }) => Math.hypot(p.x - f.x, p.y - f.y);
    let pick: NestPlacement | undefined;
    let o = -1;
    for (const p of at.values()) {
      if (p.copy >= copies.length || swapped.has(p.copy)) continue;
      const q = prepared[copies[p.copy]].indexOf(own);
      if (q < 0 || dist(p) >= (pick ? dist(pick) : dist(spot))) continue;
      pick = p;
      o = q;
    }
    if (!pick) return;
    swapped.add(pick.copy);
    at.set(pick.copy, { copy: pick.copy, orientation: o, x: spot.x, y: spot.y });
  });
  const placements = [...at.values()].filter((p) => p.copy < copies.length);
  let rows = fixed.reduce((m, f) => Math.max(m, f.y + prepared[f.type][0].h), 0);
  for (const p of placements) rows = Math.max(rows, p.y + prepared[copies[p.copy]][p.orientation].h);
  const pins = fixed.map((f, k): NestPlacement => ({ copy: copies.length + k, orientation: 0, x: f.x, y: f.y }));
  return { placements: [...placements, ...pins], rows };
}

/**
 * When a converging layout (`NestConfig.converge`) stops:
 * - the bottom-left search ends (and the compaction starts) once it has found no shorter
 *   layout for max(`searchMinMs`, `share` × the time to its last one) and made
 *   `searchEvaluations` evaluations since (fill draws and sequence moves; its gains are few
 *   and large, and a few dozen evaluations without one mean it has settled);
 * - the compaction ends once no thread has found a shorter strip for max(`compactMinMs`,
 *   `compactLimitShare` × the time limit, `share` × the time the compaction took to find its
 *   last one), and no racing helper's own search can still publish a start. Its gains are
 *   many and small and come at ever longer intervals, so the wait is a stretch of the budget
 *   (the budget says what a print's time is worth), and longer after late gains. It does not
 *   wait for an attempt to fail: a failed attempt can take seconds.
 * Why these values: docs/gangsheet.md, "Convergence".
 */
export const CONVERGENCE = { searchMinMs: 1000, searchEvaluations: 30, compactMinMs: 2000, compactLimitShare: 0.15, share: 1 } as const;

/** A converging compaction's patience (`CONVERGENCE`) under a time limit of `timeLimitMs`. */
function compactPatience(timeLimitMs: number): { minMs: number; share: number; failures: number } {
  return { minMs: Math.max(CONVERGENCE.compactMinMs, CONVERGENCE.compactLimitShare * timeLimitMs), share: CONVERGENCE.share, failures: 0 };
}

/**
 * Nests `copies` (each the index of its type) into as few sheets as it can, the last one
 * as short as it can. Deterministic for the same input with `maxEvaluations`.
 */
export function nestSheets(types: readonly NestType[], copies: readonly number[], cfg: NestConfig): NestResult {
  const start = performance.now();
  const fixed = cfg.fixed ?? [];
  if (copies.length === 0 && fixed.length === 0) return { sheets: [], evaluations: 0, converged: false, elapsedMs: 0 };
  const prepared = types.map((t) => t.orientations.map(prepare));
  // reject copies that cannot fit an empty sheet in any orientation
  copies.forEach((t, i) => {
    const os = types[t].orientations;
    if (!os.some((o) => o.mask.w <= cfg.width)) throw new NestPieceTooLargeError(i, 'width');
    if (!os.some((o) => o.mask.w <= cfg.width && o.mask.h <= cfg.maxRows)) throw new NestPieceTooLargeError(i, 'length');
  });
  const filler = new BottomLeftFill(prepared, copies, cfg);
  const areaOf = (t: number) => filler.areaOf(t);
  const evaluate = (seq: readonly number[], bound: number) => filler.evaluate(seq, bound);
  const rng = new Rng(cfg.seed ?? 1);
  const idx = copies.map((_, i) => i);
  const dims = (t: number) => {
    const m = types[t].orientations[0].mask;
    return { area: areaOf(t), h: Math.max(...types[t].orientations.map((o) => o.mask.h)), w: Math.max(m.w, m.h) };
  };
  const starts: number[][] = [
    [...idx].sort((a, b) => dims(copies[b]).area - dims(copies[a]).area || a - b),
    [...idx].sort((a, b) => dims(copies[b]).w - dims(copies[a]).w || a - b),
    [...idx].sort((a, b) => dims(copies[b]).h - dims(copies[a]).h || a - b),
  ].filter((s, i, all) => all.findIndex((o) => o.every((c, k) => c === s[k])) === i);
  const share = Math.min(0.95, Math.max(0, cfg.compactShare ?? 0));
  const searchMs = cfg.timeLimitMs * (1 - share);
  // helpers for the compaction start now, so they are ready when the search ends
  // with fixed copies only on one endless sheet: its strip holds them all, in a known order
  const racing = (fixed.length === 0 || !Number.isFinite(cfg.maxRows)) && share > 0 && cfg.maxEvaluations === undefined && cfg.compactMoves === undefined && (cfg.threads ?? 1) > 1 && cfg.timeLimitMs >= RACE_MIN_MS;
  const race = racing ? startRace(types, copies, cfg, start + searchMs, start + cfg.timeLimitMs) : undefined;
  const outOfTime = () =>
    cfg.maxEvaluations !== undefined ? filler.evaluations >= cfg.maxEvaluations : performance.now() - start >= searchMs;
  const converging = cfg.converge === true && cfg.maxEvaluations === undefined;
  // the search's last shorter layout (fewer rows or sheets): when, and after how many evaluations
  let gainAt = 0;
  let gainEvaluations = 0;
  const stalled = () =>
    converging &&
    filler.evaluations - gainEvaluations >= CONVERGENCE.searchEvaluations &&
    performance.now() - gainAt >= Math.max(CONVERGENCE.searchMinMs, CONVERGENCE.share * (gainAt - start));
  const gained = (e: Evaluated, old: Evaluated) => {
    if (Math.floor(e.cost) >= Math.floor(old.cost)) return;
    gainAt = performance.now();
    gainEvaluations = filler.evaluations;
  };
  let best: Evaluated | null = null;
  let bestSeq: number[] = starts[0];
  let bestRule: PlacementRule = filler.rule;
  let bestPreset: readonly PresetPlacement[] = [];
  // with one design the fill rule is the centre rule
  const designs = new Set(copies).size;
  const rules = (cfg.rules ?? RULES).filter((q) => designs > 1 || q !== 'fill');
  if (!rules.length) throw new Error('no placement rule to try');
  // every rule on the first order before any rule on the others: a short budget (the
  // preview) then sees every rule once (no rule is best on every order)
  // the starting layout given (the seller's current one, `cfg.start`) repaired around the
  // fixed copies: by the fill rule, right after the first usual starting layout (so that one
  // is never crowded out of a short budget by it)
  let repair = cfg.start?.length ? startLayout(prepared, copies, cfg, starts[0]) : undefined;
  starting: for (const s of starts)
    for (const r of rules) {
      filler.rule = r;
      const e = evaluate(s, best ? best.cost : Infinity);
      // one design: the lattice's even rows win a tie in length (same film, and the seller
      // sees rows instead of copies dropped against the wall)
      const tie = e && best && designs === 1 && r === 'lattice' && Math.floor(e.cost) === Math.floor(best.cost);
      if (e && (!best || e.cost < best.cost || tie)) {
        best = e;
        bestSeq = s;
        bestRule = r;
        bestPreset = [];
        if (cfg.maxEvaluations === undefined) filler.abandon = start + searchMs;
      }
      if (repair) {
        [filler.preset, filler.rule] = [repair.preset, rules[0]];
        const f = evaluate(repair.rest, best ? best.cost : Infinity);
        if (f && (!best || f.cost < best.cost)) {
          best = f;
          bestSeq = repair.rest;
          bestRule = rules[0];
          bestPreset = repair.preset;
          if (cfg.maxEvaluations === undefined) filler.abandon = start + searchMs;
        }
        filler.preset = [];
        repair = undefined;
      }
      if (outOfTime()) break starting;
    }
  // with fixed copies: the layout as if nothing were fixed, the fixed copies put in over it,
  // for the compaction to separate first (`overLayout`)
  // (not when the repaired starting layout won: the seller's layout stays where it can)
  const over = (share > 0 || cfg.compactMoves !== undefined) && !bestPreset.length ? overLayout(prepared, copies, cfg, starts[0], rules[0]) : undefined;
  filler.rule = bestRule;
  // the search goes on from the best start: a repaired starting layout's kept copies stay
  // placed, and the sequence moves only the others
  filler.preset = bestPreset;
  if (!best) throw new Error('internal: no layout');
  gainAt = performance.now();
  gainEvaluations = filler.evaluations;
  // local search over the sequence, and over the fill rule's parameters
  const n = bestSeq.length;
  while (!outOfTime() && !stalled() && n > 1) {
    if (designs > 1 && rules.includes('fill') && rng.next() < FILL_DRAWS) {
      const drawn: FillParams = { window: [3, 4, 6, designs][rng.int(4)], tolerance: 0.1 + 0.25 * rng.next(), prefer: rng.next() < 0.5 ? 'area' : 'width' };
      const [keepRule, keepFill] = [filler.rule, filler.fill];
      [filler.rule, filler.fill] = ['fill', drawn];
      const e = evaluate(bestSeq, best.cost);
      if (e && e.cost <= best.cost) {
        gained(e, best);
        best = e;
      } else [filler.rule, filler.fill] = [keepRule, keepFill];
      continue;
    }
    const seq = [...bestSeq];
    const move = rng.next();
    if (move < 0.5) {
      const i = rng.int(n);
      let j = rng.int(n);
      for (let tries = 0; tries < 8 && copies[seq[i]] === copies[seq[j]]; tries++) j = rng.int(n);
      if (copies[seq[i]] === copies[seq[j]]) continue;
      [seq[i], seq[j]] = [seq[j], seq[i]];
    } else {
      // move a copy (or a short block) earlier
      const i = 1 + rng.int(n - 1);
      const j = rng.int(i);
      const len = 1 + rng.int(Math.min(4, n - i));
      const block = seq.splice(i, len);
      seq.splice(j, 0, ...block);
    }
    const e = evaluate(seq, best.cost);
    if (e && e.cost <= best.cost) {
      gained(e, best);
      best = e;
      bestSeq = seq;
    }
  }
  const sheets = best.sheets;
  // with a counted search (tests) the compaction runs only with counted moves too
  if (cfg.compactMoves !== undefined || (share > 0 && cfg.maxEvaluations === undefined)) {
    const last = sheets[sheets.length - 1];
    // fixed copies take part as pieces that never move (their own types, after the copies)
    const all = fixed.length ? [...copies, ...fixed.map((f) => f.type)] : copies;
    const from = performance.now();
    const reseat = over && sheets.length === 1 ? { ...over, rows: Math.ceil(over.rows * (1 + RESEAT_SLACK)), until: from + Math.min(RESEAT_MAX_MS, RESEAT_SHARE * Math.max(0, start + cfg.timeLimitMs - from)) } : undefined;
    const compacted = compactLast(prepared, all, last, cfg, new Rng((cfg.seed ?? 1) + 7), start + cfg.timeLimitMs, cfg.compactFirstStep, cfg.compactCutTail, race, converging ? compactPatience(cfg.timeLimitMs) : undefined, copies.length, reseat);
    if (compacted && compacted.rows < last.rows) sheets[sheets.length - 1] = compacted;
  }
  race?.stop();
  const elapsedMs = performance.now() - start;
  const timed = cfg.maxEvaluations === undefined && cfg.compactMoves === undefined;
  return { sheets, evaluations: filler.evaluations, converged: timed && elapsedMs < cfg.timeLimitMs, elapsedMs };
}
