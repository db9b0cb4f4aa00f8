/**
 * Strip compaction by overlap minimisation on cell masks (after sparrow's method, on a raster).
 *
 * Starting from a feasible layout of one strip (the bottom-left fill), the strip is made a
 * little shorter: copies beyond a random cut move back by the amount removed, and those that
 * stick out are pushed in. The copies now overlap. The separator then moves colliding copies
 * one at a time to the position (and orientation) with the least *weighted* overlap, sampled
 * over the whole strip and around the copy, then refined by coordinate descent. After each
 * sweep the weight of every pair that still overlaps grows (guided local search), so copies
 * that keep getting in each other's way are pushed apart harder. When no overlap is left the
 * shorter strip is the new best, and the strip shrinks again; when the separator gives up,
 * the next attempt starts from the best feasible layout with a smaller step.
 *
 * Overlap is counted in cells: the ink cells of one copy that fall on the gap-grown cells of
 * another. Zero overlap between every pair is exactly the grid's fit test, so the result is
 * as safe as the bottom-left fill (and the caller checks it again on a fresh grid).
 */
import { Rng } from '../pack/rng';
import { CompactPiece, CompactShape, gapOverlap, usedRows } from './cell-overlap';
import { poleOverlap, Poles } from './poles';
import { settle } from './settle';

export interface CompactOptions {
  /** Strip width in cells. */
  width: number;
  /** Wall-clock deadline (performance.now()). */
  deadline: number;
  /** Deterministic effort cap: position searches (moves), for tests. */
  maxMoves?: number;
  rng: Rng;
  /** First shrink step, a share of the length (default FIRST_STEP). */
  firstStep?: number;
  /**
   * Cuts lie within this last share of the strip (default 1: anywhere). A bottom-left layout
   * is tight except at its ragged far end, so a cut there leaves the separator little to do.
   */
  cutTail?: number;
  /** Other threads compacting the same strip (race.ts): successes are shared both ways. */
  race?: CompactRace;
  /**
   * Stop before the deadline once no shorter strip has been found (here or by a racing thread)
   * for max(`minMs`, `share` × the time this compaction took to find its last one), `failures`
   * attempts have failed since, and no racing helper's own search may still publish a start.
   * Unset: run to the deadline.
   */
  converge?: { minMs: number; share: number; failures: number };
  /** Pieces that never move (fixed copies), by index; the strip never gets shorter than their far edge. */
  fixed?: readonly boolean[];
  /**
   * How two colliding copies' overlap is measured: their shared cells ("cells", the default),
   * or how deeply their poles overlap ("poles", poles.ts: sparrow's proxy). Collisions are
   * found on the cells either way.
   */
  overlap?: OverlapMeasure;
  /**
   * A layout that need not be feasible (the same pieces, in the same order), tried first:
   * it is separated in a strip of `rows` rows until `until` (performance.now(); in a counted
   * run, for half its moves rounded up), and when no overlap is left and it is shorter than the start, the
   * compaction goes on from it. Fixed pieces stand where the start has them. Used to re-nest
   * around pinned copies: the layout as if nothing were pinned with the pins put in over it
   * (nest.ts, `overLayout`).
   */
  reseat?: { pieces: readonly CompactPiece[]; rows: number; until: number };
}

export type OverlapMeasure = 'cells' | 'poles';

/** What `compactStrip` needs of threads racing on one strip (race.ts's SharedStrip). */
export interface CompactRace {
  publish(pieces: readonly CompactPiece[], rows: number): void;
  /** Rows of the shortest strip any thread has found. */
  rows(): number;
  /** Another thread's layout, when it is shorter than `rows` and new to this thread. */
  take(rows: number): { pieces: CompactPiece[]; rows: number } | null;
  /** The race is over: stop. */
  over(): boolean;
  /** A helper's own search may still publish a start. */
  searching(): boolean;
}

/** Sparrow's published settings (docs/benchmarks/gangsheet-log.md has what was measured with them and others). */
const GLOBAL_SAMPLES = 50;
const LOCAL_SAMPLES = 25;
const NO_IMPROVEMENT_SWEEPS = 200;
const STRIKES = 3;
const WEIGHT_GROWTH_MIN = 1.2;
const WEIGHT_GROWTH_MAX = 2;
const WEIGHT_DECAY = 0.95;
const FIRST_STEP = 0.03;
const MIN_STEP_ROWS = 1;
/** Rows per band of the pieces' index. */
const BAND = 64;


/**
 * Makes a feasible single-strip layout shorter. Returns the shortest feasible layout found
 * (the input when nothing shorter was found); never mutates the input.
 */
