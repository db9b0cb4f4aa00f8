/**
 * Overlap of copies on cell masks: the collision measure of true-shape nesting. A copy's ink
 * cells that fall on another copy's gap-grown cells count; zero in either direction means
 * the two keep the gap, exactly the occupancy grid's fit test (grid.ts).
 */
import { popcount } from './cells';
import type { Poles } from './poles';

/** One orientation of a type, with both masks pre-shifted by every bit offset. */
export interface CompactShape {
  /** Ink mask size in cells and words per shifted row. */
  w: number;
  h: number;
  sw: number;
  /** Ink rows shifted left by s bits (s = 0..31), `sw` words per row. */
  shifted: Uint32Array[];
  /** Each shifted ink row's words that can be non-zero (for every shift), [lo, hi). */
  lo: Int32Array;
  hi: Int32Array;
  /** Gap-grown mask: size, pad (its (pad, pad) is the ink mask's (0, 0)), shifted rows. */
  pad: number;
  dw: number;
  dh: number;
  dsw: number;
  dshifted: Uint32Array[];
  dlo: Int32Array;
  dhi: Int32Array;
  /**
   * Each ink row's set cells lie in columns [x0, x1) (empty rows: x0 >= x1), and each grown
   * row's in [dx0, dx1) (`rowSpans`). Optional: with them a pair's count skips the rows and
   * words where the two rows' cells cannot meet.
   */
  x0?: Int32Array;
  x1?: Int32Array;
  dx0?: Int32Array;
  dx1?: Int32Array;
  /** Poles of the ink (poles.ts), made when first asked for. */
  poles?: () => Poles;
  /** Width of a column in rows. */
  ux?: number;
  /** The gap in rows (poles of two copies collide within it). */
  gap?: number;
}

export interface CompactPiece {
  type: number;
  orientation: number;
  /** Cell of the ink mask's (0, 0); x across the strip, y along it. */
  x: number;
  y: number;
}

/**
 * Shifts every row of a bitset by s = 0..31 bits, into rows one word wider, and gives each
 * row's words that can be non-zero after any shift, [lo, hi) (empty rows: lo = hi).
 */
export function shiftRows(bits: Uint32Array, words: number, h: number): { sw: number; shifted: Uint32Array[]; lo: Int32Array; hi: Int32Array } {
  const sw = words + 1;
  const shifted: Uint32Array[] = [];
  for (let s = 0; s < 32; s++) {
    const out = new Uint32Array(sw * h);
    for (let r = 0; r < h; r++)
      for (let k = 0; k < words; k++) {
        const v = bits[r * words + k];
        if (!v) continue;
        out[r * sw + k] |= v << s;
        if (s) out[r * sw + k + 1] |= v >>> (32 - s);
      }
    shifted.push(out);
  }
  const { lo, hi } = rowWords(bits, words, h);
  return { sw, shifted, lo, hi };
}

/** Each row's first set column and last set column + 1 (empty rows: [w, 0)), of a bitset of `words` words a row. */
export function rowSpans(bits: Uint32Array, words: number, h: number): { x0: Int32Array; x1: Int32Array } {
  const x0 = new Int32Array(h).fill(words * 32);
  const x1 = new Int32Array(h);
  for (let r = 0; r < h; r++) {
    for (let k = 0; k < words; k++) {
      const v = bits[r * words + k];
      if (!v) continue;
      x0[r] = 32 * k + 31 - Math.clz32(v & -v);
      break;
    }
    for (let k = words - 1; k >= 0; k--) {
      const v = bits[r * words + k];
      if (!v) continue;
      x1[r] = 32 * k + 32 - Math.clz32(v);
      break;
    }
  }
  return { x0, x1 };
}

