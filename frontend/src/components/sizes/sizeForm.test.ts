import { describe, expect, it } from "vitest";
import { addSizeHref, parseSizeValue, toSizePayload } from "./sizeForm";

describe("size form", () => {
  it("converts the value to a number", () => {
    expect(parseSizeValue("11")).toBe(11);
    expect(parseSizeValue(" 8.25 ")).toBe(8.25);
    expect(parseSizeValue(".5")).toBe(0.5);
    expect(toSizePayload({ name: " Adult ", value: "12.5" })).toEqual({ name: "Adult", value: 12.5 });
  });
  it("rejects non-numbers and non-positive values", () => {
    for (const raw of ["", "abc", "1e3", "-2", "0", "1,5", "12in", "200.5"]) expect(parseSizeValue(raw)).toBeNull();
  });
  it("add-size link carries the current location as callback", () => {
    expect(addSizeHref("/images?addPrint=p1&page=2")).toBe("/sizes?addSize=true&callback=%2Fimages%3FaddPrint%3Dp1%26page%3D2");
  });
});
