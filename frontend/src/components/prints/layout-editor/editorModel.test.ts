import { describe, expect, it } from "vitest";
import { findProblems, footprint, rotated, toApiCopies, type EditorCopy, type EditorSettings } from "./editorModel";

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
});
