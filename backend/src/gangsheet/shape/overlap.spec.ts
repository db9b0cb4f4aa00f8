import * as fs from 'fs';
import * as path from 'path';
import { checkEsicupSolution } from '../../../bench/nest-check';
import { Rng } from '../pack/rng';
import { nestEsicup, parseEsicup } from './esicup';
import { CompactShape, gapOverlap, pairOverlap, rowSpans, shiftRows, usedRows } from './cell-overlap';
import { emptyMask, markRect } from './cells';
import { compactStrip } from './overlap';
import { settle } from './settle';
import { poleOverlap, polesOf } from './poles';

const BENCH = path.resolve(__dirname, '../../../../../shared/bench-data/irregular');

function randomShape(rng: Rng, pad: number): { shape: CompactShape; spanned: CompactShape; ink: Set<string>; grown: Set<string> } {
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
  const shape = { w, h, sw: s.sw, shifted: s.shifted, lo: s.lo, hi: s.hi, pad, dw, dh, dsw: d.sw, dshifted: d.shifted, dlo: d.lo, dhi: d.hi };
  // the same shape with its rows' cell spans, as the compaction makes it (compact-sheet.ts)
  const spans = rowSpans(bits, words, h);
  const dspans = rowSpans(dbits, dwords, dh);
  return { shape, spanned: { ...shape, x0: spans.x0, x1: spans.x1, dx0: dspans.x0, dx1: dspans.x1 }, ink, grown };
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
      // the same count when the words come from the rows' cell spans
      expect(pairOverlap(a.spanned, ax, ay, b.spanned, bx, by)).toBe(expected);
      // with a limit: exact below it, some count at or above it otherwise
      const limit = rng.int(expected + 3);
      const capped = pairOverlap(a.shape, ax, ay, b.shape, bx, by, limit);
      if (expected < limit) expect(capped).toBe(expected);
      else expect(capped).toBeGreaterThanOrEqual(limit);
      const cappedSpans = pairOverlap(a.spanned, ax, ay, b.spanned, bx, by, limit);
      if (expected < limit) expect(cappedSpans).toBe(expected);
      else expect(cappedSpans).toBeGreaterThanOrEqual(limit);
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

  it('compacts by the poles measure too: still no overlap (ESICUP jakobs1, checked with polygon clipping)', () => {
    const inst = parseEsicup(fs.readFileSync(path.join(BENCH, 'jakobs1.json'), 'utf8'));
    const plain = nestEsicup(inst, { timeLimitMs: 60_000, maxEvaluations: 2, cellsAcross: 120 });
    const compacted = nestEsicup(inst, { timeLimitMs: 60_000, maxEvaluations: 2, cellsAcross: 120, compactMoves: 3000, overlap: 'poles' });
    expect(checkEsicupSolution(inst, compacted).errors).toEqual([]);
    expect(compacted.length).toBeLessThan(plain.length);
  });
});

describe('poles', () => {
  it('puts the first pole of a square at its centre, and measures deeper overlap as larger', () => {
    const m = emptyMask(20, 20);
    markRect(m, 0, 0, 20, 20);
    m.area = 400;
    const p = polesOf(m);
    // a cell's centre next to the square's
    expect(Math.abs(p.x[0] - 10)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(p.y[0] - 10)).toBeLessThanOrEqual(0.5);
    expect(p.r[0]).toBeGreaterThan(8.5);
    expect(p.r[0]).toBeLessThanOrEqual(10);
    // no pole reaches outside the square
    for (let i = 0; i < p.n; i++) {
      expect(p.x[i] - p.r[i]).toBeGreaterThanOrEqual(-1e-9);
      expect(p.x[i] + p.r[i]).toBeLessThanOrEqual(20 + 1e-9);
    }
    const depth = [19, 15, 10, 5, 0].map((dx) => poleOverlap(p, 0, 0, p, dx, 0, 0));
    for (let k = 1; k < depth.length; k++) expect(depth[k]).toBeGreaterThan(depth[k - 1]);
  });

  it('measures columns wider than rows in rows', () => {
    const m = emptyMask(10, 40);
    markRect(m, 0, 0, 10, 40);
    m.area = 400;
    // ten columns four rows wide each: a 40 × 40 square in rows
    const p = polesOf(m, 4);
    expect(p.x[0]).toBeCloseTo(20, -1);
    expect(p.y[0]).toBeCloseTo(20, -1);
    expect(p.r[0]).toBeGreaterThan(15);
  });
});