/** Each row's non-zero words [lo, hi) once shifted into rows one word wider (by any shift). */
function rowWords(bits: Uint32Array, words: number, h: number): { lo: Int32Array; hi: Int32Array } {
  const lo = new Int32Array(h);
  const hi = new Int32Array(h);
  for (let r = 0; r < h; r++) {
    let a = -1;
    let b = -1;
    for (let k = 0; k < words; k++)
      if (bits[r * words + k]) {
        if (a < 0) a = k;
        b = k;
      }
    // a shift carries the last word's high bits into the next one
    lo[r] = a < 0 ? 0 : a;
    hi[r] = a < 0 ? 0 : Math.min(words + 1, b + 2);
  }
  return { lo, hi };
}

/**
 * Ink cells of `a` at (ax, ay) that lie on gap-grown cells of `b` at (bx, by). Counting stops
 * once it reaches `limit` (the answer is then some count ≥ limit): a pose that is already
 * worse than the best one found need not be measured exactly.
 */
export function pairOverlap(a: CompactShape, ax: number, ay: number, b: CompactShape, bx: number, by: number, limit = Infinity): number {
  const bX = bx - b.pad;
  const bY = by - b.pad;
  const r0 = ay > bY ? ay : bY;
  const r1 = Math.min(ay + a.h, bY + b.dh);
  if (r0 >= r1) return 0;
  if (ax >= bX + b.dw || bX >= ax + a.w) return 0;
  const sa = a.shifted[ax & 31];
  const wa = ax >> 5;
  const fw = Math.floor(bX / 32);
  const sb = b.dshifted[bX - fw * 32];
  const asw = a.sw;
  const bsw = b.dsw;
  const alo = a.lo;
  const ahi = a.hi;
  const blo = b.dlo;
  const bhi = b.dhi;
  let n = 0;
  const ax0 = a.x0;
  const ax1 = a.x1;
  const bx0 = b.dx0;
  const bx1 = b.dx1;
  // with the rows' cell spans, only the words of the spans' intersection (a row pair whose
  // spans miss has nothing to count); without them the rows' non-zero words (sheet words;
  // round shapes' rows are short). The same count either way, over fewer words with spans.
  const spans = !!(ax0 && ax1 && bx0 && bx1);
  for (let r = r0; r < r1; r++) {
    const ra = r - ay;
    const rb = r - bY;
    let k0: number;
    let k1: number;
    if (spans) {
      const c0 = Math.max(ax + ax0![ra], bX + bx0![rb]);
      const c1 = Math.min(ax + ax1![ra], bX + bx1![rb]);
      if (c0 >= c1) continue;
      k0 = c0 >> 5;
      k1 = ((c1 - 1) >> 5) + 1;
    } else {
      k0 = Math.max(wa + alo[ra], fw + blo[rb]);
      k1 = Math.min(wa + ahi[ra], fw + bhi[rb]);
      if (k0 >= k1) continue;
    }
    const oa = ra * asw - wa;
    const ob = rb * bsw - fw;
    for (let k = k0; k < k1; k++) {
      const v = sa[oa + k] & sb[ob + k];
      if (v) n += popcount(v);
    }
    if (n >= limit) return n;
  }
  return n;
}

/**
 * Overlap of two copies for the gap: zero when either one's ink cells miss the other's
 * grown cells. Each direction alone keeps the gap, and the bottom-left fill tests only one
 * (the later copy's ink against the earlier one's grown cells); grown masks measured on
 * pixels are not symmetric on cells, so a feasible layout may be clear in one direction only.
 */
export function gapOverlap(a: CompactShape, ax: number, ay: number, b: CompactShape, bx: number, by: number, limit = Infinity): number {
  const v = pairOverlap(a, ax, ay, b, bx, by, limit);
  // masks not grown (ESICUP: the gap is 0) are symmetric
  if (!v || (a.pad === 0 && b.pad === 0)) return v;
  return Math.min(v, pairOverlap(b, bx, by, a, ax, ay, Math.min(v, limit)));
}

/** Far edge (used rows) of a set of pieces. */
export function usedRows(shapes: readonly CompactShape[][], pieces: readonly CompactPiece[]): number {
  let rows = 0;
  for (const p of pieces) rows = Math.max(rows, p.y + shapes[p.type][p.orientation].h);
  return rows;
}
