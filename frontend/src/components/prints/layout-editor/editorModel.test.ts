import { describe, expect, it } from "vitest";
import { findProblems, footprint, labelBox, rotated, toApiCopies, uprightLabel, type EditorCopy, type EditorSettings } from "./editorModel";

const s: EditorSettings = { width: 10, maxLength: 20, gap: 0.25, margin: 0.25, dpi: 100, rotate: true, nesting: "box" };
const copy = (key: string, x: number, y: number, extra: Partial<EditorCopy> = {}): EditorCopy => ({
  key, itemId: key.split("#")[0], imageId: "img", copy: Number(key.split("#")[1]), sheet: 0, x, y, w: 2, h: 1, rotation: 0, pinned: false, ...extra,
});

describe("layout editor model", () => {
  it("finds copies closer than the gap by box, exactly at whole pixels", () => {
    const apart = [copy("a#0", 1, 1), copy("a#1", 3.25, 1)];
    expect(findProblems(apart, s).size).toBe(0);
    const close = [copy("a#0", 1, 1), copy("a#1", 3.24, 1)];
    const p = findProblems(close, s);
    expect([...p.keys()].sort()).toEqual(["a#0", "a#1"]);
    expect(p.get("a#0")!.with).toEqual(new Set(["a#1"]));
    // another sheet never collides
    expect(findProblems([copy("a#0", 1, 1), copy("a#1", 1, 1, { sheet: 1 })], s).size).toBe(0);
  });

  it("flags margins and the maximum length; shape prints leave the gap to the server", () => {
    const p = findProblems([copy("a#0", 0.2, 1), copy("a#1", 1, 19.5), copy("a#2", 1, 1), copy("a#3", 1.5, 1.2)], { ...s, nesting: "shape" });
    expect(p.get("a#0")!.kinds).toEqual(new Set(["outside_margins"]));
    expect(p.get("a#1")!.kinds).toEqual(new Set(["beyond_length"]));
    expect(p.has("a#2")).toBe(false);
  });

  it("turns a copy about its centre and numbers copies per item for the API", () => {
    const r = rotated(copy("a#0", 2, 2), s.dpi);
    expect(r.rotation).toBe(90);
    expect(footprint(r)).toEqual({ x: 2.5, y: 1.5, width: 1, height: 2 });
    expect(toApiCopies([copy("a#5", 1, 1), copy("b#0", 1, 3), copy("a#9", 4, 1, { pinned: true })])).toEqual([
      { itemId: "a", copy: 0, sheet: 0, x: 1, y: 1, rotation: 0, pinned: false },
      { itemId: "b", copy: 0, sheet: 0, x: 1, y: 3, rotation: 0, pinned: false },
      { itemId: "a", copy: 1, sheet: 0, x: 4, y: 1, rotation: 0, pinned: true },
    ]);
  });

  it("keeps an order label's space below the art as the copy turns", () => {
    // a 2 x 1 in copy with a 1 x 0.12 in label 0.04 in below it, placed turned by 90° (label on its left)
    const label = uprightLabel({ x: 5, y: 1, width: 1, height: 2, rotation: 90, label: { x: 4.84, y: 1.5, width: 0.12, height: 1 } });
    expect(label).toEqual({ w: 1, h: 0.12, offset: expect.closeTo(0.04, 6) });
    const c = copy("a#0", 5, 1, { rotation: 90, label });
    expect(labelBox(c)).toEqual({ x: expect.closeTo(-0.16, 6), y: 0.5, width: 0.12, height: 1 });
    expect(labelBox({ ...c, rotation: 0 })).toEqual({ x: 0.5, y: expect.closeTo(1.04, 6), width: 1, height: 0.12 });
    expect(labelBox({ ...c, rotation: 180 })).toEqual({ x: 0.5, y: expect.closeTo(-0.16, 6), width: 1, height: 0.12 });
    expect(labelBox({ ...c, rotation: 270 })).toEqual({ x: expect.closeTo(1.04, 6), y: 0.5, width: 0.12, height: 1 });
    expect(labelBox(copy("b#0", 0, 0))).toBeNull();
    // the label's space keeps the gap too: a copy 0.3 in below the art sits on the label
    const up = { ...c, rotation: 0 as const, x: 1, y: 1 };
    expect(findProblems([up, copy("a#1", 1, 2.3)], s).size).toBe(2);
    expect(findProblems([up, copy("a#1", 1, 2.45)], s).size).toBe(0);
  });
});
