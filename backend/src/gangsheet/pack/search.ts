/**
 * Search over piece sequences for the skyline heuristic.
 *
 * Strip packing (minimise height) is solved as a series of fixed-height problems, in the
 * spirit of the iterative-doubling binary search (IDBS) of Wei et al.: for a target height
 * H, a local search swaps pieces in the sequence to maximise the area the skyline heuristic
 * gets into width x H; if everything fits, H is feasible. Targets are chosen by binary search
 * between the area lower bound and the best height found, and the per-target effort doubles
 * after each full pass, so easy targets are settled quickly and hard ones get more time.
 */
import { packOnColumns } from './column-stage';
import { columnProblem } from './columns';
import { MaxRectsEvaluator, MaxRectsRule } from './maxrects';
import { Rng } from './rng';
import { PieceSize, SkylineEvaluator } from './skyline';

export interface SearchOptions {
  /** Wall-clock budget. The only non-deterministic input: it decides when to stop. */
  timeLimitMs: number;
  /** Deterministic budget (number of heuristic evaluations); whichever ends first wins. */
  maxEvaluations?: number;
  seed?: number;
}

export interface PackedLayout {
  /** Used height (max top edge). */
  height: number;
  x: Int32Array;
  y: Int32Array;
  rotated: Uint8Array;
  placed: Uint8Array;
  evaluations: number;
}

export const INF = 0x3fffffff;
const FEW_SIZES = 16;

/**
 * Widest-first only pays off for real orders: few distinct sizes, many copies each. With
 * mostly unique pieces (the benchmark sets) the sequence search does better in pure
 * sequence mode, so the first evaluations do not spend time on widest-first there.
 */
export function tieBreakModes(ev: SkylineEvaluator): (0 | 1)[] {
  const types = ev.typeW.length;
  return types <= FEW_SIZES && ev.n >= 4 * types ? [0, 1] : [0];
}

export class Budget {
  evaluations = 0;
  private deadline: number;
  private maxEvaluations: number;
  constructor(opts: SearchOptions) {
    this.deadline = performance.now() + opts.timeLimitMs;
    this.maxEvaluations = opts.maxEvaluations ?? Infinity;
  }
  spent(): boolean {
    if (this.evaluations >= this.maxEvaluations) return true;
    return performance.now() >= this.deadline;
  }
  /** Runs `f` with a `fraction` of what is left of this budget (time and evaluations). */
  share<T>(fraction: number, f: () => T): T {
    const [deadline, maxEvaluations] = [this.deadline, this.maxEvaluations];
    this.deadline = Math.min(deadline, performance.now() + fraction * (deadline - performance.now()));
    this.maxEvaluations = this.evaluations + Math.ceil(fraction * (maxEvaluations - this.evaluations));
    try {
      return f();
    } finally {
      this.deadline = deadline;
      this.maxEvaluations = maxEvaluations;
    }
  }
}

/** Initial sequences: the classic decreasing orders, each a decent start on some data. */
export function initialOrders(pieces: readonly PieceSize[]): Int32Array[] {
  const idx = [...pieces.keys()];
  const keys: ((p: PieceSize) => number)[] = [
    (p) => p.w * p.h,
    (p) => Math.max(p.w, p.h),
    (p) => p.h,
    (p) => p.w,
    (p) => p.w + p.h,
  ];
  return keys.map((k) => Int32Array.from([...idx].sort((a, b) => k(pieces[b]) - k(pieces[a]) || a - b)));
}

export function snapshot(ev: SkylineEvaluator, height: number, evaluations: number): PackedLayout {
  return {
    height,
    x: ev.px.slice(),
    y: ev.py.slice(),
    rotated: ev.prot.slice(),
    placed: ev.placed.slice(),
    evaluations,
  };
}

/**
 * The shortest layout over the tie-break modes and the classic starting orders, and its
 * order; `ev` is left in the mode that gave it.
 */
