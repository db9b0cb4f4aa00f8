import fc from 'fast-check';
import { MaxRectsEvaluator } from './maxrects';
import { packStrip } from './search';
import { findLayoutProblems } from './validate';

const pieceArb = fc.record({ w: fc.integer({ min: 1, max: 30 }), h: fc.integer({ min: 1, max: 30 }) });

describe('MaxRectsEvaluator', () => {
  it('places pieces inside the container without overlap, in every rule and mode', () => {
    fc.assert(
      fc.property(
        fc.array(pieceArb, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 30, max: 60 }),
        fc.integer({ min: 10, max: 200 }),
        fc.constantFrom(0 as const, 1 as const, 2 as const),
        fc.boolean(),
        fc.boolean(),
        (pieces, W, H, rule, grow, rotate) => {
          const mr = new MaxRectsEvaluator(pieces, W, rotate);
          const seq = Int32Array.from(pieces.keys());
          const r = mr.evaluate(seq, H, rule, true, false, grow);
          const rects = pieces.flatMap((p, i) => (mr.placed[i] ? [{ x: mr.px[i], y: mr.py[i], w: mr.prot[i] ? p.h : p.w, h: mr.prot[i] ? p.w : p.h }] : []));
          expect(rects.length).toBe(r.packedCount);
          expect(findLayoutProblems(rects, W, H)).toEqual([]);
          if (!rotate) expect(mr.prot.every((v) => v === 0)).toBe(true);
          expect(r.height).toBe(rects.reduce((m, q) => Math.max(m, q.y + q.h), 0));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('places exactly as with a full prune after every split (only new rectangles are checked)', () => {
    fc.assert(
      fc.property(
        fc.array(pieceArb, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 30, max: 60 }),
        fc.integer({ min: 10, max: 200 }),
        fc.constantFrom(0 as const, 1 as const, 2 as const),
        fc.boolean(),
        (pieces, W, H, rule, grow) => {
          const fast = new MaxRectsEvaluator(pieces, W, true);
          const full = new MaxRectsEvaluator(pieces, W, true);
          // the reference checks every free rectangle against every other
          const prune = (full as any).prune.bind(full);
          (full as any).prune = () => prune(0);
          const seq = Int32Array.from(pieces.keys());
          expect(fast.evaluate(seq, H, rule, true, false, grow)).toEqual(full.evaluate(seq, H, rule, true, false, grow));
          expect([...fast.px, ...fast.py, ...fast.prot, ...fast.placed]).toEqual([...full.px, ...full.py, ...full.prot, ...full.placed]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('fills the column beside a taller piece', () => {
    // 10 wide: a 6 x 10 piece, then five 4 x 2 pieces, stacked in the 4 x 10 column beside
    // it, so everything fits a height of 10
    const pieces = [{ w: 6, h: 10 }, ...Array.from({ length: 5 }, () => ({ w: 4, h: 2 }))];
    const mr = new MaxRectsEvaluator(pieces, 10, false);
    for (const grow of [false, true]) expect(mr.evaluate(Int32Array.from(pieces.keys()), 10, 0, false, true, grow).packedCount).toBe(6);
  });
});

describe('packStrip on orders of a few sizes in many copies', () => {
  it('returns a valid layout of every piece (skyline and maximal-rectangle stages)', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ p: pieceArb, q: fc.integer({ min: 4, max: 30 }) }), { minLength: 2, maxLength: 5 }), fc.boolean(), (types, rotate) => {
        const pieces = types.flatMap(({ p, q }) => Array.from({ length: q }, () => p));
        const r = packStrip(pieces, 40, rotate, { timeLimitMs: 10_000, maxEvaluations: 400 });
        const rects = pieces.map((p, i) => ({ x: r.x[i], y: r.y[i], w: r.rotated[i] ? p.h : p.w, h: r.rotated[i] ? p.w : p.h }));
        expect(r.placed.every((v) => v === 1)).toBe(true);
        expect(findLayoutProblems(rects, 40, r.height)).toEqual([]);
        expect(r.height).toBe(rects.reduce((m, q) => Math.max(m, q.y + q.h), 0));
      }),
      { numRuns: 40 },
    );
  });
});
