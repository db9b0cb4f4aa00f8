import { describe, expect, it } from "vitest";
import { placementTransform, shapeSavingText, sheetPixels, sheetScale, trimViewBox } from "./layoutGeometry";

describe("sheet scale", () => {
  it("fits the width, or the height for long sheets, capped", () => {
    expect(sheetScale({ width: 22, length: 10 }, 440)).toBe(20);
    expect(sheetScale({ width: 22, length: 100 }, 440, 500)).toBe(5);
    expect(sheetScale({ width: 2, length: 2 }, 1000)).toBe(40);
    expect(sheetScale({ width: 0, length: 2 }, 1000)).toBe(0);
  });
  it("gives whole pixel sizes", () => {
    expect(sheetPixels({ width: 22, length: 13.37 }, 20)).toEqual({ width: 440, height: 267 });
    expect(sheetPixels({ width: 22, length: 0 }, 20).height).toBe(1);
  });
});

describe("placements", () => {
  it("draws an upright design in its footprint", () => {
    expect(placementTransform({ x: 1, y: 2, width: 3, height: 4, rotation: 0 })).toEqual({ transform: "translate(1 2)", width: 3, height: 4 });
  });
  it("turns a rotated design 90° into its footprint", () => {
    const t = placementTransform({ x: 1, y: 2, width: 4, height: 3, rotation: 90 });
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
  it("shows only the trimmed art of the preview", () => {
    expect(trimViewBox({ width: 100, height: 50, trim: { left: 10, top: 5, width: 80, height: 40 } })).toEqual({ viewBox: "10 5 80 40", imageWidth: 100, imageHeight: 50 });
    expect(trimViewBox({ width: 100, height: 50, trim: null })?.viewBox).toBe("0 0 100 50");
    expect(trimViewBox({ width: null, height: null })).toBeNull();
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
  });
});
