/**
 * The occupancy grid of true-shape nesting, and the orientations prepared for it.
 *
 * The sheet is a grid of square cells, one bit each (32 per word). Placed copies are stored
 * grown by the gap (their `dil` mask), so a new copy fits where its own, ungrown cells hit
 * no set bit. A collision test is a few ANDs per row of the copy. Cells beyond the sheet
 * width are set, so the right edge is just another obstacle.
 */
import { CellMask, popcount } from './cells';
import { shiftRows } from './cell-overlap';

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
  /** Width of a column in rows (default 1: square cells); ESICUP's short strips have finer rows. */
  aspect?: number;
}

export interface NestType {
  orientations: NestOrientation[];
}

/** An orientation prepared for fast tests: the mask shifted by every bit offset. */
export interface Prepared {
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
 * Anchor rows per mask (first, last and ANCHOR_ROWS - 1 evenly between): more anchors rule
 * out more candidate columns before a full fit test, for a little more work per row.
 */
const ANCHOR_ROWS = 8;

/**
 * Preparations by orientation, made once per object: the race helper's search and its
 * compaction share them, and so do a compaction and its check. (Masks are never changed
 * after they are made.)
 */
const preparedOf = new WeakMap<NestOrientation, Prepared>();

export function prepare(o: NestOrientation): Prepared {
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
export class Grid {
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
