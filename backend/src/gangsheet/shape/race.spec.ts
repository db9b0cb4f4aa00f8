import { Rng } from '../pack/rng';
import { compactSheet } from './compact-sheet';
import { emptyMask, markRect, CellMask } from './cells';
import { NestType } from './grid';
import { nestSheets } from './nest';
import { raceHelper } from './race-helper';
import { CompactPiece, CompactShape, gapOverlap, shiftRows, usedRows } from './cell-overlap';
import { compactStrip } from './overlap';
import { SharedStrip } from './race';

/** A k × k square of cells, not grown (pad 0): pieces touch but may not overlap. */
function squareMask(k: number): CellMask {
  const m = emptyMask(k, k);
  markRect(m, 0, 0, k, k);
  m.area = k * k;
  return m;
}

function compactSquare(k: number): CompactShape {
  const m = squareMask(k);
  const s = shiftRows(m.bits, m.words, m.h);
  return { w: k, h: k, sw: s.sw, shifted: s.shifted, lo: s.lo, hi: s.hi, pad: 0, dw: k, dh: k, dsw: s.sw, dshifted: s.shifted, dlo: s.lo, dhi: s.hi };
}

/** Four 4 × 4 squares in a strip 8 wide, stacked in one column: 16 rows where 8 would do. */
const shapes = [[compactSquare(4)]];
const column: CompactPiece[] = [0, 1, 2, 3].map((i) => ({ type: 0, orientation: 0, x: 0, y: 4 * i }));
const square: CompactPiece[] = [
  { type: 0, orientation: 0, x: 0, y: 0 },
  { type: 0, orientation: 0, x: 4, y: 0 },
  { type: 0, orientation: 0, x: 0, y: 4 },
  { type: 0, orientation: 0, x: 4, y: 4 },
];

function overlapFree(pieces: readonly CompactPiece[]): boolean {
  const s = shapes[0][0];
  return pieces.every((p, i) => pieces.slice(0, i).every((q) => gapOverlap(s, p.x, p.y, s, q.x, q.y) === 0));
}

