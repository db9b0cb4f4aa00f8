import { emptyMask, markRect, CellMask } from './cells';
import { NestType, prepare } from './grid';
import { NestConfig, overLayout } from './nest';

/** A k × k square of cells, not grown (pad 0). */
function squareMask(k: number): CellMask {
  const m = emptyMask(k, k);
  markRect(m, 0, 0, k, k);
  m.area = k * k;
  return m;
}

describe('re-nesting around fixed copies: the layout laid over them (overLayout)', () => {
  // seven 4 x 4 squares in a strip 8 wide, laid out two a row, and one fixed square at (4, 4),
  // where the unpinned layout has a copy
  const sq = { rotation: 0, mask: squareMask(4), dil: squareMask(4), pad: 0 };
  const copies = [0, 0, 0, 0, 0, 0, 0];
  const order = copies.map((_, i) => i);
  const layout = (types: NestType[]) => {
    const prepared = types.map((t) => t.orientations.map(prepare));
    const cfg: NestConfig = { width: 8, maxRows: Infinity, timeLimitMs: 1000, fixed: [{ type: 1, sheet: 0, x: 4, y: 4 }] };
    return overLayout(prepared, copies, cfg, order, 'far')!;
  };
  const at = (r: ReturnType<typeof layout>, copy: number) => r.placements.find((p) => p.copy === copy)!;

  it('every copy once, the fixed copy where it stands; the copy of its design nearest it takes its spot at the far end', () => {
    // a fixed copy on the cell grid is its design's orientation itself
    const r = layout([{ orientations: [sq] }, { orientations: [sq] }]);
    expect(r.placements.map((p) => p.copy).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(at(r, 7)).toMatchObject({ x: 4, y: 4 });
    // copy 3 stood at (4, 4): it goes to (4, 12), where the fill put the fixed copy's own
    expect(at(r, 3)).toMatchObject({ x: 4, y: 12 });
    const boxes = r.placements.map((p) => `${p.x},${p.y}`);
    expect(new Set(boxes).size).toBe(8);
    expect(r.rows).toBe(16);
  });

  it('a fixed copy off the grid (its own cells) swaps with no copy: the one under it stays, to be separated', () => {
    const r = layout([{ orientations: [sq] }, { orientations: [{ ...sq }] }]);
    expect(at(r, 3)).toMatchObject({ x: 4, y: 4 });
    expect(at(r, 7)).toMatchObject({ x: 4, y: 4 });
    // the fixed copy's own spot at the far end is left out
    expect(r.rows).toBe(16);
    expect(r.placements.some((p) => p.y === 12 && p.x === 4)).toBe(false);
  });

  it('nothing without fixed copies, nor on sheets of a maximum length', () => {
    const types: NestType[] = [{ orientations: [sq] }, { orientations: [sq] }];
    const prepared = types.map((t) => t.orientations.map(prepare));
    expect(overLayout(prepared, copies, { width: 8, maxRows: Infinity, timeLimitMs: 1000 }, order, 'far')).toBeUndefined();
    expect(overLayout(prepared, copies, { width: 8, maxRows: 40, timeLimitMs: 1000, fixed: [{ type: 1, sheet: 0, x: 4, y: 4 }] }, order, 'far')).toBeUndefined();
  });
});