export function bestStart(ev: SkylineEvaluator, pieces: readonly PieceSize[], modes: readonly (0 | 1)[], budget: Budget): { layout: PackedLayout; seq: Int32Array } {
  let best: PackedLayout | null = null;
  let bestSeq: Int32Array | null = null;
  let bestMode: 0 | 1 = 0;
  for (const mode of modes) {
    ev.tieBreak = mode;
    for (const seq of initialOrders(pieces)) {
      const r = ev.evaluate(seq, INF, true);
      budget.evaluations++;
      if (!best || r.height < best.height) {
        best = snapshot(ev, r.height, 0);
        bestSeq = seq;
        bestMode = mode;
      }
    }
  }
  ev.tieBreak = bestMode;
  return { layout: best!, seq: bestSeq! };
}


/**
 * Local search at a fixed height: random swaps of two pieces of different sizes, keeping
 * the swap when the packed area does not decrease (sideways moves let it cross plateaus).
 * Returns the best sequence and its packed area; `seq` is modified in place.
 */
export function improveAtHeight(
  stage: Stage,
  typeOf: Int32Array,
  seq: Int32Array,
  H: number,
  iterations: number,
  rng: Rng,
  budget: Budget,
  target: number,
): number {
  const n = seq.length;
  let cur = stage.packedArea(seq, H);
  budget.evaluations++;
  if (cur >= target || n < 2) return cur;
  for (let it = 0; it < iterations && !budget.spent(); it++) {
    let i = rng.int(n);
    let j = rng.int(n);
    let tries = 0;
    while (typeOf[seq[i]] === typeOf[seq[j]] && tries++ < 8) j = rng.int(n);
    if (typeOf[seq[i]] === typeOf[seq[j]]) {
      budget.evaluations++; // no-op draws still cost budget, so a deterministic cap always ends the search
      continue;
    }
    if (i > j) [i, j] = [j, i];
    // no draw without insertions, so swap-only searches keep their random sequence
    const insert = stage.insertShare > 0 && rng.next() < stage.insertShare;
    const t = seq[j];
    if (insert) {
      // the later piece moves before the earlier one; the ones between move back by one
      seq.copyWithin(i + 1, i, j);
      seq[i] = t;
    } else {
      seq[j] = seq[i];
      seq[i] = t;
    }
    const s = stage.packedArea(seq, H);
    budget.evaluations++;
    if (s >= cur) {
      cur = s;
      if (cur >= target) return cur;
    } else if (insert) {
      seq.copyWithin(i, i + 1, j + 1);
      seq[j] = t;
    } else {
      seq[i] = seq[j];
      seq[j] = t;
    }
  }
  return cur;
}

/** Smallest possible height of each piece given the strip width (rotation considered). */
function pieceMinHeight(p: PieceSize, width: number, rotate: boolean): number {
  let best = INF;
  if (p.w <= width) best = p.h;
  if (rotate && p.h <= width && p.w < best) best = p.w;
  return best;
}

export function heightLowerBound(pieces: readonly PieceSize[], width: number, rotate: boolean): number {
  let area = 0;
  let tall = 0;
  for (const p of pieces) {
    area += p.w * p.h;
    tall = Math.max(tall, pieceMinHeight(p, width, rotate));
  }
  return Math.max(Math.ceil(area / width), tall);
}

/** A placement rule the sequence search can drive at a fixed container height. */
export interface Stage {
  /** Area packed into width x H (the search only compares these). */
  packedArea(seq: Int32Array, H: number): number;
  /** The recorded layout of `seq` at height H. */
  layout(seq: Int32Array, H: number): PackedLayout;
  /** Share of the search's moves that insert a piece earlier instead of swapping two. */
  insertShare: number;
}

/**
 * Share of the time the skyline search gets on real orders; the rest goes to maximal
 * rectangles: with the same sequence search they are shorter on some real orders (few
 * designs, a few dozen copies) and longer on others, so neither gets all the time.
 */
const SKYLINE_SHARE = 0.5;

/**
 * Maximal rectangles look for a little less than the skyline's height, not half-way down
 * to the area bound: targets at most this fraction below the best height so far.
 */
const MAXRECTS_STEP = 0.004;
/**
 * Maximal rectangles start with few swaps per target: an evaluation of a few hundred copies
 * takes about a millisecond, so many swaps per target would let the stage's share of the
 * time reach only one or two targets.
 */
const MAXRECTS_FIRST_ITERATIONS = 16;
/**
 * Maximal-rectangle rules whose best starting layout is more than this fraction longer than
 * the skyline's result are skipped: a rule that starts that far behind does not catch up
 * within its share of the time.
 */
