import * as fs from 'fs';
import * as path from 'path';
import { checkEsicupSolution } from '../../../bench/nest-check';
import { Rng } from '../pack/rng';
import { nestEsicup, parseEsicup } from './esicup';
import { CompactShape, pairOverlap, shiftRows } from './cell-overlap';

const BENCH = path.resolve(__dirname, '../../../../../shared/bench-data/irregular');

function randomShape(rng: Rng, pad: number): { shape: CompactShape; ink: Set<string>; grown: Set<string> } {
  const w = 1 + rng.int(70);
  const h = 1 + rng.int(20);
  const words = Math.ceil(w / 32);
  const bits = new Uint32Array(words * h);
  const ink = new Set<string>();
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (rng.next() < 0.4) {
        bits[y * words + (x >>> 5)] |= 1 << (x & 31);
        ink.add(`${x},${y}`);
      }
  // the "grown" mask: the ink square-dilated by pad (any set of cells works for the count)
  const dw = w + 2 * pad;
  const dh = h + 2 * pad;
  const dwords = Math.ceil(dw / 32);
  const dbits = new Uint32Array(dwords * dh);
  const grown = new Set<string>();
  for (const k of ink) {
    const [x, y] = k.split(',').map(Number);
    for (let dy = -pad; dy <= pad; dy++)
      for (let dx = -pad; dx <= pad; dx++) {
        const gx = x + dx + pad;
        const gy = y + dy + pad;
        dbits[gy * dwords + (gx >>> 5)] |= 1 << (gx & 31);
        grown.add(`${x + dx},${y + dy}`);
      }
  }
  const s = shiftRows(bits, words, h);
  const d = shiftRows(dbits, dwords, dh);
  return { shape: { w, h, sw: s.sw, shifted: s.shifted, lo: s.lo, hi: s.hi, pad, dw, dh, dsw: d.sw, dshifted: d.shifted, dlo: d.lo, dhi: d.hi }, ink, grown };
}

describe('overlap compaction', () => {
  it('counts the ink cells of one copy on the grown cells of another like a cell-by-cell count', () => {
    const rng = new Rng(11);
    for (let trial = 0; trial < 300; trial++) {
      const a = randomShape(rng, rng.int(3));
      const b = randomShape(rng, rng.int(3));
      const [ax, ay, bx, by] = [rng.int(90), rng.int(30), rng.int(90), rng.int(30)];
      let expected = 0;
      for (const k of a.ink) {
        const [x, y] = k.split(',').map(Number);
        if (b.grown.has(`${x + ax - bx},${y + ay - by}`)) expected++;
      }
      expect(pairOverlap(a.shape, ax, ay, b.shape, bx, by)).toBe(expected);
      // with a limit: exact below it, some count at or above it otherwise
      const limit = rng.int(expected + 3);
      const capped = pairOverlap(a.shape, ax, ay, b.shape, bx, by, limit);
      if (expected < limit) expect(capped).toBe(expected);
      else expect(capped).toBeGreaterThanOrEqual(limit);
    }
  });

  it('shortens a quick bottom-left layout without any overlap (ESICUP jakobs1, checked with polygon clipping)', () => {
    const inst = parseEsicup(fs.readFileSync(path.join(BENCH, 'jakobs1.json'), 'utf8'));
    const plain = nestEsicup(inst, { timeLimitMs: 60_000, maxEvaluations: 2, cellsAcross: 120 });
    const compacted = nestEsicup(inst, { timeLimitMs: 60_000, maxEvaluations: 2, cellsAcross: 120, compactMoves: 3000 });
    expect(checkEsicupSolution(inst, compacted).errors).toEqual([]);
    // deterministic (seeded, counted moves): 14.0 -> 12.13 at this coarse grid
    expect(compacted.length).toBeLessThan(plain.length - 0.3);
  });

  it('refines a coarse layout on cells of half the size: still no overlap, never longer', () => {
    const inst = parseEsicup(fs.readFileSync(path.join(BENCH, 'shapes0.json'), 'utf8'));
    const coarse = nestEsicup(inst, { timeLimitMs: 60_000, maxEvaluations: 2, cellsAcross: 80, compactMoves: 2000 });
    const refined = nestEsicup(inst, { timeLimitMs: 60_000, maxEvaluations: 2, cellsAcross: 80, compactMoves: 2000, refineMoves: 4000 });
    expect(checkEsicupSolution(inst, refined).errors).toEqual([]);
    expect(refined.length).toBeLessThan(coarse.length);
  });
});
