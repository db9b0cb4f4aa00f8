import { describe, expect, it } from "vitest";
import cases from "./shape-cases.json";
import { boundedCell, ShapeChecker, turnRect, type LayoutShapes, type ShapeCopy } from "./shapeCheck";

// shape-cases.json: pairs of copies and the server's verdict on each (checkLayout; kept true by
// backend/src/prints/print-layout-shapes.spec.ts)
const data = cases as unknown as { shapes: LayoutShapes[]; cases: { settings: number; copies: Omit<ShapeCopy, "sheet">[]; tooClose: boolean }[] };

describe("the editor's gap check by ink", () => {
  it("decides every stored case as the server did", () => {
    const checkers = data.shapes.map((s) => new ShapeChecker(s, "shape"));
    const wrong = data.cases.filter((c) => {
      const [a, b] = c.copies.map((v) => ({ ...v, sheet: 0 }));
      return checkers[c.settings].tooClose(a, b) !== c.tooClose;
    });
    expect(wrong).toEqual([]);
    // the verdicts do not depend on the order of the two copies, nor on what was cached before
    const fresh = data.shapes.map((s) => new ShapeChecker(s, "shape"));
    for (const c of [...data.cases].reverse()) {
      const [a, b] = c.copies.map((v) => ({ ...v, sheet: 0 }));
      expect(fresh[c.settings].tooClose(b, a)).toBe(c.tooClose);
    }
  });

  it("names the copies too close in a whole layout, and none on other sheets", () => {
    const close = data.cases.filter((c) => c.settings === 0 && c.tooClose && c.copies[0].itemId !== c.copies[1].itemId)[0];
    const checker = new ShapeChecker(data.shapes[0], "shape");
    const [a, b] = close.copies.map((v) => ({ ...v, sheet: 0 }));
    const far = { ...a, key: "far#0", x: a.x + 5 };
    expect([...checker.problems([a, b, far]).keys()].sort()).toEqual([a.key, b.key].sort());
    expect(checker.problems([a, { ...b, sheet: 1 }]).size).toBe(0);
  });

  it("turns rectangles as the engine does and bounds the cell for huge designs", () => {
    expect(turnRect([1, 2, 3, 5], 10, 6, 1)).toEqual([1, 1, 4, 3]);
    expect(turnRect([1, 2, 3, 5], 10, 6, 2)).toEqual([7, 1, 9, 4]);
    expect(boundedCell([{ w: 300, h: 300 }], 2, 4)).toBe(2);
    expect(boundedCell([{ w: 30000, h: 30000 }], 2, 4)).toBeGreaterThan(2);
  });
});
