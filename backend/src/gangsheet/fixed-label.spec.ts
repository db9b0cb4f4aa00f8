import { FixedPlacement, FixedPlacementError } from './pack/footprint';
import { compareNesting, LayoutDesign, LayoutResult, layoutSheets, Nesting } from './pack/layout';
import { clearanceProblems, distance, rect } from '../../bench/nest-check';
import { alphaMask } from './shape/design-mask';

const DPI = 100;
const SHEET = { width: 12, gap: 0.25, margin: 0.25, dpi: DPI };
const GAP = Math.round(SHEET.gap * DPI);

/** A disc's ink mask (so that true-shape nesting beats rectangles and really nests). */
function discMask(side: number) {
  const alpha = new Uint8Array(side * side);
  const r = side / 2;
  for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) if ((x + 0.5 - r) ** 2 + (y + 0.5 - r) ** 2 <= r * r) alpha[y * side + x] = 255;
  return alphaMask(alpha, side, { left: 0, top: 0, width: side, height: side });
}

const DESIGNS: LayoutDesign[] = [
  { id: 'logo', widthPx: 300, heightPx: 200, width: 3, quantity: 10, label: { width: 1.5, height: 0.3, offset: 0.05 } },
  { id: 'badge', widthPx: 200, heightPx: 200, width: 2, quantity: 8 },
];
const FIXED: FixedPlacement[] = [
  { designId: 'badge', x: 5, y: 1 },
  { designId: 'logo', copy: 3, x: 1, y: 6, rotation: 90 },
];

function fixedAsGiven(layout: LayoutResult): void {
  const fixed = layout.sheets[0].placements.filter((p) => p.fixed);
  expect(fixed.map((p) => [p.designId, p.copy, p.px.x, p.px.y, p.rotation])).toEqual([
    ['badge', 0, 500, 100, 0],
    ['logo', 3, 100, 600, 90],
  ]);
}