describe('racing threads on one strip (SharedStrip)', () => {
  it('keeps only a shorter layout, hands each new one out once, and stops', () => {
    const mine = SharedStrip.create(4);
    const other = new SharedStrip(mine.buffer);
    expect(mine.best()).toBeNull();
    other.publish(column, 16);
    expect(mine.rows()).toBe(16);
    expect(mine.take(20)).toEqual({ pieces: column, rows: 16 });
    // taken once; and never when it is not shorter than what the taker has
    expect(mine.take(20)).toBeNull();
    other.publish(column, 18);
    expect(mine.rows()).toBe(16);
    other.publish(square, 8);
    expect(mine.take(8)).toBeNull();
    expect(mine.take(16)).toEqual({ pieces: square, rows: 8 });
    // a thread does not take back what it published itself
    mine.publish(square.map((p) => ({ ...p, y: p.y })), 7);
    expect(mine.take(8)).toBeNull();
    expect(other.take(8)?.rows).toBe(7);
    expect(mine.over()).toBe(false);
    other.stop();
    expect(mine.over()).toBe(true);
    // a stopped race does not wait for a start
    const t0 = Date.now();
    SharedStrip.create(1).waitForStart(0);
    mine.waitForStart(5000);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('the compaction takes a shorter strip another thread found and shares its own successes', () => {
    // another thread already has the 2 x 2 square: the compaction continues from it
    const race = SharedStrip.create(4);
    new SharedStrip(race.buffer).publish(square, 8);
    const taken = compactStrip(shapes, column, { width: 8, deadline: Infinity, maxMoves: 1, rng: new Rng(1), race });
    expect(taken.rows).toBe(8);
    expect(taken.pieces).toEqual(square);

    // alone in the race, its shorter strips are published as it finds them
    const solo = SharedStrip.create(4);
    solo.publish(column, 16);
    const res = compactStrip(shapes, column, { width: 8, deadline: Infinity, maxMoves: 2000, rng: new Rng(1), firstStep: 0.25, race: solo });
    expect(res.rows).toBeLessThan(16);
    expect(solo.rows()).toBe(res.rows);
    expect(overlapFree(solo.best()!.pieces)).toBe(true);
    expect(usedRows(shapes, solo.best()!.pieces)).toBe(res.rows);

    // a shared strip of other copies is not this strip: the compaction goes on alone
    const foreign = SharedStrip.create(4);
    new SharedStrip(foreign.buffer).publish(square.slice(0, 3), 4);
    const alone = compactStrip(shapes, column, { width: 8, deadline: Infinity, maxMoves: 2000, rng: new Rng(1), firstStep: 0.25, race: foreign });
    expect(alone.pieces).toHaveLength(4);
    expect(alone.rows).toBe(res.rows);
    expect(overlapFree(alone.pieces)).toBe(true);
  });

  it('a helper lays out the order itself, publishes it and compacts it until the race ends (run here in-process)', () => {
    const types: NestType[] = [{ orientations: [{ rotation: 0, mask: squareMask(4), dil: squareMask(4), pad: 0 }] }];
    const race = SharedStrip.create(6);
    const now = Date.now();
    raceHelper({ types, copies: [0, 0, 0, 0, 0, 0], maxRows: Infinity, searchEndAt: now + 200, buffer: race.buffer, width: 10, seed: 3, endAt: now + 600 });
    const best = race.best()!;
    // six 4 x 4 squares in a strip 10 wide: two rows of three would need 12 across, so 3 rows
    expect(best.pieces).toHaveLength(6);
    expect(best.rows).toBe(12);
    expect(overlapFree(best.pieces)).toBe(true);
    expect(best.pieces.every((p) => p.x >= 0 && p.x + 4 <= 10 && p.y >= 0)).toBe(true);
  });

  it('a helper lays out and compacts around fixed copies without moving them (run here in-process)', () => {
    // type 1 is a fixed copy's own type (a 4 x 4 square too), in the middle of the strip's start
    const sq = { rotation: 0, mask: squareMask(4), dil: squareMask(4), pad: 0 };
    const types: NestType[] = [{ orientations: [sq] }, { orientations: [{ ...sq }] }];
    const race = SharedStrip.create(6);
    const now = Date.now();
    const fixed = [{ type: 1, sheet: 0, x: 3, y: 0 }];
    raceHelper({ types, copies: [0, 0, 0, 0, 0], maxRows: Infinity, searchEndAt: now + 200, buffer: race.buffer, width: 10, seed: 3, endAt: now + 600, fixed });
    const best = race.best()!;
    // the copies in their order, then the fixed one, exactly where it was given
    expect(best.pieces.map((p) => p.type)).toEqual([0, 0, 0, 0, 0, 1]);
    expect(best.pieces[5]).toMatchObject({ x: 3, y: 0 });
    expect(overlapFree(best.pieces)).toBe(true);
    expect(best.pieces.every((p) => p.x >= 0 && p.x + 4 <= 10 && p.y >= 0)).toBe(true);
  });

  it('threads race on a layout around fixed copies, which stay exactly where they were given', () => {
    const sq = { rotation: 0, mask: squareMask(4), dil: squareMask(4), pad: 0 };
    const types: NestType[] = [{ orientations: [sq] }, { orientations: [{ ...sq }] }];
    const copies = Array.from({ length: 9 }, () => 0);
    const fixed = [
      { type: 1, sheet: 0, x: 3, y: 2 },
      { type: 1, sheet: 0, x: 1, y: 9 },
    ];
    const res = nestSheets(types, copies, { width: 10, maxRows: Infinity, timeLimitMs: 3500, compactShare: 0.5, threads: 2, fixed, seed: 5 });
    const ps = res.sheets[0].placements;
    expect(ps).toHaveLength(11);
    expect(ps.filter((p) => p.copy >= copies.length).map((p) => [p.copy, p.x, p.y])).toEqual([
      [9, 3, 2],
      [10, 1, 9],
    ]);
    expect(new Set(ps.map((p) => p.copy)).size).toBe(11);
    expect(overlapFree(ps.map((p) => ({ type: 0, orientation: 0, x: p.x, y: p.y })))).toBe(true);
    expect(ps.every((p) => p.x >= 0 && p.x + 4 <= 10 && p.y >= 0 && p.y + 4 <= res.sheets[0].rows)).toBe(true);
  });

  it("a refinement (compactSheet) on a race publishes its sheet as the start and returns the shorter strip another thread found", () => {
    const types: NestType[] = [{ orientations: [{ rotation: 0, mask: squareMask(4), dil: squareMask(4), pad: 0 }] }];
    const race = SharedStrip.create(4);
    const other = new SharedStrip(race.buffer);
    // the other thread has the 2 x 2 square (8 rows); this one starts from the column (16)
    other.publish(square, 8);
    const sheet = { rows: 16, placements: column.map((p, i) => ({ copy: i, orientation: 0, x: p.x, y: p.y })) };
    const res = compactSheet(types, [0, 0, 0, 0], sheet, { width: 8, compactMoves: 1, race }, Infinity)!;
    expect(res.rows).toBe(8);
    expect(res.placements.map((p) => ({ x: p.x, y: p.y }))).toEqual(square.map((p) => ({ x: p.x, y: p.y })));
    // the race is over once the refinement returns
    expect(other.over()).toBe(true);

    // alone on a race, the column is published as the start for the helpers
    const solo = SharedStrip.create(4);
    compactSheet(types, [0, 0, 0, 0], sheet, { width: 8, compactMoves: 1, race: solo }, Infinity);
    expect(solo.best()!.pieces.length).toBe(4);
    expect(solo.rows()).toBeLessThanOrEqual(16);
  });

  it('counts a helper as searching until it says it is done', () => {
    const race = SharedStrip.create(4, 2);
    const helper = new SharedStrip(race.buffer);
    expect(race.searching()).toBe(true);
    helper.searchDone(2);
    expect(race.searching()).toBe(true);
    helper.searchDone(1);
    helper.searchDone(1);
    expect(race.searching()).toBe(false);
    expect(SharedStrip.create(4).searching()).toBe(false);
  });
});

describe('convergence', () => {
  // a 2 x 2 square of 4 x 4 squares in a strip 8 wide: no shorter strip exists, every attempt fails
  const patience = { minMs: 100, share: 1, failures: 2 };

  it('a converging compaction stops once its attempts fail and nothing was found for a while, not at its deadline', () => {
    const t0 = performance.now();
    const res = compactStrip(shapes, square, { width: 8, deadline: t0 + 15000, rng: new Rng(1), firstStep: 0.25, converge: patience });
    expect(res.rows).toBe(8);
    expect(res.attempts).toBeGreaterThanOrEqual(2);
    expect(performance.now() - t0).toBeLessThan(14000);
  });

  it('while a racing helper may still publish its own search, it goes on (to its deadline here)', () => {
    const race = SharedStrip.create(4, 1);
    const t0 = performance.now();
    compactStrip(shapes, square, { width: 8, deadline: t0 + 1200, rng: new Rng(1), firstStep: 0.25, converge: patience, race });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1190);
  });

  it('a converging layout ends long before its time limit when no shorter one turns up', () => {
    // six 4 x 4 squares in a strip 10 wide: 3 rows of two (12 rows) is the shortest there is
    const types: NestType[] = [{ orientations: [{ rotation: 0, mask: squareMask(4), dil: squareMask(4), pad: 0 }] }];
    const t0 = performance.now();
    const res = nestSheets(types, [0, 0, 0, 0, 0, 0], { width: 10, maxRows: Infinity, timeLimitMs: 20000, compactShare: 0.5, converge: true });
    expect(res.sheets[0].rows).toBe(12);
    // the search stops after 30 evaluations and 1 s without a gain, the compaction after 3 s
    // (0.15 of the limit) without a shorter strip
    expect(performance.now() - t0).toBeLessThan(10000);
    // and says so
    expect(res.converged).toBe(true);
    expect(res.elapsedMs).toBeLessThan(10000);
  });

  it('converge: false runs to the time limit, and says it did not converge', () => {
    const types: NestType[] = [{ orientations: [{ rotation: 0, mask: squareMask(4), dil: squareMask(4), pad: 0 }] }];
    const res = nestSheets(types, [0, 0, 0, 0, 0, 0], { width: 10, maxRows: Infinity, timeLimitMs: 2500, compactShare: 0.5, converge: false });
    expect(res.sheets[0].rows).toBe(12);
    expect(res.converged).toBe(false);
    expect(res.elapsedMs).toBeGreaterThanOrEqual(2500);
  });

  it('counted runs never converge (they stay reproducible)', () => {
    const types: NestType[] = [{ orientations: [{ rotation: 0, mask: squareMask(4), dil: squareMask(4), pad: 0 }] }];
    const res = nestSheets(types, [0, 0, 0, 0, 0, 0], { width: 10, maxRows: Infinity, timeLimitMs: 60000, maxEvaluations: 40, converge: true });
    expect(res.converged).toBe(false);
    expect(res.evaluations).toBeGreaterThanOrEqual(40);
  });
});
