import { alphaMask, layoutSheets } from '../gangsheet';
import { checkLayout, effectiveNesting, footprintBox, LayoutCopy, LayoutSettings } from './print-layout';

/** A disc's ink mask over a size × size trim box. */
function discMask(size: number) {
  const alpha = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (Math.hypot(x + 0.5 - size / 2, y + 0.5 - size / 2) <= size / 2) alpha[y * size + x] = 255;
  return alphaMask(alpha, size, { left: 0, top: 0, width: size, height: size });
}

describe('edited layout check', () => {
  const trim = { left: 0, top: 0, width: 200, height: 200 };
  const disc = { id: 'disc', trim, width: 2, quantity: 2, mask: discMask(200) };
  const box = { id: 'disc', trim, width: 2, quantity: 2 };
  const s: LayoutSettings = { width: 10, maxLength: 20, gap: 0.25, margin: 0.25, dpi: 100, rotate: true, nesting: 'shape' };
  const at = (copy: number, x: number, y: number): LayoutCopy => ({ itemId: 'disc', copy, sheet: 0, x, y, rotation: 0, pinned: false });

  it('accepts two discs whose boxes overlap at a corner but whose ink keeps the gap (shape), refuses them as boxes', () => {
    // diagonal neighbours: boxes overlap by 0.3 in each way, the discs' edges are ~0.4 in apart
    const copies = [at(0, 1, 1), at(1, 2.7, 2.7)];
    expect(effectiveNesting([disc], s, copies)).toBe('shape');
    expect(checkLayout([disc], s, copies, { disc: 'Disc' })).toEqual([]);
    const asBoxes = checkLayout([box], { ...s, nesting: 'box' }, copies, { disc: 'Disc' });
    expect(asBoxes.map((p) => p.code)).toEqual(['too_close']);
    expect(asBoxes[0].message).toMatch(/copy 1 of "Disc" and copy 2 of "Disc" are closer than the 0.25 in gap|copy 2 of "Disc" and copy 1 of "Disc"/);
  });

  it('refuses discs whose ink comes closer than the gap, naming both copies', () => {
    const problems = checkLayout([disc], s, [at(0, 1, 1), at(1, 3.1, 1)], { disc: 'Disc' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'too_close', copies: expect.arrayContaining([{ itemId: 'disc', copy: 0 }, { itemId: 'disc', copy: 1 }]) });
  });

  it('names missing, duplicate and out-of-bounds copies', () => {
    expect(checkLayout([disc], s, [at(0, 1, 1)]).map((p) => p.code)).toEqual(['missing_copy']);
    expect(checkLayout([disc], s, [at(0, 1, 1), at(0, 5, 5)]).map((p) => p.code)).toEqual(['duplicate_copy', 'missing_copy']);
    expect(checkLayout([disc], s, [at(0, 0.1, 1), at(1, 5, 18.5)]).map((p) => p.code)).toEqual(['outside_margins', 'beyond_length']);
  });

  describe('with order labels', () => {
    const label = { width: 1, height: 0.12, offset: 0.04 };
    const card = { id: 'card', trim, width: 2, quantity: 2, label };

    it('keeps each label space inside the margins and a gap away from other copies', () => {
      // the art boxes keep the gap (0.3 in apart vertically) but the first copy's label lies between them
      const stacked = [
        { itemId: 'card', copy: 0, sheet: 0, x: 1, y: 1, rotation: 0 as const, pinned: false },
        { itemId: 'card', copy: 1, sheet: 0, x: 1, y: 3.3, rotation: 0 as const, pinned: false },
      ];
      expect(checkLayout([{ ...card, label: undefined }], { ...s, nesting: 'box' }, stacked)).toEqual([]);
      expect(checkLayout([card], { ...s, nesting: 'box' }, stacked).map((p) => p.code)).toEqual(['too_close']);
      // a label below the last row must stay above the bottom margin
      expect(footprintBox(card, { x: 1, y: 1, rotation: 0 }, 100)).toEqual({ x: 100, y: 100, w: 200, h: 216 });
      expect(footprintBox(card, { x: 1, y: 1, rotation: 90 }, 100)).toEqual({ x: 84, y: 100, w: 216, h: 200 });
    });

    it("accepts the engine's own labelled layout as a saved layout (box and shape)", () => {
      for (const nesting of ['box', 'shape'] as const) {
        const d = { ...card, quantity: 5, mask: nesting === 'shape' ? discMask(200) : undefined };
        const layout = layoutSheets([{ id: 'card', widthPx: 200, heightPx: 200, width: 2, quantity: 5, label, mask: d.mask }], { ...s, nesting }, { maxEvaluations: 10 });
        const copies = layout.sheets.flatMap((sh) => sh.placements.map((p) => ({ itemId: 'card', copy: p.copy, sheet: sh.index, x: p.x, y: p.y, rotation: p.rotation ?? 0, pinned: false })));
        expect(checkLayout([d], { ...s, nesting }, copies)).toEqual([]);
      }
    });
  });
});
