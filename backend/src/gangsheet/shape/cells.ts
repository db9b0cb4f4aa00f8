/**
 * Cell masks: a shape as a bitset of square cells (row-major, 32 cells per word, bit x of a
 * row is cell x). The nester works only on these, whatever the shape came from (an alpha
 * mask or a polygon), so every source is turned into cells conservatively: a cell is set
 * whenever any ink could lie in it. Two shapes whose set cells are disjoint therefore have
 * disjoint ink.
 */

export interface CellMask {
  /** Size in cells. */
  w: number;
  h: number;
  /** Words per row. */
  words: number;
  bits: Uint32Array;
  /** Number of set cells. */
  area: number;
}

export function emptyMask(w: number, h: number): CellMask {
  const words = Math.max(1, Math.ceil(w / 32));
  return { w, h, words, bits: new Uint32Array(words * h), area: 0 };
}

export function getCell(m: CellMask, x: number, y: number): boolean {
  if (x < 0 || y < 0 || x >= m.w || y >= m.h) return false;
  return ((m.bits[y * m.words + (x >>> 5)] >>> (x & 31)) & 1) === 1;
}

/** Sets cells [x0, x1) of row y in a bitset with `words` words per row. */
export function setRun(bits: Uint32Array, words: number, y: number, x0: number, x1: number): void {
  if (x1 <= x0) return;
  const base = y * words;
  const w0 = x0 >>> 5;
  const w1 = (x1 - 1) >>> 5;
  const lo = (~0 << (x0 & 31)) >>> 0;
  const hi = (x1 & 31) === 0 ? 0xffffffff : ((1 << (x1 & 31)) - 1) >>> 0;
  if (w0 === w1) {
    bits[base + w0] |= lo & hi;
    return;
  }
  bits[base + w0] |= lo;
  for (let k = w0 + 1; k < w1; k++) bits[base + k] = 0xffffffff;
  bits[base + w1] |= hi;
}

export function popcount(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export function countCells(m: CellMask): number {
  let n = 0;
  for (let i = 0; i < m.bits.length; i++) if (m.bits[i]) n += popcount(m.bits[i]);
  return n;
}

/**
 * Marks every cell that the rectangle [x0, x1) × [y0, y1) (in cell units, fractional)
 * touches with positive area.
 */
export function markRect(m: CellMask, x0: number, y0: number, x1: number, y1: number): void {
  const cx0 = Math.max(0, Math.floor(x0));
  const cy0 = Math.max(0, Math.floor(y0));
  const cx1 = Math.min(m.w, Math.ceil(x1));
  const cy1 = Math.min(m.h, Math.ceil(y1));
  for (let y = cy0; y < cy1; y++) setRun(m.bits, m.words, y, cx0, cx1);
}
