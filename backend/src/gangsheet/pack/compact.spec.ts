import fc from 'fast-check';
import { compact, CompactRect } from './compact';
import { findLayoutProblems } from './validate';

describe('compact', () => {
  it('pulls a piece left standing against the right edge back next to its row', () => {
    const rects: CompactRect[] = [0, 10, 20, 30, 55].map((x) => ({ x, y: 0, w: 10, h: 10 }));
    compact(rects);
    expect(rects.map((r) => r.x)).toEqual([0, 10, 20, 30, 40]);
  });

  it('lifts pieces into the space above them and never lengthens the layout', () => {
    const rects: CompactRect[] = [
      { x: 0, y: 0, w: 30, h: 10 },
      { x: 30, y: 0, w: 10, h: 20 },
      { x: 0, y: 25, w: 10, h: 10 },
    ];
    compact(rects);
    expect(rects[2]).toMatchObject({ x: 0, y: 10 });
  });

  it('keeps any valid layout valid and no taller (random layouts from a shelf packing)', () => {
    const rectArb = fc.record({ w: fc.integer({ min: 1, max: 40 }), h: fc.integer({ min: 1, max: 40 }), jitter: fc.integer({ min: 0, max: 15 }) });
    fc.assert(
      fc.property(fc.array(rectArb, { minLength: 1, maxLength: 60 }), (input) => {
        const W = 100;
        // Shelves with random slack: valid but loose, so there is something to compact.
        const rects: CompactRect[] = [];
        let x = 0;
        let y = 0;
        let shelf = 0;
        for (const p of input) {
          if (x + p.jitter + p.w > W) {
            x = 0;
            y += shelf + p.jitter;
            shelf = 0;
          }
          rects.push({ x: x + p.jitter, y, w: p.w, h: p.h });
          x += p.jitter + p.w;
          shelf = Math.max(shelf, p.h);
        }
        const before = Math.max(...rects.map((r) => r.y + r.h));
        compact(rects);
        expect(findLayoutProblems(rects, W)).toEqual([]);
        expect(Math.max(...rects.map((r) => r.y + r.h))).toBeLessThanOrEqual(before);
        expect(rects.every((r) => r.x >= 0 && r.y >= 0)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