describe('overlap compaction from a layout that overlaps (reseat)', () => {
  // four 4 x 4 squares (no gap) in a strip 8 wide: a column of 16 rows, and the 2 x 2 square
  // of 8 rows with the last square pushed 2 cells into its neighbour
  const k = 4;
  const m = emptyMask(k, k);
  markRect(m, 0, 0, k, k);
  m.area = k * k;
  const s0 = shiftRows(m.bits, m.words, m.h);
  const shapes: CompactShape[][] = [[{ w: k, h: k, sw: s0.sw, shifted: s0.shifted, lo: s0.lo, hi: s0.hi, pad: 0, dw: k, dh: k, dsw: s0.sw, dshifted: s0.shifted, dlo: s0.lo, dhi: s0.hi }]];
  const column = [0, 1, 2, 3].map((i) => ({ type: 0, orientation: 0, x: 0, y: 4 * i }));
  const pushed = [
    { type: 0, orientation: 0, x: 0, y: 0 },
    { type: 0, orientation: 0, x: 4, y: 0 },
    { type: 0, orientation: 0, x: 0, y: 4 },
    { type: 0, orientation: 0, x: 2, y: 4 },
  ];
  const free = (ps: readonly { x: number; y: number }[]) => ps.every((p, i) => ps.slice(0, i).every((q) => gapOverlap(shapes[0][0], p.x, p.y, shapes[0][0], q.x, q.y) === 0));

  it('separates it first and goes on from it when that is shorter; one move does not get there from the column', () => {
    const opts = { width: 8, deadline: Infinity, maxMoves: 1, firstStep: 0.03 };
    const plain = compactStrip(shapes, column, { ...opts, rng: new Rng(1) });
    expect(plain.rows).toBeGreaterThan(8);
    const res = compactStrip(shapes, column, { ...opts, rng: new Rng(1), reseat: { pieces: pushed, rows: 8, until: Infinity } });
    expect(res.rows).toBe(8);
    expect(free(res.pieces)).toBe(true);
  });

  it('a fixed piece stays where the start has it, wherever the reseat puts it; a reseat no shorter than the start is ignored', () => {
    const start = [...column.slice(0, 3), { type: 0, orientation: 0, x: 4, y: 0 }];
    const fixed = [false, false, false, true];
    const res = compactStrip(shapes, start, { width: 8, deadline: Infinity, maxMoves: 40, rng: new Rng(2), fixed, reseat: { pieces: pushed, rows: 8, until: Infinity } });
    expect(res.pieces[3]).toEqual(start[3]);
    expect(res.rows).toBe(8);
    expect(free(res.pieces)).toBe(true);
    const same = compactStrip(shapes, column, { width: 8, deadline: Infinity, maxMoves: 0, rng: new Rng(1), reseat: { pieces: pushed, rows: 16, until: Infinity } });
    expect(same.pieces).toEqual(column);
  });
});

describe('settle', () => {
  it('lets copies slide towards the start while they keep the gap, never further apart', () => {
    const rng = new Rng(5);
    for (let trial = 0; trial < 40; trial++) {
      const shapes = [0, 1, 2].map(() => [randomShape(rng, rng.int(3)).shape]);
      const W = 120;
      // a feasible layout: copies dropped one by one on rows far apart
      const pieces = Array.from({ length: 6 }, (_, i) => {
        const t = rng.int(3);
        return { type: t, orientation: 0, x: rng.int(W - shapes[t][0].w + 1), y: 40 * i + rng.int(10) };
      });
      const before = usedRows(shapes, pieces);
      settle(shapes, pieces, W);
      expect(usedRows(shapes, pieces)).toBeLessThanOrEqual(before);
      for (let i = 0; i < pieces.length; i++) {
        const a = pieces[i];
        expect(a.x).toBeGreaterThanOrEqual(0);
        expect(a.y).toBeGreaterThanOrEqual(0);
        expect(a.x + shapes[a.type][0].w).toBeLessThanOrEqual(W);
        for (let j = 0; j < i; j++) {
          const b = pieces[j];
          expect(gapOverlap(shapes[a.type][0], a.x, a.y, shapes[b.type][0], b.x, b.y)).toBe(0);
        }
      }
      // the nearest copy has nothing before it: it lies on the start
      expect(Math.min(...pieces.map((p) => p.y))).toBe(0);
    }
  });
});
