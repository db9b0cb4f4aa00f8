import { describe, expect, it } from "vitest";
import { pageNumbers } from "./pagination";

describe("pageNumbers (at most 7 page numbers)", () => {
  it("shows every page when there are 7 or fewer", () => {
    expect(pageNumbers(1, 1)).toEqual([1]);
    expect(pageNumbers(5, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageNumbers(1, 0)).toEqual([]);
  });
  it("shows 1–7 while the current page is 4 or lower", () => {
    expect(pageNumbers(1, 20)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageNumbers(4, 20)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
  it("centres on the current page from page 5", () => {
    expect(pageNumbers(5, 20)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(pageNumbers(10, 20)).toEqual([7, 8, 9, 10, 11, 12, 13]);
  });
  it("never shows pages past the last one", () => {
    expect(pageNumbers(19, 20)).toEqual([14, 15, 16, 17, 18, 19, 20]);
    expect(pageNumbers(20, 20)).toEqual([14, 15, 16, 17, 18, 19, 20]);
    expect(pageNumbers(6, 8)).toEqual([2, 3, 4, 5, 6, 7, 8]);
  });
});
