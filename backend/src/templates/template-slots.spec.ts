import { placeInSlots, slotsFromCopies, slotsOffSheet, TemplateSlot } from './template-slots';

const slot = (o: Partial<TemplateSlot>): TemplateSlot => ({ sheet: 0, x: 1, y: 1, width: 2, height: 2, rotation: 0, label: null, sizeName: null, sizeValue: null, ...o });

describe('template slots', () => {
  it('orders slots by sheet, top to bottom, left to right; one sheet becomes sheet 0', () => {
    const copies = [slot({ sheet: 1, x: 5, y: 1 }), slot({ sheet: 0, x: 4, y: 3 }), slot({ sheet: 0, x: 1, y: 3 }), slot({ sheet: 1, x: 1, y: 1 })];
    expect(slotsFromCopies(copies).map((s) => [s.sheet, s.x, s.y])).toEqual([[0, 1, 3], [0, 4, 3], [1, 1, 1], [1, 5, 1]]);
    expect(slotsFromCopies(copies, 1).map((s) => [s.sheet, s.x])).toEqual([[0, 1], [0, 5]]);
  });

  it('centres a smaller copy in its slot on whole pixels, turned as the slot', () => {
    const slots = [slot({ x: 1, y: 1, width: 2, height: 1.5 }), slot({ x: 5, y: 1, width: 1, height: 2, rotation: 90 })];
    const { copies, problems } = placeInSlots(slots, [
      { slot: 0, itemId: 'a', copy: 0, width: 1, height: 1, name: 'a' },
      { slot: 1, itemId: 'b', copy: 0, width: 2, height: 0.5, name: 'b' },
    ], 72);
    expect(problems).toEqual([]);
    expect(copies[0]).toMatchObject({ x: 1.5, y: 1.25, rotation: 0, pinned: true });
    // turned: 0.5 x 2 in as placed, centred across the slot's 1 in width
    expect(copies[1]).toMatchObject({ x: 5.25, y: 1, rotation: 90 });
  });

  it('names the slot a larger copy does not fit, allowing a pixel of rounding', () => {
    const slots = [slot({ width: 2, height: 1, label: 'front' })];
    const fit = placeInSlots(slots, [{ slot: 0, itemId: 'a', copy: 0, width: 2 + 1 / 72, height: 1, name: 'a' }], 72);
    expect(fit.problems).toEqual([]);
    const big = placeInSlots(slots, [{ slot: 0, itemId: 'a', copy: 0, width: 2, height: 2, name: 'star' }], 72);
    expect(big.copies).toEqual([]);
    expect(big.problems[0].message).toBe('"star" is 2 × 2 in as placed, larger than slot 1 ("front") (2 × 1 in). Pick a smaller size.');
  });

  it('finds slots off the sheet', () => {
    const slots = [slot({ x: 0.1 }), slot({ x: 1, y: 18.9 }), slot({ x: 7.75 })];
    expect(slotsOffSheet(slots, { width: 10, maxLength: 20, margin: 0.25 }).map((o) => o.index)).toEqual([0, 1]);
  });
});