const MAXRECTS_START_SLACK = 0.05;

/**
 * On real orders (many copies of few sizes) the skyline search inserts a piece earlier
 * rather than swapping two: moving one piece of a run of equal copies changes the layout
 * where a swap of two equal copies changes nothing. On mostly unique pieces insertion loses
 * optima that swaps find, so those keep swaps, and so do maximal rectangles.
 */
export const REAL_ORDER_INSERT_SHARE = 1;

/** Real orders: few distinct sizes, many copies each (see `tieBreakModes`). */
function realOrder(ev: SkylineEvaluator): boolean {
  return ev.typeW.length <= FEW_SIZES && ev.n >= 4 * ev.typeW.length;
}

/**
 * Iterative-doubling binary search on the height (IDBS): targets between the lower bound and
 * the best height so far, each with a budget of swap iterations from the best sequence,
 * the budget doubling after each full pass. Returns the best layout (`best` when nothing
 * shorter was found).
 */
export function searchBelow(
  stage: Stage,
  startSeq: Int32Array,
  best: PackedLayout,
  lb: number,
  ev: SkylineEvaluator,
  rng: Rng,
  budget: Budget,
  maxStep = 1,
  firstIterations = Math.max(16, Math.min(200, ev.n)),
): { layout: PackedLayout; seq: Int32Array } {
  let bestLayout = best;
  let seqBest = startSeq;
  let iterations = firstIterations;
  while (bestLayout.height > lb && !budget.spent()) {
    let lo = lb;
    let hi = bestLayout.height - 1;
    while (lo <= hi && !budget.spent()) {
      const mid = Math.max((lo + hi) >> 1, hi - Math.ceil(maxStep * hi));
      const seq = seqBest.slice();
      const got = improveAtHeight(stage, ev.typeOf, seq, mid, iterations, rng, budget, ev.totalArea);
      if (got >= ev.totalArea) {
        const r = stage.layout(seq, mid);
        budget.evaluations++;
        bestLayout = r;
        seqBest = seq;
        hi = r.height - 1;
      } else {
        lo = mid + 1;
      }
    }
    iterations *= 2;
  }
  return { layout: bestLayout, seq: seqBest };
}

/**
 * Share of the time the column stage gets on real orders. Where it wins, its plan search
 * settles early and the searches after it rarely beat it, so a larger share buys nothing;
 * where it loses, the searches want the time.
 */
const COLUMN_SHARE = 0.25;
/**
 * The column stage runs only when the pattern LP is at least this far above the area bound,
 * or when every copy is narrow (below). When it is not, the sizes tile the width in columns
 * with nothing lost, and on the shop's day orders (large designs among small ones) the
 * search's free mixing did better than columns. Above it columns are usually shorter, but
 * not always, so the searches after the stage keep the time to beat it.
 */
const COLUMN_MIN_LP_GAP = 0.005;
/**
 * Copies whose shorter side fits this many times across the width are narrow. When all of
 * them are (logos, 5-12 across) the column stage runs even with the LP at the area bound:
 * there the sequence search ended 1.4-4.8 % above the LP and the stage's plan 0.5-1.5 %
 * (bench:pack, logos mix, seeds 7, 11, 2024: mean ratio to bisected maxrects 0.957, 0.970,
 * 0.971 without it, 0.947, 0.962, 0.963 with it). On the shop's day orders with large
 * designs and the LP at the area bound, running it lost 0.3-0.5 % (seed 2024, orders 1, 5).
 */