export function compactStrip(
  shapes: readonly CompactShape[][],
  start: readonly CompactPiece[],
  opts: CompactOptions,
): { pieces: CompactPiece[]; rows: number; moves: number; attempts: number } {
  const n = start.length;
  const W = opts.width;
  const rng = opts.rng;
  let best = start.map((p) => ({ ...p }));
  let bestRows = usedRows(shapes, best);
  if (n < 2) return { pieces: best, rows: bestRows, moves: 0, attempts: 0 };
  // the shortest strip any copy can stand in
  let minRows = 0;
  for (const p of start) minRows = Math.max(minRows, Math.min(...shapes[p.type].filter((s) => s.w <= W).map((s) => s.h)));
  const fixed = opts.fixed;
  if (fixed) start.forEach((p, i) => fixed[i] && (minRows = Math.max(minRows, p.y + shapes[p.type][p.orientation].h)));

  // the start may have slack (a layout doubled onto a finer grid)
  settle(shapes, best, W, fixed);
  bestRows = usedRows(shapes, best);
  const xs = new Int32Array(n);
  const ys = new Int32Array(n);
  const os = new Int32Array(n);
  const ts = Int32Array.from(start.map((p) => p.type));
  const ov = new Float64Array(n * n);
  const po = new Float64Array(n);
  const wt = new Float32Array(n * n);
  // the pairs a sweep's weight update has to touch, kept sparse (a sweep at the far end moves
  // a few copies, and going over all n² pairs after each one was a large part of its time):
  // per piece, how many pieces it overlaps; the pairs (i < j) whose weight is above 1
  const hits = new Int32Array(n);
  const heavy: number[] = [];
  const isHeavy = new Uint8Array(n * n);
  let moves = 0;
  let attempts = 0;
  let L = 0;
  // dropped (this thread goes on alone) if the race ever shares a layout of other copies
  let race = opts.race;
  // a converging compaction's clock: since its start, and since its last shorter strip
  const t0 = performance.now();
  let gainAt = t0;
  let failures = 0;
  const conv = opts.maxMoves === undefined ? opts.converge : undefined;
  const converged = () =>
    conv !== undefined && failures >= conv.failures && performance.now() - gainAt >= Math.max(conv.minMs, conv.share * (gainAt - t0)) && !opts.race?.searching();
  // the reseat's own limit while it runs (`CompactOptions.reseat`)
  let until = Infinity;
  let untilMoves = Infinity;
  const outOfTime = () =>
    (opts.maxMoves !== undefined ? moves >= Math.min(opts.maxMoves, untilMoves) : performance.now() >= Math.min(opts.deadline, until)) || (opts.race !== undefined && opts.race.over()) || converged();

  // the overlap of two colliding copies: their shared cells, or how deeply their poles overlap
  const proxy = opts.overlap === 'poles' && shapes.every((ss) => !ss || ss.every((s) => s.poles !== undefined));
  const poles: Poles[][] = [];
  if (proxy) shapes.forEach((ss, t) => ss && (poles[t] = ss.map((s) => s.poles!())));
  const measure = (ta: number, oa: number, x: number, y: number, j: number, limit: number): number => {
    const a = shapes[ta][oa];
    const b = shapes[ts[j]][os[j]];
    if (!proxy) return gapOverlap(a, x, y, b, xs[j], ys[j], limit);
    if (!gapOverlap(a, x, y, b, xs[j], ys[j], 1)) return 0;
    const ux = a.ux ?? 1;
    return poleOverlap(poles[ta][oa], x * ux, y, poles[ts[j]][os[j]], xs[j] * ux, ys[j], ((a.gap ?? 0) + (b.gap ?? 0)) / 2);
  };
  const load = (ps: readonly CompactPiece[]) => {
    for (let i = 0; i < n; i++) {
      xs[i] = ps[i].x;
      ys[i] = ps[i].y;
      os[i] = ps[i].orientation;
    }
  };
  // the pieces by bands of BAND rows of their grown masks: a pose only meets the pieces
  // listed in the bands its rows cross (an evaluation looked at all n before, and with the
  // early stop in pairOverlap that loop was most of a move's time)
  const bands: number[][] = [];
  const bandLo = new Int32Array(n);
  const bandHi = new Int32Array(n);
  const seen = new Int32Array(n);
  let tick = 0;
  const enlist = (i: number) => {
    const s = shapes[ts[i]][os[i]];
    const top = ys[i] - s.pad;
    const b0 = Math.max(0, Math.floor(top / BAND));
    const b1 = Math.max(b0, Math.floor((top + s.dh - 1) / BAND));
    bandLo[i] = b0;
    bandHi[i] = b1;
    for (let b = b0; b <= b1; b++) (bands[b] ??= []).push(i);
  };
  const delist = (i: number) => {
    for (let b = bandLo[i]; b <= bandHi[i]; b++) {
      const list = bands[b];
      const k = list.indexOf(i);
      list[k] = list[list.length - 1];
      list.pop();
    }
  };
  const recomputeAll = () => {
    bands.length = 0;
    for (let i = 0; i < n; i++) enlist(i);
    po.fill(0);
    hits.fill(0);
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const v = measure(ts[i], os[i], xs[i], ys[i], j, Infinity);
        ov[i * n + j] = v;
        ov[j * n + i] = v;
        po[i] += v;
        po[j] += v;
        if (v > 0) {
          hits[i]++;
          hits[j]++;
        }
      }
    }
  };
  /**
   * Weighted overlap of piece i in pose (o, x, y); stops once at or above `bound`. With
   * `stored` (i where it stands) the pairs' counts come from `ov`, which holds every pair's
   * full count at the current poses: the same pieces in the same order, so the same sum,
   * without counting the overlaps again. Cells only: a count is symmetric, a pole measure
   * need not be to the last bit.
   */
  const cost = (i: number, o: number, x: number, y: number, bound: number, stored = false): number => {
    const a = shapes[ts[i]][o];
    const ax1 = x + a.w;
    const ay1 = y + a.h;
    let c = 0;
    const row = i * n;
    const t = ++tick;
    seen[i] = t;
    for (let bb = Math.floor(y / BAND), be = Math.floor((ay1 - 1) / BAND); bb <= be; bb++) {
      const list = bands[bb];
      if (!list) continue;
      for (let q = 0; q < list.length; q++) {
        const j = list[q];
        if (seen[j] === t) continue;
        seen[j] = t;
        const b = shapes[ts[j]][os[j]];
        const bX = xs[j] - b.pad;
        const bY = ys[j] - b.pad;
        if (bX >= ax1 || bY >= ay1 || bX + b.dw <= x || bY + b.dh <= y) continue;
        const w = wt[row + j];
        const v = stored ? ov[row + j] : measure(ts[i], o, x, y, j, (bound - c) / w);
        if (v) {
          c += w * v;
          if (c >= bound) return c;
        }
      }
    }
    return c;
  };
  const setPose = (i: number, o: number, x: number, y: number) => {
    delist(i);
    xs[i] = x;
    ys[i] = y;
    os[i] = o;
    enlist(i);
    let sum = 0;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const v = measure(ts[i], o, x, y, j, Infinity);
      const old = ov[i * n + j];
      if (v !== old) {
        ov[i * n + j] = v;
        ov[j * n + i] = v;
        po[j] += v - old;
        const d = (v > 0 ? 1 : 0) - (old > 0 ? 1 : 0);
        hits[i] += d;
        hits[j] += d;
      }
      sum += v;
    }
    po[i] = sum;
  };
  /** Moves piece i to the best pose it finds (never a worse weighted overlap than now). */
  const move = (i: number) => {
    moves++;
    const t = ts[i];
    const ss = shapes[t];
    let bo = os[i];
    let bx = xs[i];
    let by = ys[i];
    let bc = cost(i, bo, bx, by, Infinity, !proxy);
    const fitsStrip = (o: number) => ss[o].w <= W && ss[o].h <= L;
    const tryPose = (o: number, x: number, y: number) => {
      const s = ss[o];
      if (x < 0 || y < 0 || x + s.w > W || y + s.h > L) return false;
      const c = cost(i, o, x, y, bc);
      if (c < bc) {
        bc = c;
        bo = o;
        bx = x;
        by = y;
        return true;
      }
      return false;
    };
    for (let k = 0; k < GLOBAL_SAMPLES && bc > 0; k++) {
      const o = rng.int(ss.length);
      if (!fitsStrip(o)) continue;
      tryPose(o, rng.int(W - ss[o].w + 1), rng.int(L - ss[o].h + 1));
    }
    const cur = ss[os[i]];
    const radius = Math.max(2, Math.round(Math.max(cur.w, cur.h) / 4));
    for (let k = 0; k < LOCAL_SAMPLES && bc > 0; k++) {
      const o = k < ss.length ? k : rng.int(ss.length);
      if (!fitsStrip(o)) continue;
      // around the current centre, in the new orientation
      const cx = xs[i] + (cur.w >> 1) - (ss[o].w >> 1);
      const cy = ys[i] + (cur.h >> 1) - (ss[o].h >> 1);
      const x = Math.min(W - ss[o].w, Math.max(0, cx + rng.int(2 * radius + 1) - radius));
      const y = Math.min(L - ss[o].h, Math.max(0, cy + rng.int(2 * radius + 1) - radius));
      tryPose(o, x, y);
    }
    // coordinate descent from the best sample
    let step = Math.max(1, Math.round(Math.max(ss[bo].w, ss[bo].h) / 8));
    while (step >= 1 && bc > 0) {
      const moved = tryPose(bo, bx + step, by) || tryPose(bo, bx - step, by) || tryPose(bo, bx, by + step) || tryPose(bo, bx, by - step);
      if (!moved) step = step >> 1;
    }
    if (bo !== os[i] || bx !== xs[i] || by !== ys[i]) setPose(i, bo, bx, by);
  };
  const totalOverlap = () => {
    let s = 0;
    for (let i = 0; i < n; i++) s += po[i];
    return s / 2;
  };
  /**
   * Guided local search: the weight of every pair that overlaps grows, the others' decay
   * towards 1. Only the overlapping pairs and those with a weight above 1 change, so only
   * they are visited (the same weights as a pass over all pairs, in a fraction of its time).
   */
  const updateWeights = () => {
    let max = 0;
    const hot: number[] = [];
    for (let i = 0; i < n; i++) {
      if (hits[i] === 0) continue;
      for (let j = i + 1; j < n; j++) {
        const k = i * n + j;
        if (ov[k] > 0) {
          hot.push(k);
          if (ov[k] > max) max = ov[k];
        }
      }
    }
    for (const k of hot) {
      const w = wt[k] * (WEIGHT_GROWTH_MIN + ((WEIGHT_GROWTH_MAX - WEIGHT_GROWTH_MIN) * ov[k]) / max);
      wt[k] = w;
      wt[(k % n) * n + Math.floor(k / n)] = w;
      if (!isHeavy[k] && wt[k] > 1) {
        isHeavy[k] = 1;
        heavy.push(k);
      }
    }
    for (let q = heavy.length - 1; q >= 0; q--) {
      const k = heavy[q];
      if (ov[k] > 0) continue;
      const w = Math.max(1, wt[k] * WEIGHT_DECAY);
      wt[k] = w;
      wt[(k % n) * n + Math.floor(k / n)] = w;
      if (wt[k] === 1) {
        isHeavy[k] = 0;
        heavy[q] = heavy[heavy.length - 1];
        heavy.pop();
      }
    }
  };
  const resetWeights = () => {
    wt.fill(1);
    for (const k of heavy) isHeavy[k] = 0;
    heavy.length = 0;
  };
  const order = Array.from({ length: n }, (_, i) => i);
  /** Separates the current poses in a strip of L rows; true when no overlap is left. */
  const separate = (): boolean => {
    resetWeights();
    recomputeAll();
    let minTotal = totalOverlap();
    if (minTotal === 0) return true;
    const snap = { xs: Int32Array.from(xs), ys: Int32Array.from(ys), os: Int32Array.from(os) };
    let strikes = 0;
    let stale = 0;
    while (!outOfTime()) {
      // another thread has separated a strip at least this short: this attempt is moot
      if (race && race.rows() <= L) return false;
      // colliding pieces in random order
      for (let k = n - 1; k > 0; k--) {
        const r = rng.int(k + 1);
        const tmp = order[k];
        order[k] = order[r];
        order[r] = tmp;
      }
      for (const i of order) if (po[i] > 0 && !fixed?.[i]) move(i);
      const total = totalOverlap();
      if (total === 0) return true;
      if (total < minTotal) {
        minTotal = total;
        snap.xs.set(xs);
        snap.ys.set(ys);
        snap.os.set(os);
        stale = 0;
      } else if (++stale >= NO_IMPROVEMENT_SWEEPS) {
        if (++strikes >= STRIKES) return false;
        stale = 0;
        xs.set(snap.xs);
        ys.set(snap.ys);
        os.set(snap.os);
        recomputeAll();
      }
      updateWeights();
    }
    return false;
  };

  const reseat = opts.reseat;
  if (reseat && reseat.pieces.length === n && reseat.rows < bestRows && reseat.rows >= minRows && reseat.pieces.every((p, i) => p.type === ts[i])) {
    load(reseat.pieces);
    // fixed pieces stand where the start has them
    if (fixed) start.forEach((p, i) => fixed[i] && ((xs[i] = p.x), (ys[i] = p.y), (os[i] = p.orientation)));
    L = reseat.rows;
    let inside = true;
    for (let i = 0; i < n; i++) {
      const s = shapes[ts[i]][os[i]];
      if (fixed?.[i]) continue;
      if (s.w > W || s.h > L) inside = false;
      xs[i] = Math.max(0, Math.min(xs[i], W - s.w));
      ys[i] = Math.max(0, Math.min(ys[i], L - s.h));
    }
    [until, untilMoves] = [reseat.until, opts.maxMoves !== undefined ? Math.ceil(opts.maxMoves / 2) : Infinity];
    const ok = inside && separate();
    [until, untilMoves] = [Infinity, Infinity];
    if (ok) {
      best = Array.from({ length: n }, (_, i) => ({ type: ts[i], orientation: os[i], x: xs[i], y: ys[i] }));
      settle(shapes, best, W, fixed);
      bestRows = usedRows(shapes, best);
      gainAt = performance.now();
      race?.publish(best, bestRows);
    }
  }

  let step = opts.firstStep ?? FIRST_STEP;
  let failed = false;
  while (!outOfTime()) {
    const theirs = race?.take(bestRows);
    if (theirs) {
      // the same copies in the same order, or not the same strip
      if (theirs.pieces.length === n && theirs.pieces.every((p, i) => p.type === ts[i])) {
        best = theirs.pieces;
        bestRows = theirs.rows;
        failed = false;
        gainAt = performance.now();
        failures = 0;
      } else race = undefined;
    }
    const remove = Math.max(MIN_STEP_ROWS, Math.floor(bestRows * step));
    L = bestRows - remove;
    if (L < minRows) break;
    attempts++;
    load(best);
    // after a failed attempt, disrupt: two copies of different types swap places (centres),
    // so the next attempt does not walk into the same dead end (sparrow does the same)
    if (failed) {
      for (let tries = 0; tries < 20; tries++) {
        const i = rng.int(n);
        const j = rng.int(n);
        if (ts[i] === ts[j] || fixed?.[i] || fixed?.[j]) continue;
        const a = shapes[ts[i]][os[i]];
        const b = shapes[ts[j]][os[j]];
        const cxi = xs[i] + (a.w >> 1);
        const cyi = ys[i] + (a.h >> 1);
        const cxj = xs[j] + (b.w >> 1);
        const cyj = ys[j] + (b.h >> 1);
        if (b.w > W || b.h > bestRows || a.w > W || a.h > bestRows) continue;
        xs[i] = Math.max(0, Math.min(W - a.w, cxj - (a.w >> 1)));
        ys[i] = Math.max(0, Math.min(bestRows - a.h, cyj - (a.h >> 1)));
        xs[j] = Math.max(0, Math.min(W - b.w, cxi - (b.w >> 1)));
        ys[j] = Math.max(0, Math.min(bestRows - b.h, cyi - (b.h >> 1)));
        break;
      }
    }
    // remove `remove` rows at a random cut (within the last `cutTail` of the strip): copies
    // whose centre lies beyond it move back
    const tail = opts.cutTail ?? 1;
    const cut = tail >= 1 ? rng.int(bestRows) : bestRows - 1 - rng.int(Math.max(1, Math.floor(bestRows * tail)));
    for (let i = 0; i < n; i++) {
      if (fixed?.[i]) continue;
      let s = shapes[ts[i]][os[i]];
      if (s.h > L || s.w > W) {
        // an orientation that stands in the shorter strip
        const o = shapes[ts[i]].findIndex((q) => q.h <= L && q.w <= W);
        os[i] = o;
        s = shapes[ts[i]][o];
        xs[i] = Math.min(xs[i], W - s.w);
      }
      if (ys[i] + (s.h >> 1) >= cut) ys[i] -= remove;
      ys[i] = Math.max(0, Math.min(ys[i], L - s.h));
    }
    const ok = separate();
    // overtaken by another thread: not a failure, the next attempt starts from its strip
    if (!ok && race && race.rows() < bestRows) continue;
    failed = !ok;
    if (ok) {
      best = Array.from({ length: n }, (_, i) => ({ type: ts[i], orientation: os[i], x: xs[i], y: ys[i] }));
      settle(shapes, best, W, fixed);
      bestRows = usedRows(shapes, best);
      gainAt = performance.now();
      failures = 0;
      race?.publish(best, bestRows);
    } else {
      step *= 0.6;
      failures++;
    }
  }
  return { pieces: best, rows: bestRows, moves, attempts };
}
