import { describe, expect, it } from "vitest";
import { densityPercent, normalizeLayout, placementTransform, shapeSavingText, sheetPixels, sheetScale, trimViewBox } from "./layoutGeometry";

describe("sheet scale", () => {
  it("fits the width, or the height for long sheets, capped", () => {
    expect(sheetScale({ widthIn: 22, length: 10 }, 440)).toBe(20);
    expect(sheetScale({ widthIn: 22, length: 100 }, 440, 500)).toBe(5);
    expect(sheetScale({ widthIn: 2, length: 2 }, 1000)).toBe(40);
    expect(sheetScale({ widthIn: 0, length: 2 }, 1000)).toBe(0);
  });
  it("gives whole pixel sizes", () => {
    expect(sheetPixels({ widthIn: 22, length: 13.37 }, 20)).toEqual({ width: 440, height: 267 });
    expect(sheetPixels({ widthIn: 22, length: 0 }, 20).height).toBe(1);
  });
});

describe("placements", () => {
  it("draws an upright design in its footprint", () => {
    expect(placementTransform({ x: 1, y: 2, width: 3, height: 4, rotated: false })).toEqual({ transform: "translate(1 2)", width: 3, height: 4 });
  });
  it("turns a rotated design 90° into its footprint", () => {
    const t = placementTransform({ x: 1, y: 2, width: 4, height: 3, rotated: true });
    expect(t).toEqual({ transform: "translate(5 2) rotate(90)", width: 3, height: 4 });
    // The design's corners (u,v) → rotate(90) → (−v, u) → translate: the box covers x 1..5, y 2..5.
    const map = (u: number, v: number) => [-v + 5, u + 2];
    expect([map(0, 0), map(t.width, 0), map(0, t.height), map(t.width, t.height)]).toEqual([[5, 2], [5, 5], [1, 2], [1, 5]]);
  });
  /** Applies an SVG "translate(a b) rotate(r)" to a design point (u, v). */
  const apply = (transform: string, u: number, v: number): [number, number] => {
    const m = /translate\(([-\d.]+) ([-\d.]+)\)(?: rotate\((\d+)\))?/.exec(transform)!;
    const r = (Number(m[3] ?? 0) * Math.PI) / 180;
    const [c, s] = [Math.round(Math.cos(r)), Math.round(Math.sin(r))];
    return [u * c - v * s + Number(m[1]), u * s + v * c + Number(m[2])];
  };
  it.each([
    // rotation, where the design's top-left, top-right and bottom-left corners land (footprint x 1..5, y 2..5 or 2..6)
    [0, { width: 4, height: 3 }, [[1, 2], [5, 2], [1, 5]]],
    [90, { width: 3, height: 4 }, [[4, 2], [4, 6], [1, 2]]],
    [180, { width: 4, height: 3 }, [[5, 5], [1, 5], [5, 2]]],
    [270, { width: 3, height: 4 }, [[1, 6], [1, 2], [4, 6]]],
  ] as const)("turns a design %i° clockwise into its footprint", (rotation, box, corners) => {
    const p = { x: 1, y: 2, ...box, rotated: rotation === 90 || rotation === 270, rotation };
    const t = placementTransform(p);
    // drawn upright in its own box: quarter turns swap the footprint's sides
    expect([t.width, t.height]).toEqual(p.rotated ? [box.height, box.width] : [box.width, box.height]);
    const got = [apply(t.transform, 0, 0), apply(t.transform, t.width, 0), apply(t.transform, 0, t.height)];
    expect(got).toEqual(corners);
    // all four corners stay inside the footprint
    for (const [x, y] of [...got, apply(t.transform, t.width, t.height)]) {
      expect(x).toBeGreaterThanOrEqual(p.x);
      expect(x).toBeLessThanOrEqual(p.x + p.width);
      expect(y).toBeGreaterThanOrEqual(p.y);
      expect(y).toBeLessThanOrEqual(p.y + p.height);
    }
  });
  it("reads layouts stored before rotation existed as 90° when rotated", () => {
    expect(placementTransform({ x: 1, y: 2, width: 4, height: 3, rotated: true }).transform).toBe("translate(5 2) rotate(90)");
    const l = normalizeLayout({ sheets: [{ length: 5, placements: [{ imageId: "a", x: 0, y: 0, width: 2, height: 3, rotated: true }, { imageId: "a", x: 2, y: 0, width: 2, height: 3, rotated: false, rotation: 180 }] }] });
    expect(l.sheets[0].placements.map((p) => p.rotation)).toEqual([90, 180]);
  });
  it("shows only the trimmed art of the preview", () => {
    expect(trimViewBox({ width: 100, height: 50, trim: { left: 10, top: 5, width: 80, height: 40 } })).toEqual({ viewBox: "10 5 80 40", imageWidth: 100, imageHeight: 50 });
    expect(trimViewBox({ width: 100, height: 50, trim: null })?.viewBox).toBe("0 0 100 50");
    expect(trimViewBox({ width: null, height: null })).toBeNull();
  });
});

