import fc from 'fast-check';
import { DesignTooLargeError, LayoutDesign, layoutSheets, SheetSettings } from './layout';
import { packStrip } from './search';
import { findLayoutProblems } from './validate';

const designArb = fc.record({
  widthPx: fc.integer({ min: 20, max: 4000 }),
  heightPx: fc.integer({ min: 20, max: 4000 }),
  width: fc.double({ min: 0.5, max: 10, noNaN: true }),
  quantity: fc.integer({ min: 0, max: 12 }),
});
const settingsArb = fc.record({
  width: fc.constantFrom(11, 22),
  gap: fc.constantFrom(0, 0.1, 0.25, 0.5),
  margin: fc.constantFrom(0, 0.125, 0.25),
  rotate: fc.boolean(),
  dpi: fc.constantFrom(50, 100),
  maxLength: fc.constantFrom(Infinity, 24, 40),
});
const caseArb = fc.record({ designs: fc.array(designArb, { minLength: 1, maxLength: 6 }), settings: settingsArb });

const OPTS = { timeLimitMs: 10_000, maxEvaluations: 300 };

function withIds(ds: Omit<LayoutDesign, 'id'>[]): LayoutDesign[] {
  return ds.map((d, i) => ({ ...d, id: `d${i}` }));
}

/** Checks every rule of a layout against its input; returns the first broken rule or null. */
function brokenRule(designs: LayoutDesign[], settings: Omit<Required<SheetSettings>, "nesting">, res: ReturnType<typeof layoutSheets>): string | null {
  const dpi = settings.dpi;
  const gap = Math.round(settings.gap * dpi);
  const margin = Math.round(settings.margin * dpi);
  const widthPx = Math.round(settings.width * dpi);
  const seen = new Map<string, number>();
  for (const sheet of res.sheets) {
    if (sheet.widthPx !== widthPx) return 'sheet width';
    if (Number.isFinite(settings.maxLength) && sheet.lengthPx > Math.round(settings.maxLength * dpi)) return 'sheet too long';
    for (const p of sheet.placements) {
      const key = `${p.designId}#${p.copy}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      if (p.rotated && !settings.rotate) return 'rotated without permission';
      if (p.px.x < margin || p.px.y < margin) return 'margin (top/left)';
      if (p.px.x + p.px.width > widthPx - margin) return 'margin (right)';
      if (p.px.y + p.px.height > sheet.lengthPx - margin) return 'margin (bottom)';
      if (Math.abs(p.x * dpi - p.px.x) > 1e-6 || Math.abs(p.width * dpi - p.px.width) > 1e-6) return 'inch/pixel mismatch';
      const d = designs.find((x) => x.id === p.designId)!;
      const w = Math.round(d.width * dpi);
      if ((p.rotated ? p.px.height : p.px.width) !== w) return 'printed width';
    }
    // grow each copy by the gap: inflated copies may touch but never overlap
    const rects = sheet.placements.map((p) => ({ x: p.px.x, y: p.px.y, w: p.px.width + gap, h: p.px.height + gap }));
    const problems = findLayoutProblems(rects, widthPx - margin + gap);
    if (problems.length) return problems[0];
  }
  for (const d of designs)
    for (let c = 0; c < d.quantity; c++) if (seen.get(`${d.id}#${c}`) !== 1) return `copy ${d.id}#${c} placed ${seen.get(`${d.id}#${c}`) ?? 0} times`;
  if ([...seen.values()].reduce((a, b) => a + b, 0) !== designs.reduce((a, d) => a + d.quantity, 0)) return 'extra copies';
  return null;
}

function fits(d: Omit<LayoutDesign, "id">, s: Omit<Required<SheetSettings>, "nesting">): boolean {
  const w = Math.round(d.width * s.dpi);
  const h = Math.max(1, Math.round((d.width * s.dpi * d.heightPx) / d.widthPx));
  const pw = Math.round(s.width * s.dpi) - 2 * Math.round(s.margin * s.dpi);
  const pl = Number.isFinite(s.maxLength) ? Math.round(s.maxLength * s.dpi) - 2 * Math.round(s.margin * s.dpi) : Infinity;
  return (w <= pw && h <= pl) || (s.rotate && h <= pw && w <= pl);
}

describe('layoutSheets (properties)', () => {
  it('keeps gap, margins and sheet bounds, places every copy once, rotates only when allowed', () => {
    fc.assert(
      fc.property(caseArb, ({ designs, settings }) => {
        const ds = withIds(designs);
        fc.pre(designs.every((d) => fits(d, settings)));
        const res = layoutSheets(ds, settings, OPTS);
        expect(brokenRule(ds, settings, res)).toBeNull();
      }),
      { numRuns: 120, seed: 42 },
    );
  });

  it('keeps every rule on real orders (few large designs, many copies: the column stage), one sheet or several', () => {
    const realArb = fc.record({
      designs: fc.array(
        fc.record({
          widthPx: fc.integer({ min: 500, max: 3000 }),
          heightPx: fc.integer({ min: 500, max: 3000 }),
          width: fc.double({ min: 3, max: 11, noNaN: true }),
          quantity: fc.integer({ min: 8, max: 40 }),
        }),
        { minLength: 2, maxLength: 5 },
      ),
      settings: fc.record({
        width: fc.constant(22),
        gap: fc.constantFrom(0, 0.25),
        margin: fc.constantFrom(0, 0.25),
        rotate: fc.boolean(),
        dpi: fc.constantFrom(50, 100),
        maxLength: fc.constantFrom(Infinity, 60, 150),
      }),
    });
    fc.assert(
      fc.property(realArb, ({ designs, settings }) => {
        const ds = withIds(designs);
        fc.pre(designs.every((d) => fits(d, settings)));
        const res = layoutSheets(ds, settings, OPTS);
        expect(brokenRule(ds, settings, res)).toBeNull();
      }),
      { numRuns: 30, seed: 11 },
    );
  });

  it('is deterministic for the same input', () => {
    fc.assert(
      fc.property(caseArb, ({ designs, settings }) => {
        const ds = withIds(designs);
        fc.pre(designs.every((d) => fits(d, settings)));
        expect(layoutSheets(ds, settings, OPTS)).toEqual(layoutSheets(ds, settings, OPTS));
      }),
      { numRuns: 40, seed: 7 },
    );
  });

  it('throws an error naming a design that is too wide even rotated', () => {
    fc.assert(
      fc.property(fc.integer({ min: 23, max: 40 }), fc.boolean(), (inches, rotate) => {
        const designs: LayoutDesign[] = [
          { id: 'ok', widthPx: 100, heightPx: 100, width: 3, quantity: 2 },
          { id: 'banner', widthPx: 1000, heightPx: 1000, width: inches, quantity: 1 },
        ];
        const run = () => layoutSheets(designs, { width: 22, rotate, dpi: 50 }, OPTS);
        expect(run).toThrow(DesignTooLargeError);
        expect(run).toThrow(/"banner"/);
      }),
      { numRuns: 10 },
    );
  });

  it('rotates a design that only fits sideways, and refuses when rotation is off', () => {
    const designs: LayoutDesign[] = [{ id: 'long', widthPx: 3000, heightPx: 1000, width: 30, quantity: 1 }];
    const res = layoutSheets(designs, { width: 22, rotate: true, dpi: 20, gap: 0 }, OPTS);
    expect(res.sheets[0].placements[0].rotated).toBe(true);
    expect(res.sheets[0].length).toBeCloseTo(30, 6);
    expect(() => layoutSheets(designs, { width: 22, rotate: false, dpi: 20 }, OPTS)).toThrow(/"long".*printable width/);
  });

  it('splits into the fewest sheets when the maximum length is exceeded, last one short', () => {
    // 40 squares of 5 in, 4 per row on 22 in with no gap: 10 rows = 50 in of art
    const designs: LayoutDesign[] = [{ id: 'sq', widthPx: 500, heightPx: 500, width: 5, quantity: 40 }];
    const res = layoutSheets(designs, { width: 22, maxLength: 20, gap: 0, dpi: 20 }, OPTS);
    expect(res.sheets.map((s) => s.length)).toEqual([20, 20, 10]);
  });

  it('reports the gap error with the design name when the design is too long for maxLength', () => {
    const designs: LayoutDesign[] = [{ id: 'tall', widthPx: 100, heightPx: 1000, width: 5, quantity: 1 }];
    expect(() => layoutSheets(designs, { width: 22, maxLength: 40, rotate: false, dpi: 20 }, OPTS)).toThrow(/"tall".*length/);
  });
});

describe('packStrip', () => {
  it('finds the perfect packing of a cut-up rectangle', () => {
    // a 10 x 10 square cut into four pieces; the optimum height is 10
    const pieces = [
      { w: 6, h: 4 },
      { w: 4, h: 7 },
      { w: 6, h: 6 },
      { w: 4, h: 3 },
    ];
    const r = packStrip(pieces, 10, false, { timeLimitMs: 1000 });
    expect(r.height).toBe(10);
    const rects = pieces.map((p, i) => ({ x: r.x[i], y: r.y[i], w: p.w, h: p.h }));
    expect(findLayoutProblems(rects, 10, 10)).toEqual([]);
  });
});
