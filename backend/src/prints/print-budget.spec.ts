import { layoutSheets } from '../gangsheet';
import { DEFAULT_SHEET_SETTINGS } from '../sheet-settings/entities/sheet-settings.entity';
import { budgetProblem, estimateWork, layoutBudget } from './print-budget';

describe('estimateWork', () => {
  const cases = [
    { name: 'one small copy on a wide sheet', items: [{ trim: { width: 600, height: 400 }, widthIn: 2, quantity: 1 }], settings: { width: 64, dpi: 300 } },
    {
      name: 'many copies of two designs over several sheets',
      items: [
        { trim: { width: 1200, height: 800 }, widthIn: 5, quantity: 60 },
        { trim: { width: 500, height: 900 }, widthIn: 3.5, quantity: 40 },
      ],
      settings: { maxLength: 30 },
    },
    { name: 'rotation off, tall designs', items: [{ trim: { width: 300, height: 900 }, widthIn: 4, quantity: 25 }], settings: { rotate: false, dpi: 150 } },
  ];

  it.each(cases)('never exceeds the pixels of the real layout: $name', ({ items, settings }) => {
    const s = { ...DEFAULT_SHEET_SETTINGS, ...settings };
    const layout = layoutSheets(
      items.map((it, i) => ({ id: `d${i}`, widthPx: it.trim.width, heightPx: it.trim.height, width: it.widthIn, quantity: it.quantity })),
      s,
      { timeLimitMs: 50 },
    );
    const real = layout.sheets.reduce((a, sh) => a + sh.widthPx * sh.lengthPx, 0);
    const est = estimateWork(items, s);
    expect(est.pixels).toBeLessThanOrEqual(real);
    // and it is a useful bound, not a trivial one
    expect(est.pixels).toBeGreaterThan(real * 0.5);
    expect(est.bytes).toBeGreaterThan(0);
  });

  it("1000 copies of a 20 in design at 600 DPI on 64 in film is tens of gigapixels", () => {
    const est = estimateWork([{ trim: { width: 500, height: 300 }, widthIn: 20, quantity: 1000 }], { ...DEFAULT_SHEET_SETTINGS, width: 64, maxLength: 400, dpi: 600 });
    expect(est.pixels).toBeGreaterThan(50e9);
  });
});

describe('estimateWork disk space', () => {
  const item = { trim: { width: 1000, height: 500 }, widthIn: 10, quantity: 3 };
  const raster = 10 * 300 * 5 * 300 * 4;
  it('counts every orientation the raster cache may keep, and the PDF images', () => {
    const base = { ...DEFAULT_SHEET_SETTINGS, dpi: 300 };
    const files = (s: typeof base) => estimateWork([item], s).pixels * 0.5;
    const bytes = (s: typeof base) => estimateWork([item], s).bytes;
    expect(bytes({ ...base, rotate: false })).toBeCloseTo(raster + files({ ...base, rotate: false }), -1);
    expect(bytes({ ...base, nesting: 'box' })).toBeCloseTo(2 * raster + files({ ...base, nesting: 'box' }), -1);
    expect(bytes({ ...base, nesting: 'shape' })).toBeCloseTo(4 * raster + files(base), -1);
    expect(bytes({ ...base, nesting: 'shape', formats: ['png', 'pdf'] })).toBeCloseTo(5 * raster + files(base), -1);
  });
});

describe('budgetProblem', () => {
  it('is null within the budget and a bound ("at least") over it', () => {
    expect(budgetProblem({ pixels: 4e9, bytes: 0 }, 4e9)).toBeNull();
    expect(budgetProblem({ pixels: 5.5e9, bytes: 0 }, 4e9)).toBe(
      'This print would render at least 5.50 gigapixels; the limit is 4.00. Lower the DPI, use fewer copies or split it into several prints.',
    );
  });
  it('says which images are counted at full size while they are still being inspected', () => {
    expect(budgetProblem({ pixels: 9.1e9, bytes: 0 }, 4e9, ['band', 'logo'])).toBe(
      'This print would render about 9.10 gigapixels; the limit is 4.00. "band", "logo" are still being inspected and counted at full size; ' +
        'if the art has transparent edges, try again once it is ready. Lower the DPI, use fewer copies or split it into several prints.',
    );
  });
});

describe('layoutBudget', () => {
  const limits = { layoutTimeLimitMs: 2000, shapeLayoutTimeLimitMs: 30000 };
  const mask = { width: 1, height: 1, data: 'AQ==' };
  it('gives rectangles the plain budget, however many copies', () => {
    expect(layoutBudget([{ quantity: 400, mask }], { nesting: 'box' }, limits)).toBe(2000);
  });
  it('gives true-shape nesting 200 ms per copy, at least the plain budget and at most its cap', () => {
    expect(layoutBudget([{ quantity: 10, mask }], { nesting: 'shape' }, limits)).toBe(2000);
    expect(layoutBudget([{ quantity: 75, mask }], { nesting: 'shape' }, limits)).toBe(15000);
    expect(layoutBudget([{ quantity: 100, mask }, { quantity: 50 }], { nesting: 'shape' }, limits)).toBe(30000);
    expect(layoutBudget([{ quantity: 1000, mask }], { nesting: 'shape' }, limits)).toBe(30000);
  });
  it('gives a "shape" print without any ink mask (laid out as rectangles) the plain budget', () => {
    expect(layoutBudget([{ quantity: 300 }], { nesting: 'shape' }, limits)).toBe(2000);
  });
});
