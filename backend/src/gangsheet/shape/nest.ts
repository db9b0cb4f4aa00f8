/**
 * True-shape nesting on a raster occupancy grid.
 *
 * The sheet is a grid of square cells, one bit each (32 per word). Placed copies are stored
 * grown by the gap (their `dil` mask), so a new copy fits where its own, ungrown cells hit
 * no set bit. A collision test is a few ANDs per row of the copy. Cells beyond the sheet
 * width are set, so the right edge is just another obstacle.
 *
 * Placement is bottom-left (lowest row, then leftmost column; "row" runs along the sheet
 * length) over every allowed orientation, with the orientation chosen by a placement rule
 * (lowest ink centroid, far edge or top edge, or per-design lattices). Copies are placed in
 * a sequence, or (the "fill" rule) the design whose copy sits lowest among the next few in
 * the sequence goes next, so designs mix across the width. A local search over the
 * sequence (swaps and moves) and over the fill rule's parameters, kept when the film does
 * not get longer, improves it until the time limit (or, with `compactShare`, until that share
 * of it is left for compacting the last sheet by overlap minimisation, overlap.ts: half in the
 * product's shape layouts, `nestShapes`); with `converge` (the product's layouts) each phase
 * also ends once it has stopped finding shorter layouts (`CONVERGENCE`). Copies that do not
 * fit a sheet of the maximum length go to the next sheet.
 */
import { Rng } from '../pack/rng';
import { CellMask, popcount } from './cells';
import { startEngineWorker } from './engine-worker';
import { compactStrip, CompactShape, gapOverlap, shiftRows } from './overlap';
import { SharedStrip } from './race';

export interface NestOrientation {
  /** Caller's label for this orientation (e.g. degrees). */
  rotation: number;
  /** Ink cells. */
  mask: CellMask;
  /**
   * Cells within the gap of the ink (a copy whose ink cells miss them keeps the gap; the
   * caller may measure the gap more finely than on `mask`'s cells); its cell (pad, pad) is
   * mask cell (0, 0).
   */
  dil: CellMask;
  pad: number;
}

export interface NestType {
  orientations: NestOrientation[];
}

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
  /** Only these placement rules (tests and benchmarks); default all of them. */
  rules?: readonly PlacementRule[];
  /**
   * Threads that race on that compaction (race.ts; default 1). The helpers start at once and
   * search with their own seeds meanwhile; only a timed compaction of at least RACE_MIN_MS
   * races (counted moves stay deterministic).
   */
  threads?: number;
  /**
   * Stop before the time limit once the layout has stopped getting shorter (`CONVERGENCE`):
   * the bottom-left search, then the compaction, each when it has found nothing shorter for
   * long enough. Timed runs only (counted ones stay deterministic); the time limit stays the
   * upper bound. Default false (run to the time limit); the product's shape layouts turn it
   * on (`nestShapes`).
   */
  converge?: boolean;
}