describe("layout response", () => {
  it("accepts the documented shape and the engine's", () => {
    const doc = normalizeLayout({ data: { sheets: [{ length: 5, widthIn: 22, placements: [{ imageId: "a", x: 0, y: 0, width: 2, height: 3, rotated: true }] }], density: 0.5, creditCost: 1, warnings: [{ imageId: "a", effectiveDpi: 120 }] } });
    expect(doc.sheets[0].placements[0]).toEqual({ imageId: "a", x: 0, y: 0, width: 2, height: 3, rotated: true, rotation: 90 });
    expect(doc.warnings).toEqual([{ imageId: "a", effectiveDpi: 120 }]);
    const engine = normalizeLayout({ settings: { width: 24 }, sheets: [{ length: 5, placements: [{ designId: "b", x: 1, y: 1, width: 2, height: 2, rotated: false }, { designId: "b", x: 3, y: 1, width: 2, height: 2, rotated: false }] }], density: 0.4 });
    expect(engine.sheets[0].widthIn).toBe(24);
    expect(engine.sheets[0].placements[0].imageId).toBe("b");
    expect(engine.creditCost).toBe(2);
  });
  it("reads the server's preview: low DPI from items, other warnings as problems of their item", () => {
    const l = normalizeLayout({ data: { settings: { width: 22 }, sheets: [{ index: 0, width: 22, length: 4, placements: [{ itemId: "i1", imageId: "a", x: 0, y: 0, width: 3, height: 2, rotated: false }] }], density: 0.3, creditCost: 1,
      items: [{ itemId: "i1", imageId: "a", effectiveDpi: 96.5, lowResolution: true }, { itemId: "i2", imageId: "b", effectiveDpi: 300, lowResolution: false }],
      warnings: [{ itemId: "i1", code: "low_resolution", message: "low" }, { itemId: "i3", code: "image_not_ready", message: "Image is still processing" }] } });
    expect(l.sheets[0].widthIn).toBe(22);
    expect(l.warnings).toEqual([{ imageId: "a", effectiveDpi: 96.5 }]);
    expect(l.problems).toEqual([{ itemId: "i3", code: "image_not_ready", message: "Image is still processing" }]);
    expect(l.canProcess).toBe(false);
    expect(l.rendered).toBe(false);
  });
  it("keeps a design wider than the sheet on its item, and whether the layout is the rendered one", () => {
    const wide = normalizeLayout({ data: { sheets: [], density: 0, creditCost: 0, canProcess: false, rendered: false,
      warnings: [{ itemId: "draft-1", code: "too_large", message: 'Design "Banner" is 40 x 24 in and does not fit a 22 x 100 in sheet with 0.25 in margins.' }] } });
    expect(wide.problems).toEqual([{ itemId: "draft-1", code: "too_large", message: 'Design "Banner" is 40 x 24 in and does not fit a 22 x 100 in sheet with 0.25 in margins.' }]);
    expect(wide.canProcess).toBe(false);
    expect(normalizeLayout({ data: { sheets: [], canProcess: true, rendered: true } })).toMatchObject({ canProcess: true, rendered: true, problems: [] });
  });
  it("shows density as a percent", () => {
    expect(densityPercent(0.8234)).toBe(82.3);
    expect(densityPercent(82.34)).toBe(82.3);
    expect(densityPercent(undefined)).toBe(0);
  });
});

describe("film saved by true shape", () => {
  it("says how much film and how many inches true shape saves against rectangles", () => {
    expect(shapeSavingText({ boxLength: 221.4, savedLength: 31, savedFraction: 0.14 })).toBe("True shape saves 14 % film, 31 in vs rectangles");
    expect(shapeSavingText({ boxLength: 100, savedLength: 0.46, savedFraction: 0.0046 })).toBe("True shape saves <1 % film, 0.5 in vs rectangles");
  });
  it("says so when it saves nothing, and nothing for box layouts", () => {
    expect(shapeSavingText({ boxLength: 12, savedLength: 0, savedFraction: 0 })).toBe("True shape saves no film on this order (same length as rectangles)");
    expect(shapeSavingText(null)).toBeNull();
    expect(normalizeLayout({ data: { sheets: [], shapeSaving: { boxLength: 20, savedLength: 3, savedFraction: 0.15 } } }).shapeSaving).toEqual({ boxLength: 20, savedLength: 3, savedFraction: 0.15 });
    expect(normalizeLayout({ data: { sheets: [], shapeSaving: null } }).shapeSaving).toBeNull();
  });
});