const COLUMN_NARROW = 4;
/** At most this share of the time for the pattern LP. */
const LP_SHARE = 0.1;
/** Minimise the strip height for all pieces in a strip of `width`. Every piece must fit the width. */
export function packStrip(pieces: readonly PieceSize[], width: number, rotate: boolean, opts: SearchOptions): PackedLayout {
  if (pieces.length === 0)
    return { height: 0, x: new Int32Array(0), y: new Int32Array(0), rotated: new Uint8Array(0), placed: new Uint8Array(0), evaluations: 0 };
  for (const p of pieces) if (pieceMinHeight(p, width, rotate) >= INF) throw new Error('piece wider than the strip');
  const ev = new SkylineEvaluator(pieces, width, rotate);
  const budget = new Budget(opts);
  const rng = new Rng(opts.seed ?? 1);
  const lb = heightLowerBound(pieces, width, rotate);

  // the search continues with the tie-break rule that gave the best start
  const start = bestStart(ev, pieces, tieBreakModes(ev), budget);
  const bestSeq = start.seq;
  const skyline: Stage = {
    packedArea: (seq, H) => ev.evaluate(seq, H, false, true).packedArea,
    layout: (seq, H) => snapshot(ev, ev.evaluate(seq, H, true).height, 0),
    insertShare: realOrder(ev) ? REAL_ORDER_INSERT_SHARE : 0,
  };
  let bestLayout = start.layout;
  // with a single piece size every sequence is the same: nothing to search
  if (ev.typeW.length === 1) return { ...bestLayout, evaluations: budget.evaluations };
  if (!realOrder(ev)) bestLayout = searchBelow(skyline, bestSeq, bestLayout, lb, ev, rng, budget).layout;
  else {
    // The LP gets LP_SHARE of the budget; on a short budget it stops early with a longer plan.
    // Once it is within COLUMN_MIN_LP_GAP of the area bound the stage runs only on narrow
    // copies (see COLUMN_NARROW): stop there unless they are.
    const areaBound = ev.totalArea / width;
    const narrow = pieces.every((p) => Math.min(p.w, p.h) * COLUMN_NARROW <= width);
    const prob = budget.share(LP_SHARE, () => columnProblem(pieces, width, rotate, (v) => (!narrow && v < areaBound * (1 + COLUMN_MIN_LP_GAP)) || budget.spent()));
    const lpGap = prob.lp.value / areaBound - 1;
    const columns = lpGap >= COLUMN_MIN_LP_GAP || narrow ? budget.share(COLUMN_SHARE, () => packOnColumns(prob, rng, budget, rotate)) : null;
    // the searches below look only for layouts shorter than the columns'
    if (columns && columns.height < bestLayout.height) bestLayout = columns;
    // the skyline search first, then maximal rectangles (fixed container, then a growing
    // region) look below its result, each from its own best starting order
    const first = budget.share(SKYLINE_SHARE, () => searchBelow(skyline, bestSeq, bestLayout, lb, ev, rng, budget));
    bestLayout = first.layout;
    const mr = new MaxRectsEvaluator(pieces, width, rotate);
    const rules: [MaxRectsRule, boolean][] = [
      [2, false],
      [2, true],
    ];
    const stages = rules.map(([rule, grow]) => {
      const stage: Stage = {
        packedArea: (seq, H) => mr.evaluate(seq, H, rule, false, false, grow).packedArea,
        layout: (seq, H) => {
          const r = mr.evaluate(seq, H, rule, true, false, grow);
          return { height: r.height, x: mr.px.slice(), y: mr.py.slice(), rotated: mr.prot.slice(), placed: mr.placed.slice(), evaluations: 0 };
        },
        insertShare: 0,
      };
      let start = initialOrders(pieces)[0];
      let startHeight = INF;
      for (const seq of initialOrders(pieces)) {
        const r = mr.evaluate(seq, INF, rule, false, true, grow);
        budget.evaluations++;
        if (r.packedCount === pieces.length && r.height < startHeight) {
          startHeight = r.height;
          start = seq;
        }
      }
      return { stage, start, startHeight };
    });
    // a rule whose best start is far above the best layout so far does not catch up in a
    // short search: its time goes to the others
    const useful = stages.filter((st) => st.startHeight <= bestLayout.height * (1 + MAXRECTS_START_SLACK));
    useful.forEach(({ stage, start, startHeight }, k) => {
      if (startHeight < bestLayout.height) bestLayout = stage.layout(start, INF);
      bestLayout = budget.share(1 / (useful.length - k), () => searchBelow(stage, start, bestLayout, lb, ev, rng, budget, MAXRECTS_STEP, MAXRECTS_FIRST_ITERATIONS).layout);
    });
    // time the maximal rectangles did not get goes back to the skyline search
    bestLayout = searchBelow(skyline, first.seq, bestLayout, lb, ev, rng, budget).layout;
  }
  bestLayout.evaluations = budget.evaluations;
  return bestLayout;
}