export interface NestPlacement {
  /** Index into the copies array. */
  copy: number;
  /** Orientation index of the copy's type. */
  orientation: number;
  /** Cell of the mask's (0, 0). */
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

/** An orientation prepared for fast tests: the mask shifted by every bit offset. */
interface Prepared {
  w: number;
  h: number;
  /** Words per shifted row (mask words + 1). */
  sw: number;
  shifted: Uint32Array[];
  /** Non-empty word range of each shifted row, [lo, hi). */
  lo: Int32Array;
  hi: Int32Array;
  /** Rows in test order (the anchor rows first). */
  order: Int32Array;
  anchors: [number, number][];
  /** The rows with the most ink and their ink counts: a row of the grid with fewer free cells rules the spot out. */
  heavy: [number, number][];
  /** The rows with the longest single ink runs and their lengths: a row of the grid without so long a free run rules the spot out. */
  wide: [number, number][];
  /** Row of the ink's centroid (mean row of the ink cells), for the "centre" rule. */
  cy: number;
  /** Mask row that failed the last fit test (tested first next time). */
  hint: number;
  src: NestOrientation;
}

/**
 * Anchor rows per mask (first, last and ANCHOR_ROWS - 1 evenly between): 8 left about a
 * tenth of the full tests that 4 did on the artwork orders, for a little more row work.
 */
const ANCHOR_ROWS = 8;

/**
 * How much higher (in row steps of its lattice) a copy's next lattice spot may lie than the
 * lowest free spot and still be taken ("lattice" rule): the row-end spot a disc finds
 * against the wall is about a quarter of a row step lower than the next row's first spot.
 */
const LATTICE_SLACK = 0.5;

/** Added to the "lattice" rule's score of a spot off every lattice (above any height × width; the scores stay whole numbers). */
const OFF_LATTICE = 2 ** 50;

/**
 * Preparations by orientation and their compaction shapes, made once per object: the race
 * helper's search and its compaction share them, and so do a compaction and its check.
 * (Masks are never changed after they are made.)
 */
const preparedOf = new WeakMap<NestOrientation, Prepared>();
const compactOf = new WeakMap<Prepared, CompactShape>();

function prepare(o: NestOrientation): Prepared {
  let p = preparedOf.get(o);
  if (!p) preparedOf.set(o, (p = prepareOrientation(o)));
  return p;
}

function prepareOrientation(o: NestOrientation): Prepared {
  const m = o.mask;
  const { sw, shifted, lo, hi } = shiftRows(m.bits, m.words, m.h);
  // anchors: extreme ink cells and a few spread inside; each must be free for a fit, and
  // checking them over a whole row at once skips most candidate columns in a few ANDs
  const cells: [number, number][] = [];
  const ink = (x: number, y: number) => ((m.bits[y * m.words + (x >>> 5)] >>> (x & 31)) & 1) === 1;
  const firstInRow = (y: number) => {
    for (let x = 0; x < m.w; x++) if (ink(x, y)) return x;
    return -1;
  };
  const lastInRow = (y: number) => {
    for (let x = m.w - 1; x >= 0; x--) if (ink(x, y)) return x;
    return -1;
  };
  const rowsToSample = [0, m.h - 1, ...Array.from({ length: ANCHOR_ROWS - 1 }, (_, i) => Math.floor(((i + 1) * m.h) / ANCHOR_ROWS))];
  for (const y of rowsToSample) {
    const a = firstInRow(y);
    if (a < 0) continue;
    cells.push([a, y]);
    const b = lastInRow(y);
    if (b !== a) cells.push([b, y]);
    // a middle ink cell of the row
    for (let x = Math.floor((a + b) / 2); x <= b; x++)
      if (ink(x, y)) {
        if (x !== a && x !== b) cells.push([x, y]);
        break;
      }
  }
  const seen = new Set<string>();
  const anchors = cells.filter(([x, y]) => {
    const k = `${x},${y}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const first = [...new Set(anchors.map((a) => a[1]))];
  // then the other rows spread out (van der Corput order): a collision shows up early
  const rest: number[] = [];
  const taken = new Set(first);
  let bitsN = 1;
  while (1 << bitsN < m.h) bitsN++;
  for (let i = 0; i < 1 << bitsN; i++) {
    let r = 0;
    for (let b = 0; b < bitsN; b++) if (i & (1 << b)) r |= 1 << (bitsN - 1 - b);
    if (r < m.h && !taken.has(r)) {
      taken.add(r);
      rest.push(r);
    }
  }
  const inkPerRow = Array.from({ length: m.h }, (_, r) => {
    let c = 0;
    for (let k = 0; k < m.words; k++) c += popcount(m.bits[r * m.words + k]);
    return [r, c] as [number, number];
  });
  const heavy = inkPerRow.sort((a, b) => b[1] - a[1]).slice(0, 3);
  const runPerRow = Array.from({ length: m.h }, (_, r) => {
    let best = 0;
    for (let x = 0, cur = 0; x < m.w; x++) {
      cur = ink(x, r) ? cur + 1 : 0;
      if (cur > best) best = cur;
    }
    return [r, best] as [number, number];
  });
  let inkCells = 0;
  let rowSum = 0;
  for (const [r, c] of inkPerRow) {
    inkCells += c;
    rowSum += r * c;
  }
  const wide = runPerRow.sort((a, b) => b[1] - a[1]).slice(0, 3);
  const cy = inkCells ? rowSum / inkCells : m.h / 2;
  return { w: m.w, h: m.h, sw, shifted, lo, hi, order: Int32Array.from([...first, ...rest]), anchors, heavy, wide, cy, hint: 0, src: o };
}

const WALL = 0xffffffff;


/** Longest run of free (zero) cells in words [base, base + n) of a grid row; bit 0 is the leftmost cell. */
export function longestFreeRun(g: Uint32Array, base: number, n: number): number {
  let best = 0;
  let cur = 0;
  for (let k = 0; k < n; k++) {
    const f = ~g[base + k] >>> 0;
    if (f === WALL) {
      cur += 32;
      continue;
    }
    if (f === 0) {
      if (cur > best) best = cur;
      cur = 0;
      continue;
    }
    // the free cells at the word's low end continue the run from the left; then the
    // longest run inside the word; the free cells at its high end start the next run
    const nf = ~f >>> 0;
    const t = 31 - Math.clz32(nf & -nf);
    if (cur + t > best) best = cur + t;
    let x = f;
    let inside = 0;
    while (x) {
      x &= x >>> 1;
      inside++;
    }
    if (inside > best) best = inside;
    cur = Math.clz32(nf);
  }
  return cur > best ? cur : best;
}

/** Occupancy grid of one sheet. */
class Grid {
  /** Words per row (sheet width plus a wall margin wider than any mask). */
  readonly gw: number;
  bits: Uint32Array;
  rows: number;
  /** Free cells per row. */
  free: Int32Array;
  /** Longest run of free cells per row. */
  run: Int32Array;
  private readonly cand: Uint32Array;

  constructor(
    readonly width: number,
    readonly maxRows: number,
    maxMaskWords: number,
    initialRows: number,
  ) {
    this.gw = Math.ceil(width / 32) + maxMaskWords + 2;
    this.rows = 0;
    this.bits = new Uint32Array(0);
    this.free = new Int32Array(0);
    this.run = new Int32Array(0);
    this.cand = new Uint32Array(this.gw);
    this.ensure(Math.max(64, initialRows));
  }

  /** Makes sure rows [0, n) exist (walls set). */
  ensure(n: number): void {
    if (n <= this.rows) return;
    const rows = Math.max(n, this.rows * 2);
    const next = new Uint32Array(rows * this.gw);
    next.set(this.bits);
    const w0 = this.width >>> 5;
    for (let r = this.rows; r < rows; r++) {
      const base = r * this.gw;
      if (this.width & 31) next[base + w0] = (~0 << (this.width & 31)) >>> 0;
      else next[base + w0] = WALL;
      for (let k = w0 + 1; k < this.gw; k++) next[base + k] = WALL;
    }
    this.bits = next;
    const free = new Int32Array(rows);
    free.set(this.free);
    free.fill(this.width, this.rows);
    this.free = free;
    const run = new Int32Array(rows);
    run.set(this.run);
    run.fill(this.width, this.rows);
    this.run = run;
    this.rows = rows;
  }

  fits(p: Prepared, x: number, y: number): boolean {
    const sh = p.shifted[x & 31];
    const base = x >>> 5;
    const g = this.bits;
    const gw = this.gw;
    const sw = p.sw;
    const order = p.order;
    // the row that failed last is tried first: the next candidate is usually blocked by the
    // same neighbour
    const h = p.hint;
    {
      const go = (y + h) * gw + base;
      const so = h * sw;
      for (let k = p.lo[h], e = p.hi[h]; k < e; k++) if (g[go + k] & sh[so + k]) return false;
    }
    for (let i = 0; i < order.length; i++) {
      const r = order[i];
      const go = (y + r) * gw + base;
      const so = r * sw;
      for (let k = p.lo[r], e = p.hi[r]; k < e; k++)
        if (g[go + k] & sh[so + k]) {
          p.hint = r;
          return false;
        }
    }
    return true;
  }

  /** Lowest, then leftmost free position at or after (y0, x0) in row-major order; null if none. */
  firstFit(p: Prepared, y0: number, x0: number): { x: number; y: number } | null {
    const span = this.width - p.w + 1;
    if (span <= 0) return null;
    const cw = Math.ceil(span / 32);
    const cand = this.cand;
    const lastMask = span & 31 ? ((1 << (span & 31)) - 1) >>> 0 : WALL;
    for (let y = y0; ; y++) {
      if (y + p.h > this.maxRows) return null;
      if (y + p.h > this.rows) this.ensure(y + p.h);
      const free = this.free;
      let full = false;
      for (const [r, c] of p.heavy)
        if (free[y + r] < c) {
          full = true;
          break;
        }
      // a row of the copy with a long ink run needs as long a free run in the grid row
      const run = this.run;
      if (!full)
        for (const [r, c] of p.wide)
          if (run[y + r] < c) {
            full = true;
            break;
          }
      if (full) continue;
      const g = this.bits;
      for (let i = 0; i < cw; i++) cand[i] = WALL;
      cand[cw - 1] = lastMask;
      if (y === y0 && x0 > 0) {
        for (let i = 0; i < cw; i++) {
          const lo = i * 32;
          if (lo + 32 <= x0) cand[i] = 0;
          else if (lo < x0) cand[i] &= (~0 << (x0 - lo)) >>> 0;
        }
      }
      // candidate words still non-zero: [wlo, whi); after an anchor or two most are zero
      let wlo = 0;
      let whi = cw;
      for (const [ax, ay] of p.anchors) {
        const row = (y + ay) * this.gw + (ax >>> 5);
        const t = ax & 31;
        let nlo = whi;
        let nhi = wlo;
        for (let i = wlo; i < whi; i++) {
          if (!cand[i]) continue;
          const f = ~g[row + i];
          const v = t ? (f >>> t) | (~g[row + i + 1] << (32 - t)) : f;
          if ((cand[i] &= v)) {
            if (i < nlo) nlo = i;
            nhi = i + 1;
          }
        }
        wlo = nlo;
        whi = nhi;
        if (wlo >= whi) break;
      }
      if (wlo >= whi) continue;
      for (let i = wlo; i < whi; i++) {
        let v = cand[i];
        while (v) {
          const b = 31 - Math.clz32(v & -v);
          const x = i * 32 + b;
          if (this.fits(p, x, y)) return { x, y };
          v &= v - 1;
        }
      }
    }
  }

  /** Stores the copy grown by the gap. */
  place(p: Prepared, x: number, y: number): void {
    const d = p.src.dil;
    const pad = p.src.pad;
    const X = x - pad;
    const fw = Math.floor(X / 32);
    const ts = X - fw * 32;
    this.ensure(y - pad + d.h);
    const g = this.bits;
    for (let r = 0; r < d.h; r++) {
      const gy = y - pad + r;
      if (gy < 0) continue;
      const base = gy * this.gw;
      for (let k = 0; k < d.words; k++) {
        const v = d.bits[r * d.words + k];
        if (!v) continue;
        const tw = fw + k;
        if (tw >= 0 && tw < this.gw) g[base + tw] |= v << ts;
        if (ts && tw + 1 >= 0 && tw + 1 < this.gw) g[base + tw + 1] |= v >>> (32 - ts);
      }
      let f = 0;
      for (let k = 0, e = Math.ceil(this.width / 32); k < e; k++) f += popcount(~g[base + k]);
      this.free[gy] = f;
      this.run[gy] = longestFreeRun(g, base, Math.ceil(this.width / 32));
    }
  }
}

/** Copies at x + i·a in every row; rows b apart, every other one shifted by s (cells). */
interface Lattice {
  a: number;
  s: number;
  b: number;
}

/**
 * The densest simple lattice of one orientation's copies, on a scratch grid: `a` the
 * shortest step across the strip at which two copies side by side keep the gap, then the
 * row step (s, b), s 0 or a/2, with the smallest b at which a row shifted by s clears the
 * row below (and the row two below). The bottom-left fill breaks such patterns at a row's
 * end, where a copy finds a lower spot against the wall than the next row's first lattice
 * spot (discs: 6 then 5 across, or worse, where 6 and 6 fit).
 */
function latticeOf(p: Prepared): Lattice | null {
  const pad = p.src.pad;
  const span = p.w + 2 * pad + 2;
  const maxWords = Math.max(p.src.mask.words, p.src.dil.words) + 1;
  const width = 9 * span + 2 * pad;
  const grid = new Grid(width, Infinity, maxWords, 4 * (p.h + pad) + 8);
  const x0 = 4 * span;
  const y0 = p.h + 2 * pad + 2;
  grid.place(p, x0, y0);
  let a = 0;
  for (let dx = 1; dx <= span; dx++)
    if (grid.fits(p, x0 + dx, y0)) {
      a = dx;
      break;
    }
  if (!a) return null;
  for (let i = -3; i <= 3; i++) if (i) grid.place(p, x0 + i * a, y0);
  let best: Lattice | null = null;
  for (const s of [0, Math.floor(a / 2)]) {
    for (let b = 1; b <= p.h + 2 * pad + 1; b++) {
      if (!grid.fits(p, x0 + s, y0 + b)) continue;
      // rows alternate between shifts 0 and s: the row two up must clear row 0 too
      if (!grid.fits(p, x0, y0 + 2 * b)) continue;
      if (!best || b < best.b) best = { a, s, b };
      break;
    }
  }
  return best;
}

function sameCells(a: CellMask, b: CellMask): boolean {
  if (a.w !== b.w || a.h !== b.h || a.area !== b.area) return false;
  for (let i = 0; i < a.bits.length; i++) if (a.bits[i] !== b.bits[i]) return false;
  return true;
}

/** Placement rules of the bottom-left fill (see `nestSheets`). */
export type PlacementRule = 'far' | 'top' | 'centre' | 'lattice' | 'fill';
type Rule = PlacementRule;

/**
 * In the order they are tried (a short budget, like the 1 s preview, may get only the first
 * layout): the fill rule's starting layout was the shortest on all six artwork orders, the
 * centre rule's on 5 of 6 before the fill rule existed.
 */
const RULES: readonly Rule[] = ['fill', 'centre', 'far', 'top', 'lattice'];

/**
 * The "fill" rule's parameters: how many designs, next in the sequence, compete for the
 * lowest spot (`window`), how much higher a bigger design's copy may sit than the lowest one
 * and still go first (`tolerance`, in sides of a typical copy), and what "bigger" means
 * (`prefer`: the grown area, or the width as placed).
 */
interface FillParams {
  window: number;
  tolerance: number;
  prefer: 'area' | 'width';
}

/** The fill rule of the starting layouts: 4 designs compete, bigger ones within a fifth of a typical copy's side. */
const FILL_START: FillParams = { window: 4, tolerance: 0.2, prefer: 'area' };
/**
 * Share of the search's evaluations that draw new fill parameters (window 3, 4, 6 or all
 * designs; tolerance 0.1–0.35 of a typical copy's side; area or width) instead of moving copies in the
 * sequence. The fill layouts' lengths jump with these parameters (±3 % between neighbouring
 * tolerances on the artwork orders), so fresh draws find shorter layouts more often than
 * sequence moves do on orders of 150–400 copies.
 */
const FILL_DRAWS = 0.5;
/**
 * Shortest budget that starts helper threads: a helper needs a few hundred ms to load the
 * engine and prepare its masks, and the quick previews (1–2 s) would get little from it.
 */
const RACE_MIN_MS = 3000;

/**
 * When a converging layout (`NestConfig.converge`) stops. Improvements come ever more rarely
 * (a search that found its last shorter layout after t ms rarely finds another soon), so
 * each phase waits in proportion to how long its last gain took:
 * - the bottom-left search ends (and the compaction starts) once it has found no shorter
 *   layout for max(`searchMinMs`, `share` × the time to its last one) and made
 *   `searchEvaluations` evaluations since (fill draws and sequence moves; the search's gains
 *   come early, so a few dozen evaluations without one mean it has settled);
 * - the compaction ends once no thread has found a shorter strip for max(`compactMinMs`,
 *   `share` × the time it took to find its last one), `compactFailures` attempts of its own
 *   have failed since (each failure shrinks the step: it has tried smaller ones), and no
 *   racing helper's own search can still publish a start.
 * Why these values: docs/gangsheet.md, "Convergence".
 */
export const CONVERGENCE = { searchMinMs: 1000, searchEvaluations: 30, compactMinMs: 1500, compactFailures: 3, share: 1 } as const;

interface Evaluated {
  sheets: NestSheet[];
  /** (sheets - 1) * bigM + total used rows: fewer sheets first, then less film. */
  cost: number;
}

/**
 * Nests `copies` (each the index of its type) into as few sheets as it can, the last one
 * as short as it can. Deterministic for the same input with `maxEvaluations`.
 */
export function nestSheets(types: readonly NestType[], copies: readonly number[], cfg: NestConfig): NestResult {
  const start = performance.now();
  if (copies.length === 0) return { sheets: [], evaluations: 0 };
  const prepared = types.map((t) => t.orientations.map(prepare));
  // the orientations worth trying: a turn whose cells equal an earlier turn's (a ring's, a
  // badge's, a photo's half turn) finds the same spots
  const distinct = types.map((t) =>
    t.orientations.flatMap((o, i) => (t.orientations.slice(0, i).some((e) => sameCells(e.mask, o.mask)) ? [] : [i])),
  );
  const maxWords = Math.max(1, ...types.flatMap((t) => t.orientations.map((o) => Math.max(o.mask.words, o.dil.words) + 1)));
  // reject copies that cannot fit an empty sheet in any orientation
  copies.forEach((t, i) => {
    const os = types[t].orientations;
    if (!os.some((o) => o.mask.w <= cfg.width)) throw new NestPieceTooLargeError(i, 'width');
    if (!os.some((o) => o.mask.w <= cfg.width && o.mask.h <= cfg.maxRows)) throw new NestPieceTooLargeError(i, 'length');
  });
  const areaOf = (t: number) => Math.max(...types[t].orientations.map((o) => o.dil.area));
  const totalArea = copies.reduce((a, t) => a + areaOf(t), 0);
  // the side of a typical copy (square root of the mean grown area), in cells
  const typical = Math.sqrt(totalArea / Math.max(1, copies.length));
  const initialRows = Math.min(Number.isFinite(cfg.maxRows) ? cfg.maxRows : Infinity, Math.ceil((totalArea / cfg.width) * 1.5) + 64);
  const bigM = Number.isFinite(cfg.maxRows) ? cfg.maxRows * 4 : 0;

  let evaluations = 0;
  /**
   * Which orientation a copy takes: the one whose first free position has the lowest far
   * edge ("far"), the lowest top edge ("top") or the lowest centroid of its ink ("centre",
   * the lowest-gravity-centre rule of the nesting literature), leftmost on ties. Within one
   * orientation all three mean the first free position; they differ in which orientation
   * wins (a heart point-down or on its side). "lattice" is "far" where
   * each (design, orientation) keeps to its own lattice (`latticeOf`, origin at its first
   * copy on the sheet) while the lattice's next free spot is at most LATTICE_SLACK of a row
   * step above the first free spot: rows of identical copies stay interlocked instead of
   * breaking at the wall (30 discs of 3 in: 16.6 in with "far", 14.8 in). "fill" (orders of
   * several designs) also chooses *which design* goes next instead of following the
   * sequence: see the fill branch of `evaluate`. No rule wins everywhere, so all are tried
   * on the starting sequences and the best one is kept for the search.
   */
  let rule: Rule = 'far';
  let fill: FillParams = FILL_START;
  const lattices = new Map<number, Lattice | null>();
  const latticeFor = (t: number, o: number): Lattice | null => {
    const key = t * 8 + o;
    if (!lattices.has(key)) lattices.set(key, latticeOf(prepared[t][o]));
    return lattices.get(key)!;
  };
  // when a timed search gives up on an evaluation in progress (0: never); set once there is a layout
  let abandon = 0;
  const evaluate = (seq: readonly number[], bound: number): Evaluated | null => {
    evaluations++;
    const sheets: NestSheet[] = [];
    let remaining = seq;
    let cost = 0;
    let farSum = 0;
    while (remaining.length) {
      const grid = new Grid(cfg.width, cfg.maxRows, maxWords, initialRows);
      // first free position found so far per (type, orientation): the grid only fills up,
      // so no earlier position can become free again on this sheet
      const cache = new Map<number, { x: number; y: number } | null>();
      // first copy of each (type, orientation) on this sheet: its lattice's origin
      const origin = new Map<number, { x: number; y: number }>();
      const placements: NestPlacement[] = [];
      const rest: number[] = [];
      let rows = 0;
      // where a copy of type t would go: over its orientations, the best by the rule
      const choose = (t: number): { o: number; x: number; y: number; score: number } | null => {
        const ps = prepared[t];
        let best: { o: number; x: number; y: number; score: number } | null = null;
        for (const o of distinct[t]) {
          const key = t * 8 + o;
          let from = cache.get(key);
          if (from === null) continue;
          from ??= { x: 0, y: 0 };
          const pos = grid.firstFit(ps[o], from.y, from.x);
          cache.set(key, pos);
          if (!pos) continue;
          let px = pos.x;
          let py = pos.y;
          let onLattice = false;
          // a lattice spot counts as low as the first free spot it replaces
          const far = pos.y + ps[o].h;
          const org = rule === 'lattice' ? origin.get(key) : undefined;
          if (org) {
            const L = latticeFor(t, o);
            if (L) {
              // the first free lattice spot at or after the first free spot, unless it lies
              // more than LATTICE_SLACK of a row step higher
              const limit = pos.y + Math.floor(L.b * LATTICE_SLACK);
              let j = Math.ceil((pos.y - org.y) / L.b);
              search: for (let y = org.y + j * L.b; y <= limit; j++, y += L.b) {
                // rows alternate between the origin's offset and the shifted one
                const shift = (((org.x + (j & 1 ? L.s : 0)) % L.a) + L.a) % L.a;
                for (let x = shift; x + ps[o].w <= cfg.width; x += L.a) {
                  if (y === pos.y && x < pos.x) continue;
                  if (y + ps[o].h > cfg.maxRows) break search;
                  grid.ensure(y + ps[o].h);
                  if (grid.fits(ps[o], x, y)) {
                    px = x;
                    py = y;
                    onLattice = true;
                    break search;
                  }
                }
              }
            }
          }
          // "lattice" breaks ties by orientation, not by column: copies of a symmetric design
          // then stay in one orientation and on one lattice, and pack as tightly as rectangles
          // do (breaking ties by column mixes orientations and leaves gaps between rows)
          // "fill" turns each design's copy by the centre rule, then chooses among designs
          const height = rule === 'top' ? py : rule === 'centre' || rule === 'fill' ? py + ps[o].cy : far;
          // a copy that continues its lattice beats an orientation without one: the turned
          // cells of a round design differ a little, so a turned copy's first free spot can lie
          // lower at the wall and break the rows (50 discs of 4 in: 41.80 in, on the lattice 41.0)
          const score = (rule === 'lattice' && !onLattice ? OFF_LATTICE : 0) + height * (cfg.width + 1) + (rule === 'lattice' ? o : pos.x);
          if (!best || score < best.score) best = { o, x: px, y: py, score };
        }
        return best;
      };
      const put = (c: number, b: { o: number; x: number; y: number }): boolean => {
        const ps = prepared[copies[c]];
        grid.place(ps[b.o], b.x, b.y);
        const key = copies[c] * 8 + b.o;
        if (!origin.has(key)) origin.set(key, { x: b.x, y: b.y });
        placements.push({ copy: c, orientation: b.o, x: b.x, y: b.y });
        rows = Math.max(rows, b.y + ps[b.o].h);
        farSum += b.y + ps[b.o].h;
        // once there is a layout, a timed search abandons an evaluation at its deadline (one
        // fill layout of 300 copies takes up to ~0.8 s, the preview's whole budget)
        if (abandon && (placements.length & 15) === 0 && performance.now() >= abandon) return false;
        // a single sheet can only grow: stop as soon as it is worse than the bound
        return Number.isFinite(cfg.maxRows) || rows <= Math.floor(bound);
      };
      if (rule !== 'fill') {
        for (const c of remaining) {
          const b = choose(copies[c]);
          if (!b) rest.push(c);
          else if (!put(c, b)) return null;
        }
      } else {
        // "fill": of the next `fill.window` designs in the sequence, the one whose copy would
        // sit lowest goes next, unless a bigger one would sit at most `fill.tolerance` sides of
        // a typical copy higher (the biggest such one goes). The rectangle packer's skyline fills the lowest
        // gap with the piece that fits it best, and it mixes designs across the width; the
        // plain sequence lays each design as a block.
        const queues = new Map<number, number[]>();
        for (const c of remaining) {
          const t = copies[c];
          if (!queues.has(t)) queues.set(t, []);
          queues.get(t)!.push(c);
        }
        const at = new Map<number, number>();
        remaining.forEach((c, i) => at.set(c, i));
        const head = new Map<number, number>([...queues.keys()].map((t) => [t, 0]));
        let active = [...queues.keys()];
        while (active.length) {
          active.sort((a, b) => at.get(queues.get(a)![head.get(a)!])! - at.get(queues.get(b)![head.get(b)!])!);
          const cands: { t: number; b: { o: number; x: number; y: number; score: number } }[] = [];
          for (const t of active.slice(0, fill.window)) {
            const b = choose(t);
            if (b) cands.push({ t, b });
            else {
              // no room for this design on the sheet: its copies go to the next one
              rest.push(...queues.get(t)!.slice(head.get(t)!));
              head.set(t, queues.get(t)!.length);
            }
          }
          if (cands.length) {
            const reach = Math.min(...cands.map((k) => k.b.y)) + fill.tolerance * typical;
            let pick = cands[0];
            const size = (k: (typeof cands)[number]) => (fill.prefer === 'area' ? areaOf(k.t) : prepared[k.t][k.b.o].w);
            for (const k of cands) if (k.b.y <= reach && (pick.b.y > reach || size(k) > size(pick))) pick = k;
            const q = queues.get(pick.t)!;
            const c = q[head.get(pick.t)!];
            head.set(pick.t, head.get(pick.t)! + 1);
            if (!put(c, pick.b)) return null;
          }
          active = active.filter((t) => head.get(t)! < queues.get(t)!.length);
        }
      }
      if (placements.length === 0) throw new Error('internal: nothing fits an empty sheet');
      sheets.push({ rows, placements });
      cost += (sheets.length > 1 ? bigM : 0) + rows;
      remaining = rest;
    }
    // tie-break (below one row): copies lower on average, so the search can cross the
    // plateaus where many sequences give the same length
    return { sheets, cost: cost + farSum / (seq.length * (cost + 1) * 2) };
  };

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
  const racing = share > 0 && cfg.maxEvaluations === undefined && cfg.compactMoves === undefined && (cfg.threads ?? 1) > 1 && cfg.timeLimitMs >= RACE_MIN_MS;
  const race = racing ? startRace(types, copies, cfg, start + searchMs, start + cfg.timeLimitMs) : undefined;
  const outOfTime = () =>
    cfg.maxEvaluations !== undefined ? evaluations >= cfg.maxEvaluations : performance.now() - start >= searchMs;
  const converging = cfg.converge === true && cfg.maxEvaluations === undefined;
  // the search's last shorter layout (fewer rows or sheets): when, and after how many evaluations
  let gainAt = 0;
  let gainEvaluations = 0;
  const stalled = () =>
    converging &&
    evaluations - gainEvaluations >= CONVERGENCE.searchEvaluations &&
    performance.now() - gainAt >= Math.max(CONVERGENCE.searchMinMs, CONVERGENCE.share * (gainAt - start));
  const gained = (e: Evaluated, old: Evaluated) => {
    if (Math.floor(e.cost) >= Math.floor(old.cost)) return;
    gainAt = performance.now();
    gainEvaluations = evaluations;
  };
  let best: Evaluated | null = null;
  let bestSeq: number[] = starts[0];
  let bestRule: Rule = rule;
  // with one design the fill rule is the centre rule
  const designs = new Set(copies).size;
  const rules = (cfg.rules ?? RULES).filter((q) => designs > 1 || q !== 'fill');
  if (!rules.length) throw new Error('no placement rule to try');
  // every rule on the first order before any rule on the others: a short budget (the
  // preview) then sees every rule once (no rule is best on every order)
  starting: for (const s of starts)
    for (const r of rules) {
      rule = r;
      const e = evaluate(s, best ? best.cost : Infinity);
      // one design: the lattice's even rows win a tie in length (same film, and the seller
      // sees rows instead of copies dropped against the wall)
      const tie = e && best && designs === 1 && r === 'lattice' && Math.floor(e.cost) === Math.floor(best.cost);
      if (e && (!best || e.cost < best.cost || tie)) {
        best = e;
        bestSeq = s;
        bestRule = r;
        if (cfg.maxEvaluations === undefined) abandon = start + searchMs;
      }
      if (outOfTime()) break starting;
    }
  rule = bestRule;
  if (!best) throw new Error('internal: no layout');
  gainAt = performance.now();
  gainEvaluations = evaluations;
  // local search over the sequence, and over the fill rule's parameters
  const n = bestSeq.length;
  while (!outOfTime() && !stalled() && n > 1) {
    if (designs > 1 && rules.includes('fill') && rng.next() < FILL_DRAWS) {
      const drawn: FillParams = { window: [3, 4, 6, designs][rng.int(4)], tolerance: 0.1 + 0.25 * rng.next(), prefer: rng.next() < 0.5 ? 'area' : 'width' };
      const [keepRule, keepFill] = [rule, fill];
      [rule, fill] = ['fill', drawn];
      const e = evaluate(bestSeq, best.cost);
      if (e && e.cost <= best.cost) {
        gained(e, best);
        best = e;
      } else [rule, fill] = [keepRule, keepFill];
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
    const compacted = compactLast(prepared, copies, last, cfg, new Rng((cfg.seed ?? 1) + 7), start + cfg.timeLimitMs, cfg.compactFirstStep, cfg.compactCutTail, race, converging);
    if (compacted && compacted.rows < last.rows) sheets[sheets.length - 1] = compacted;
  }
  race?.stop();
  return { sheets, evaluations };
}

/**
 * Overlap-minimisation compaction of one feasible sheet on its own (the types' masks may be
 * finer than those it was nested on: `nestEsicup` refines on a grid of half the cell).
 * Returns the shorter checked sheet, or null when none was found before `deadline`.
 */
export function compactSheet(
  types: readonly NestType[],
  copies: readonly number[],
  sheet: NestSheet,
  cfg: { width: number; seed?: number; compactMoves?: number; firstStep?: number },
  deadline: number,
): NestSheet | null {
  const prepared = types.map((t) => t.orientations.map(prepare));
  const full: NestConfig = { width: cfg.width, maxRows: Infinity, timeLimitMs: 0, compactMoves: cfg.compactMoves };
  return compactLast(prepared, copies, sheet, full, new Rng((cfg.seed ?? 1) + 11), deadline, cfg.firstStep);
}

function toCompactShape(p: Prepared): CompactShape {
  let c = compactOf.get(p);
  if (!c) compactOf.set(p, (c = compactShapeOf(p)));
  return c;
}

function compactShapeOf(p: Prepared): CompactShape {
  const o = p.src;
  const d = o.dil === o.mask || o.pad === 0 ? null : shiftRows(o.dil.bits, o.dil.words, o.dil.h);
  return {
    w: p.w,
    h: p.h,
    sw: p.sw,
    shifted: p.shifted,
    lo: p.lo,
    hi: p.hi,
    pad: o.pad,
    dw: d ? o.dil.w : p.w,
    dh: d ? o.dil.h : p.h,
    dsw: d ? d.sw : p.sw,
    dshifted: d ? d.shifted : p.shifted,
    dlo: d ? d.lo : p.lo,
    dhi: d ? d.hi : p.hi,
  };
}

/**
 * Overlap-minimisation compaction of one sheet (overlap.ts). The result is checked again on
 * a fresh grid with the bottom-left fill's own fit test; null when nothing shorter was found.
 */
function compactLast(
  prepared: Prepared[][],
  copies: readonly number[],
  sheet: NestSheet,
  cfg: NestConfig,
  rng: Rng,
  deadline: number,
  firstStep?: number,
  cutTail?: number,
  race?: SharedStrip,
  converge = false,
): NestSheet | null {
  if (sheet.placements.length < 2) return null;
  const used = [...new Set(sheet.placements.map((p) => copies[p.copy]))];
  const shapes: CompactShape[][] = [];
  for (const t of used) shapes[t] = prepared[t].map(toCompactShape);
  // racing threads share layouts piece by piece, so the pieces go in the order of the copies
  const order = race ? [...sheet.placements].sort((a, b) => a.copy - b.copy) : sheet.placements;
  const start = order.map((p) => ({ type: copies[p.copy], orientation: p.orientation, x: p.x, y: p.y }));
  race?.publish(start, sheet.rows);
  const patience = converge ? { minMs: CONVERGENCE.compactMinMs, share: CONVERGENCE.share, failures: CONVERGENCE.compactFailures } : undefined;
  let res = compactStrip(shapes, start, { width: cfg.width, deadline, maxMoves: cfg.compactMoves, rng, firstStep, cutTail, race, converge: patience });
  if (race) {
    // a helper may have found a shorter strip after this thread's last look
    race.stop();
    const theirs = race.best();
    if (theirs && theirs.rows < res.rows && theirs.pieces.length === start.length && theirs.pieces.every((p, i) => p.type === start[i].type))
      res = { ...res, pieces: theirs.pieces, rows: theirs.rows };
  }
  if (res.rows >= sheet.rows) return null;
  const placements = order.map((p, i) => ({ copy: p.copy, orientation: res.pieces[i].orientation, x: res.pieces[i].x, y: res.pieces[i].y }));
  return checkedSheet(prepared, copies, placements, cfg) ? { rows: res.rows, placements } : null;
}

/**
 * Whether every placement lies within the sheet and every two keep the gap: one copy's ink
 * cells miss the other's grown cells, in either direction (`gapOverlap`).
 */
function checkedSheet(prepared: Prepared[][], copies: readonly number[], placements: readonly NestPlacement[], cfg: NestConfig): boolean {
  const shapes = placements.map((p) => toCompactShape(prepared[copies[p.copy]][p.orientation]));
  for (const [i, p] of placements.entries()) {
    const s = shapes[i];
    if (p.x < 0 || p.y < 0 || p.x + s.w > cfg.width || p.y + s.h > cfg.maxRows) return false;
    for (let j = 0; j < i; j++) if (gapOverlap(s, p.x, p.y, shapes[j], placements[j].x, placements[j].y)) return false;
  }
  return true;
}

/**
 * The helper threads of a racing compaction (race.ts): each runs a bottom-left search of its
 * own until `searchEnd`, then compacts the shortest shared strip with its own random cuts
 * until `deadline` (performance.now() of this thread) or until the race is stopped; it ends
 * by `deadline` also when the caller throws. A helper that fails to start only means no
 * help: the calling thread compacts on its own.
 */
function startRace(types: readonly NestType[], copies: readonly number[], cfg: NestConfig, searchEnd: number, deadline: number): SharedStrip {
  const race = SharedStrip.create(copies.length, (cfg.threads ?? 1) - 1);
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
}

/** A helper thread's work (see `startRace`). */
export function raceHelper(d: RaceHelperData): void {
  const race = new SharedStrip(d.buffer);
  // a bottom-left search of its own meanwhile (another seed): the shorter strip of the two
  // is the one both compact. Only on one endless sheet: with a maximum length the caller
  // compacts its last sheet, which holds other copies than a whole layout of the order.
  const searchMs = d.searchEndAt - Date.now();
  try {
    if (searchMs > 0 && !Number.isFinite(d.maxRows)) {
      const res = nestSheets(d.types, d.copies, { width: d.width, maxRows: d.maxRows, timeLimitMs: searchMs, seed: d.seed, rules: d.rules, converge: d.converge });
      const sheet = res.sheets[0];
      if (res.sheets.length === 1 && !race.over())
        race.publish(
          [...sheet.placements].sort((a, b) => a.copy - b.copy).map((p) => ({ type: d.copies[p.copy], orientation: p.orientation, x: p.x, y: p.y })),
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
  compactStrip(shapes, start.pieces, { width: d.width, deadline, rng: new Rng(d.seed), firstStep: d.firstStep, cutTail: d.cutTail, race });
}
