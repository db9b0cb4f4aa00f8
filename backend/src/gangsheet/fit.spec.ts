import { designFit } from './fit';
import { layoutSheets } from './pack/layout';
import { trimAlpha } from './trim';

const sheet = { width: 22, maxLength: 100, margin: 0.25, dpi: 300, rotate: true };

describe('designFit', () => {
  it('fits inside the margins, in whole pixels', () => {
    // printable width 22 - 2 × 0.25 = 21.5 in
    expect(designFit({ widthPx: 100, heightPx: 100, width: 21.5 }, sheet)).toEqual({ fits: true, width: 21.5, height: 21.5 });
    expect(designFit({ widthPx: 100, heightPx: 100, width: 21.51 }, sheet).fits).toBe(false);
  });

  it('turns a design that is too wide but short enough, only when rotation is allowed', () => {
    const wide = { widthPx: 300, heightPx: 100, width: 30 }; // 30 x 10 in
    expect(designFit(wide, sheet).fits).toBe(true);
    expect(designFit(wide, { ...sheet, rotate: false }).fits).toBe(false);
  });

  it('checks the length too; an unlimited sheet has none', () => {
    const tall = { widthPx: 100, heightPx: 1000, width: 12 }; // 12 x 120 in
    expect(designFit(tall, sheet)).toEqual({ fits: false, width: 12, height: 120 });
    expect(designFit(tall, { ...sheet, maxLength: Infinity }).fits).toBe(true);
  });

  it('agrees with the layout: what it refuses, layoutSheets refuses', () => {
    for (const width of [21.4, 21.5, 21.6, 29.5, 99.6, 100.2]) {
      const d = { id: 'd', widthPx: 400, heightPx: 100, width, quantity: 1 };
      const fits = designFit(d, { ...sheet, rotate: false }).fits;
      const laid = () => layoutSheets([d], { ...sheet, rotate: false, nesting: 'box', gap: 0.25 }, { maxEvaluations: 1 });
      if (fits) expect(laid).not.toThrow();
      else expect(laid).toThrow(/does not fit/);
    }
  });
});

describe('trimAlpha (the one trim rule)', () => {
  const plane = (w: number, h: number, ink: Array<[number, number]>) => {
    const a = new Uint8Array(w * h);
    for (const [x, y] of ink) a[y * w + x] = 255;
    return a;
  };

  it('is the bounds of alpha > 0 with the ink mask over them', () => {
    const t = trimAlpha(plane(10, 8, [[2, 3], [5, 6]]), 10, 8)!;
    expect(t.trim).toEqual({ left: 2, top: 3, width: 4, height: 4 });
    expect(t.mask).not.toBeNull();
  });

  it('fully transparent → null; no transparent pixel → the whole image, no mask', () => {
    expect(trimAlpha(new Uint8Array(12), 4, 3)).toBeNull();
    expect(trimAlpha(new Uint8Array(12).fill(255), 4, 3)).toEqual({ trim: { left: 0, top: 0, width: 4, height: 3 }, mask: null });
  });

  it('maps bounds measured on a larger raster back outwards (an SVG measured at 4×)', () => {
    // ink at raster x 5..9, y 2 of a 40 x 20 raster of a 10 x 5 design
    const t = trimAlpha(plane(40, 20, [[5, 2], [9, 2]]), 40, 20, { width: 10, height: 5, scale: 4 })!;
    expect(t.trim).toEqual({ left: 1, top: 0, width: 2, height: 1 });
  });
});