describe('fixed placements and label space', () => {
  it.each<Nesting>(['box', 'shape'])('lays %s copies around fixed ones, keeping every label space free, with the fixed copies unchanged', (nesting) => {
    const layout = layoutSheets(DESIGNS, { ...SHEET, nesting }, { maxEvaluations: 40, compactMoves: 50, fixed: FIXED });
    expect(layout.copies).toBe(18);
    expect(layout.sheets.flatMap((s) => s.placements)).toHaveLength(18);
    fixedAsGiven(layout);
    expect(clearanceProblems(layout)).toEqual([]);
    // every copy of the labelled design reports its label space, below the art as turned
    const logos = layout.sheets[0].placements.filter((p) => p.designId === 'logo');
    for (const p of logos) {
      expect(p.label).toMatchObject({ width: p.rotated ? 0.3 : 1.5, height: p.rotated ? 1.5 : 0.3 });
      if (p.rotation === 0) expect(p.label!.px.y).toBe(p.px.y + p.px.height + 5);
    }
    expect(logos.find((p) => p.copy === 3)!.label!.px).toEqual({ x: 65, y: 675, width: 30, height: 150 });
  });

  it('nests true shapes around fixed copies and label spaces (the shape layout, not its rectangle fallback)', () => {
    const designs: LayoutDesign[] = [
      { id: 'disc', widthPx: 120, heightPx: 120, width: 2, quantity: 24, mask: discMask(120), label: { width: 1, height: 0.25 } },
      { id: 'card', widthPx: 200, heightPx: 100, width: 2, quantity: 4 },
    ];
    const fixed: FixedPlacement[] = [{ designId: 'card', x: 4, y: 2 }, { designId: 'disc', copy: 5, x: 8.5, y: 0.5 }];
    const cmp = compareNesting(designs, { ...SHEET, nesting: 'shape' }, { maxEvaluations: 30, compactMoves: 50, fixed });
    // the shape layout is not the box one: some discs' boxes come closer than the gap
    expect(cmp.shape.totalLength).toBeLessThan(cmp.box.totalLength);
    for (const layout of [cmp.shape, cmp.box]) {
      const pinned = layout.sheets[0].placements.filter((p) => p.fixed).map((p) => [p.designId, p.copy, p.px.x, p.px.y]);
      expect(pinned).toEqual([
        ['card', 0, 400, 200],
        ['disc', 5, 850, 50],
      ]);
      expect(clearanceProblems(layout, (id) => id === 'disc')).toEqual([]);
    }
  });

  it('compacts the far end around fixed copies without moving them', () => {
    const designs: LayoutDesign[] = [{ id: 'disc', widthPx: 120, heightPx: 120, width: 1.5, quantity: 30, mask: discMask(120) }];
    const fixed: FixedPlacement[] = [{ designId: 'disc', x: 5.03, y: 1.27 }, { designId: 'disc', copy: 7, x: 0.25, y: 3.9 }];
    const opts = { maxEvaluations: 10, placementRules: ['far' as const], fixed };
    const searched = compareNesting(designs, { ...SHEET, nesting: 'shape' }, opts).shape;
    const compacted = compareNesting(designs, { ...SHEET, nesting: 'shape' }, { ...opts, compactMoves: 600 }).shape;
    expect(compacted.totalLength).toBeLessThan(searched.totalLength);
    for (const layout of [searched, compacted]) {
      expect(layout.sheets[0].placements.filter((p) => p.fixed).map((p) => [p.copy, p.px.x, p.px.y])).toEqual([
        [0, 503, 127],
        [7, 25, 390],
      ]);
      expect(clearanceProblems(layout, () => true)).toEqual([]);
    }
  });

  it('re-nests around copies pinned where a shape layout put them, even where their boxes come closer than the gap', () => {
    const designs: LayoutDesign[] = [{ id: 'disc', widthPx: 120, heightPx: 120, width: 1.5, quantity: 24, mask: discMask(120) }];
    const settings = { ...SHEET, nesting: 'shape' as const };
    const first = compareNesting(designs, settings, { maxEvaluations: 10 }).shape;
    const ps = first.sheets[0].placements;
    // two copies whose boxes are closer than the gap: no rectangle layout can hold them there
    const pair = ps.flatMap((a, i) => ps.slice(0, i).map((b) => [a, b])).find(([a, b]) => distance(rect(a), rect(b)) < GAP)!;
    expect(pair).toBeDefined();
    const fixed = pair.map((p) => ({ designId: p.designId, copy: p.copy, x: p.x, y: p.y, rotation: p.rotation }));
    expect(() => layoutSheets(designs, { ...settings, nesting: 'box' }, { maxEvaluations: 10, fixed })).toThrow(FixedPlacementError);
    const again = compareNesting(designs, settings, { maxEvaluations: 10, compactMoves: 200, fixed });
    const pinned = again.shape.sheets[0].placements.filter((p) => p.fixed);
    const key = (p: (typeof ps)[number]) => [p.copy, p.px.x, p.px.y];
    expect(pinned.map(key).sort((a, b) => a[0] - b[0])).toEqual(pair.map(key).sort((a, b) => a[0] - b[0]));
    expect(again.shape.sheets.flatMap((s) => s.placements)).toHaveLength(24);
    expect(clearanceProblems(again.shape, () => true)).toEqual([]);
    // the rectangle layout (without the pins) still gives the film figures
    expect(again.box.sheets.flatMap((s) => s.placements).some((p) => p.fixed)).toBe(false);
    // layoutSheets, which returns only the layout, makes no such rectangle layout: the same
    // counted shape layout, and every timed layout keeps the pins where they are
    const only = layoutSheets(designs, settings, { maxEvaluations: 10, compactMoves: 200, fixed });
    expect(only.sheets).toEqual(again.shape.sheets);
    const timed = layoutSheets(designs, settings, { timeLimitMs: 400, fixed });
    expect(timed.sheets[0].placements.filter((p) => p.fixed).map(key).sort((a, b) => a[0] - b[0])).toEqual(pair.map(key).sort((a, b) => a[0] - b[0]));
    expect(clearanceProblems(timed, () => true)).toEqual([]);
  });

  it('re-nests by shape around copies pinned where a rectangle layout put them, exactly the gap apart', () => {
    // photos: their ink is their box, so a shape print of them may come out as its rectangle
    // layout; at 300 DPI the gap is not a whole number of the shape search's cells
    const sheet = { width: 22, gap: 0.25, margin: 0.25, dpi: 300, nesting: 'shape' as const };
    const full = new Uint8Array(1200 * 800).fill(255);
    const designs: LayoutDesign[] = [{ id: 'photo', widthPx: 1200, heightPx: 800, width: 4.013, quantity: 12, mask: alphaMask(full, 1200, { left: 0, top: 0, width: 1200, height: 800 }) }];
    const ps = layoutSheets(designs, { ...sheet, nesting: 'box' }, { maxEvaluations: 10 }).sheets[0].placements;
    const gap = Math.round(sheet.gap * sheet.dpi);
    const pairs = ps.flatMap((a, i) => ps.slice(0, i).map((b) => [a, b])).filter(([a, b]) => distance(rect(a), rect(b)) === gap);
    expect(pairs.length).toBeGreaterThan(2);
    const key = (p: (typeof ps)[number]) => [p.copy, p.px.x, p.px.y];
    for (const [i, pair] of pairs.slice(0, 3).entries()) {
      const fixed = pair.map((p) => ({ designId: p.designId, copy: p.copy, x: p.x, y: p.y, rotation: p.rotation }));
      const again = layoutSheets(designs, sheet, i ? { maxEvaluations: 5, compactMoves: 20, fixed } : { timeLimitMs: 300, fixed });
      expect(again.sheets[0].placements.filter((p) => p.fixed).map(key).sort((a, b) => a[0] - b[0])).toEqual(pair.map(key).sort((a, b) => a[0] - b[0]));
      expect(again.sheets.flatMap((s) => s.placements)).toHaveLength(12);
      // the photos' ink is their box: the boxes keep the gap
      expect(clearanceProblems(again)).toEqual([]);
    }
  });

  it('gives the same layouts as before when neither is used', () => {
    const plain = DESIGNS.map(({ label: _label, ...d }) => d);
    for (const nesting of ['box', 'shape'] as const) {
      const a = layoutSheets(plain, { ...SHEET, nesting }, { maxEvaluations: 20 });
      const b = layoutSheets(plain, { ...SHEET, nesting }, { maxEvaluations: 20, fixed: [] });
      expect(b).toEqual(a);
      expect(a.sheets[0].placements.some((p) => 'label' in p || 'fixed' in p)).toBe(false);
    }
  });

  it.each<Nesting>(['box', 'shape'])('refuses %s fixed copies that overlap, come closer than the gap, or leave the sheet', (nesting) => {
    const run = (fixed: FixedPlacement[], extra = {}) => () => layoutSheets(DESIGNS, { ...SHEET, nesting, ...extra }, { maxEvaluations: 5, fixed });
    expect(run([{ designId: 'badge', x: 1, y: 1 }, { designId: 'badge', x: 2, y: 2 }])).toThrow(/fixed copy 1 of "badge" and fixed copy 0 of "badge" overlap or are closer than the gap/);
    // side by side, 0.1 in apart where the gap is 0.25 in
    expect(run([{ designId: 'badge', x: 1, y: 1 }, { designId: 'badge', x: 3.1, y: 1 }])).toThrow(FixedPlacementError);
    expect(run([{ designId: 'badge', x: 11, y: 1 }])).toThrow(/fixed copy 0 of "badge" lies outside the printable area of sheet 0/);
    expect(run([{ designId: 'badge', x: 0.1, y: 1 }])).toThrow(/outside the printable area/);
    // the label space counts: the label below a logo at the sheet's far end would leave it
    expect(run([{ designId: 'logo', x: 1, y: 7.5 }], { maxLength: 10 })).toThrow(/outside the printable area/);
    expect(run([{ designId: 'badge', x: 1, y: 1, sheet: 1 }])).toThrow(/one sheet/);
    expect(run([{ designId: 'nope', x: 1, y: 1 }])).toThrow(/no design "nope"/);
    expect(run([{ designId: 'badge', copy: 8, x: 1, y: 1 }])).toThrow(/8 copies/);
    // 0.25 in apart exactly: allowed
    expect(run([{ designId: 'badge', x: 1, y: 1 }, { designId: 'badge', x: 3.25, y: 1 }])()).toBeDefined();
  });

  it('keeps fixed copies on later sheets and fills every sheet around them', () => {
    const fixed: FixedPlacement[] = [{ designId: 'badge', x: 5, y: 1, sheet: 1 }, { designId: 'badge', copy: 1, x: 0.25, y: 0.25, sheet: 0 }];
    const layout = layoutSheets(DESIGNS, { ...SHEET, maxLength: 6, nesting: 'box' }, { maxEvaluations: 40, fixed });
    expect(layout.sheets.length).toBeGreaterThanOrEqual(2);
    expect(layout.sheets[1].placements.find((p) => p.fixed)).toMatchObject({ designId: 'badge', copy: 0, x: 5, y: 1 });
    expect(layout.sheets[0].placements.find((p) => p.fixed)).toMatchObject({ designId: 'badge', copy: 1, x: 0.25, y: 0.25 });
    expect(layout.sheets.flatMap((s) => s.placements)).toHaveLength(18);
    for (const s of layout.sheets) expect(s.lengthPx).toBeLessThanOrEqual(600);
    expect(clearanceProblems(layout)).toEqual([]);
  });

  describe('a starting layout (re-nest the rest from the current layout)', () => {
    const designs: LayoutDesign[] = [
      { id: 'disc', widthPx: 120, heightPx: 120, width: 1.5, quantity: 20, mask: discMask(120) },
      { id: 'card', widthPx: 200, heightPx: 100, width: 2, quantity: 6 },
    ];
    const settings = { ...SHEET, nesting: 'shape' as const };
    const place = (p: LayoutResult['sheets'][number]['placements'][number], sheet = 0) => ({ designId: p.designId, copy: p.copy, x: p.x, y: p.y, rotation: p.rotation, sheet });
    const key = (p: { designId: string; copy: number }) => `${p.designId}#${p.copy}`;

    it('keeps the copies of the current layout where they stand around copies pinned there: no longer than it', () => {
      const current = layoutSheets(designs, settings, { maxEvaluations: 10, compactMoves: 100 });
      const all = current.sheets[0].placements.map((p) => place(p));
      const pins = [all[3], all[11], all[20]];
      const pinned = new Set(pins.map(key));
      const start = all.filter((p) => !pinned.has(key(p)));
      const again = layoutSheets(designs, settings, { maxEvaluations: 5, compactMoves: 50, fixed: pins, start });
      expect(again.sheets.flatMap((s) => s.placements)).toHaveLength(26);
      expect(again.totalLength).toBeLessThanOrEqual(current.totalLength);
      expect(again.sheets[0].placements.filter((p) => p.fixed).map(key).sort()).toEqual([...pinned].sort());
      expect(clearanceProblems(again, (id) => id === 'disc')).toEqual([]);
      // counted: the same layout every time; without the start the search lays everything out again
      expect(layoutSheets(designs, settings, { maxEvaluations: 5, compactMoves: 50, fixed: pins, start }).sheets).toEqual(again.sheets);
    });

    it('repairs the copies a moved pin lands on, and ignores entries that name no copy of the order', () => {
      const current = layoutSheets(designs, settings, { maxEvaluations: 10, compactMoves: 100 });
      const all = current.sheets[0].placements.map((p) => place(p));
      // a disc moved into the middle of the sheet, and a card into the top-left corner: each
      // lands on copies of the current layout
      const disc = all.find((p) => p.designId === 'disc')!;
      const card = all.find((p) => p.designId === 'card')!;
      const pins = [
        { ...disc, x: 5, y: 2, rotation: 0 as const },
        { ...card, x: SHEET.margin, y: SHEET.margin, rotation: 0 as const },
      ];
      const pinned = new Set(pins.map(key));
      const start = [
        ...all.filter((p) => !pinned.has(key(p))),
        { designId: 'nope', copy: 0, x: 1, y: 1 },
        { designId: 'disc', copy: 99, x: 1, y: 1 },
        { ...all[5], x: 1000 },
      ];
      expect(start.filter((p) => p.designId === 'disc' && Math.abs(p.x + 0.75 - 5.75) < 1.5 && Math.abs(p.y + 0.75 - 2.75) < 1.5).length).toBeGreaterThan(0);
      for (const opts of [{ maxEvaluations: 5, compactMoves: 50 }, { timeLimitMs: 300 }]) {
        const again = layoutSheets(designs, settings, { ...opts, fixed: pins, start });
        const ps = again.sheets.flatMap((s) => s.placements);
        expect(ps).toHaveLength(26);
        expect(new Set(ps.map(key)).size).toBe(26);
        expect(ps.filter((p) => p.fixed).map((p) => [key(p), p.x, p.y])).toEqual(expect.arrayContaining(pins.map((p) => [key(p), p.x, p.y])));
        expect(clearanceProblems(again, (id) => id === 'disc')).toEqual([]);
      }
    });

    it('repairs a rectangle layout as the start as rectangles: its copies off the shape cells stay, exactly the gap apart', () => {
      const sheet = { width: 22, gap: 0.25, margin: 0.25, dpi: 300, nesting: 'shape' as const };
      const full = new Uint8Array(1200 * 800).fill(255);
      const photos: LayoutDesign[] = [{ id: 'photo', widthPx: 1200, heightPx: 800, width: 4.013, quantity: 14, mask: alphaMask(full, 1200, { left: 0, top: 0, width: 1200, height: 800 }) }];
      const current = layoutSheets(photos, { ...sheet, nesting: 'box' }, { maxEvaluations: 10 });
      const all = current.sheets[0].placements.map((p) => place(p));
      // pinned where they stand: the start as it is
      const pins = [all[1], all[6]];
      const pinned = new Set(pins.map(key));
      const kept = layoutSheets(photos, sheet, { maxEvaluations: 5, compactMoves: 20, fixed: pins, start: all.filter((p) => !pinned.has(key(p))) });
      expect(kept.totalLength).toBeLessThanOrEqual(current.totalLength);
      expect(kept.sheets[0].placements.filter((p) => p.fixed).map(key).sort()).toEqual([...pinned].sort());
      expect(kept.sheets[0].placements).toHaveLength(14);
      expect(clearanceProblems(kept)).toEqual([]);
      // one moved onto another copy: that one is packed again, the rest stays
      const moved = [{ ...all[13], x: all[0].x, y: all[0].y }];
      const again = layoutSheets(photos, sheet, { timeLimitMs: 300, fixed: moved, start: all.filter((p) => key(p) !== key(moved[0])) });
      expect(again.sheets[0].placements).toHaveLength(14);
      expect(again.sheets[0].placements.find((p) => p.fixed)).toMatchObject({ designId: 'photo', copy: all[13].copy, x: all[0].x, y: all[0].y });
      expect(again.sheets[0].placements.filter((p) => p.fixed)).toHaveLength(1);
      expect(clearanceProblems(again)).toEqual([]);
      expect(again.totalLength).toBeLessThanOrEqual(current.totalLength + 3);
    });

    it('changes nothing without it, and rectangle layouts ignore it', () => {
      const a = layoutSheets(designs, settings, { maxEvaluations: 8, compactMoves: 30 });
      expect(layoutSheets(designs, settings, { maxEvaluations: 8, compactMoves: 30, start: [] })).toEqual(a);
      const box = layoutSheets(designs, { ...SHEET, nesting: 'box' }, { maxEvaluations: 8 });
      const start = box.sheets[0].placements.map((p) => place(p));
      expect(layoutSheets(designs, { ...SHEET, nesting: 'box' }, { maxEvaluations: 8, start }).sheets).toEqual(box.sheets);
    });
  });
});
