/**
 * ESICUP polygon instances on the nester: their cells, and whole nests checked with exact
 * polygon clipping (the instances from the shared bench-data folder).
 */
import * as fs from 'fs';
import * as path from 'path';
import { checkEsicupSolution } from '../../../bench/nest-check';
import { Rng } from '../pack/rng';
import { getCell } from './cells';
import { alignedCells, nestEsicup, parseEsicup, Point, rasterizePolygon, searchCells } from './esicup';
import { nestEsicupParallel, SEED_STRIDE } from './esicup-parallel';

const BENCH = path.resolve(__dirname, '../../../../../shared/bench-data/irregular');

describe('polygon cells', () => {
  const inside = (pts: readonly Point[], x: number, y: number) => {
    let odd = false;
    for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
      const [x1, y1] = pts[j];
      const [x2, y2] = pts[i];
      if (y1 > y !== y2 > y && x < x1 + ((y - y1) * (x2 - x1)) / (y2 - y1)) odd = !odd;
    }
    return odd;
  };

  it('marks every cell the polygon covers any of, on random star-shaped polygons', () => {
    const rng = new Rng(5);
    for (let k = 0; k < 30; k++) {
      const n = 3 + rng.int(9);
      const pts: Point[] = Array.from({ length: n }, (_, i) => {
        const a = (2 * Math.PI * (i + rng.next() * 0.8)) / n;
        const r = 2 + rng.next() * 5;
        return [7 + r * Math.cos(a), 7 + r * Math.sin(a)];
      });
      const m = rasterizePolygon(pts, 14, 14);
      // 16 × 16 sample points inside each cell: any inside the polygon needs the cell set
      for (let cy = 0; cy < 14; cy++)
        for (let cx = 0; cx < 14; cx++) {
          let hit = false;
          for (let i = 0; i < 16 && !hit; i++) for (let j = 0; j < 16 && !hit; j++) hit = inside(pts, cx + (i + 0.5) / 16, cy + (j + 0.5) / 16);
          if (hit) expect(getCell(m, cx, cy)).toBe(true);
        }
    }
  });

  it('edges on cell borders mark nothing outside: an aligned L and a 45° triangle', () => {
    const l = rasterizePolygon([[0, 0], [3, 0], [3, 1], [1, 1], [1, 3], [0, 3]], 3, 3);
    expect(l.area).toBe(5);
    // the hypotenuse runs through cell corners: the 3 cells it halves and the 3 wholly inside
    const t = rasterizePolygon([[0, 0], [3, 0], [0, 3]], 3, 3);
    expect(t.area).toBe(6);
  });

  it('aligns the grid with whole coordinates when it can', () => {
    const square = (side: number) => ({ id: 0, demand: 1, shape: { type: 'simple_polygon', data: [[0, 0], [side, 0], [side, side], [0, side], [0, 0]] as Point[] } });
    expect(alignedCells({ strip_height: 40.004, items: [square(2)] }, 320)).toEqual({ across: 320, scale: 8 });
    expect(alignedCells({ strip_height: 40.004, items: [{ ...square(2), shape: { type: 'simple_polygon', data: [[0, 0], [1.5, 0], [0, 1]] } }] }, 320).scale).toBeCloseTo(320 / 40.004, 9);
  });
  it('searches on the coarse grid only where its cells cover the polygons within 2 %', () => {
    const load = (name: string) => parseEsicup(fs.readFileSync(path.join(BENCH, `${name}.json`), 'utf8'));
    expect(searchCells(load('shapes0'))).toBe(160);
    expect(searchCells(load('jakobs1'))).toBe(160);
    expect(searchCells(load('albano'))).toBe(320);
  });
});

describe('ESICUP nesting (checked with exact polygon clipping)', () => {
  it.each(['jakobs1', 'shapes0', 'albano'])('%s: every copy once, inside the strip, no overlaps', (name) => {
    const inst = parseEsicup(fs.readFileSync(path.join(BENCH, `${name}.json`), 'utf8'));
    const sol = nestEsicup(inst, { timeLimitMs: 60_000, maxEvaluations: 3, cellsAcross: 160 });
    const chk = checkEsicupSolution(inst, sol);
    expect(chk.errors).toEqual([]);
    expect(chk.density).toBeGreaterThan(0.5);
  });

  it('two searches on two threads: the shorter of the two seeds, checked', async () => {
    const inst = parseEsicup(fs.readFileSync(path.join(BENCH, 'shapes0.json'), 'utf8'));
    const opts = { timeLimitMs: 60_000, maxEvaluations: 2, cellsAcross: 120 };
    const both = await nestEsicupParallel(inst, { ...opts, threads: 2 });
    const first = nestEsicup(inst, { ...opts, seed: 1 });
    const second = nestEsicup(inst, { ...opts, seed: 1 + SEED_STRIDE });
    expect(both.length).toBe(Math.min(first.length, second.length));
    expect(checkEsicupSolution(inst, both).errors).toEqual([]);
  });

  it('two threads racing on one strip: a checked layout; counted, the race is the one-thread search', async () => {
    const inst = parseEsicup(fs.readFileSync(path.join(BENCH, 'jakobs1.json'), 'utf8'));
    // timed: the search's compaction (4.8 s) and the refinement (3.2 s) both race
    const raced = await nestEsicupParallel(inst, { timeLimitMs: 8000, cellsAcross: 120, threads: 2, race: true });
    const chk = checkEsicupSolution(inst, raced);
    expect(chk.errors).toEqual([]);
    expect(chk.density).toBeGreaterThan(0.6);
    // counted runs never race (they stay reproducible): the same strip as one thread's
    const opts = { timeLimitMs: 60_000, maxEvaluations: 2, cellsAcross: 120 };
    const counted = await nestEsicupParallel(inst, { ...opts, threads: 2, race: true });
    expect(counted).toEqual(nestEsicup(inst, { ...opts, seed: 1 }));
  }, 30_000);

  it('the polygon checker catches an overlap, a copy outside the strip and a missing copy', () => {
    const inst = parseEsicup(fs.readFileSync(path.join(BENCH, 'jakobs1.json'), 'utf8'));
    const sol = nestEsicup(inst, { timeLimitMs: 60_000, maxEvaluations: 1, cellsAcross: 160 });
    const a = sol.placements[0];
    const b = sol.placements[1];
    const moved = { ...sol, placements: sol.placements.map((p, i) => (i === 1 ? { ...p, x: a.x, y: a.y, rotation: a.rotation } : p)) };
    if (a.item !== b.item) expect(checkEsicupSolution(inst, { ...moved, placements: moved.placements.map((p, i) => (i === 1 ? { ...p, item: a.item } : p)) }).errors.join()).toMatch(/overlap/);
    expect(checkEsicupSolution(inst, { ...sol, placements: sol.placements.map((p, i) => (i === 0 ? { ...p, y: -1 } : p)) }).errors.join()).toMatch(/leaves the strip/);
    expect(checkEsicupSolution(inst, { ...sol, placements: sol.placements.slice(1) }).errors.join()).toMatch(/demanded/);
  });
});
