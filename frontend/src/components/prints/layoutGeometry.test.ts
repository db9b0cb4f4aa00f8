import { describe, expect, it } from "vitest";
import { densityPercent, normalizeLayout, placementTransform, sheetPixels, sheetScale, trimViewBox } from "./layoutGeometry";

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
  it("shows only the trimmed art of the preview", () => {
    expect(trimViewBox({ width: 100, height: 50, trim: { left: 10, top: 5, width: 80, height: 40 } })).toEqual({ viewBox: "10 5 80 40", imageWidth: 100, imageHeight: 50 });
    expect(trimViewBox({ width: 100, height: 50, trim: null })?.viewBox).toBe("0 0 100 50");
    expect(trimViewBox({ width: null, height: null })).toBeNull();
  });
});

describe("layout response", () => {
  it("accepts the documented shape and the engine's", () => {
    const doc = normalizeLayout({ data: { sheets: [{ length: 5, widthIn: 22, placements: [{ imageId: "a", x: 0, y: 0, width: 2, height: 3, rotated: true }] }], density: 0.5, creditCost: 1, warnings: [{ imageId: "a", effectiveDpi: 120 }] } });
    expect(doc.sheets[0].placements[0]).toEqual({ imageId: "a", x: 0, y: 0, width: 2, height: 3, rotated: true });
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
