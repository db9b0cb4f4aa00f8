import { describe, expect, it } from "vitest";
import {
  canAddToPrint,
  canUpload,
  effectiveDpi,
  isAcceptedFile,
  isBrokenImage,
  LIBRARY_LIST,
  lowResolutionWarning,
  perFileProgress,
  sizeLabel,
  tileSource,
  withoutExtension,
} from "./library";
import type { LibraryImage } from "../../api/types";
import { parseListState, toRefineArgs } from "../../lib/urlList";

const state = (query: string) => parseListState(new URLSearchParams(query), LIBRARY_LIST);

const image = (over: Partial<LibraryImage> = {}): LibraryImage => ({
  _id: "i1",
  name: "tiger",
  file: { path: "/api/files/i1", name: "tiger.png" },
  previewFile: null,
  imageCategory: null,
  score: 0,
  usedInPrint: 0,
  width: 3000,
  height: 2000,
  trim: { left: 10, top: 10, width: 2400, height: 1800 },
  status: "ready",
  mime: "image/png",
  bytes: 1000,
  error: null,
  deletedAt: null,
  createdAt: "2024-01-01T00:00:00Z",
  updatedAt: "2024-01-01T00:00:00Z",
  ...over,
});

describe("sort options ↔ URL parameters", () => {
  it("defaults to newest first", () => {
    expect(state("")).toMatchObject({ sortBy: "createdAt", sort: "desc" });
  });
  it("reads each option and ignores unknown keys", () => {
    for (const key of ["name", "createdAt", "score", "usedInPrint"]) {
      expect(state(`sortBy=${key}&sort=asc`)).toMatchObject({ sortBy: key, sort: "asc" });
    }
    expect(state("sortBy=password&sort=sideways")).toMatchObject({ sortBy: "createdAt", sort: "desc" });
  });
});

describe("list query", () => {
  it("defaults to 50 per page and falls back to 25 when the selector was cleared", () => {
    expect(state("").limit).toBe(50);
    expect(state("limit=100").limit).toBe(100);
    expect(state("limit=").limit).toBe(25);
  });
  it("sends search, category, sort and paging but never modal parameters", () => {
    const args = toRefineArgs(state("search=%20cat%20&imageCategory=c1&page=2&limit=25&editImage=i1&addPrint=p1&callback=%2Fx"));
    expect(args).toEqual({
      pagination: { currentPage: 2, pageSize: 25, mode: "server" },
      sorters: [{ field: "createdAt", order: "desc" }],
      filters: [
        { field: "imageCategory", operator: "eq", value: "c1" },
        { field: "search", operator: "contains", value: "cat" },
      ],
    });
  });
});

describe("tiles", () => {
  it("show the original until the preview exists", () => {
    expect(tileSource(image())).toBe("/api/files/i1");
    expect(tileSource(image({ previewFile: { path: "/api/files/i1/preview" } }))).toBe("/api/files/i1/preview");
  });
  it("an image without a file path, or whose processing failed, is an upload-error tile", () => {
    expect(isBrokenImage(image())).toBe(false);
    expect(isBrokenImage(image({ file: null as unknown as LibraryImage["file"] }))).toBe(true);
    expect(isBrokenImage(image({ status: "error" }))).toBe(true);
  });
  it("names are shown without their extension", () => {
    expect(withoutExtension("tiger.PNG")).toBe("tiger");
    expect(withoutExtension("my.logo.svg")).toBe("my.logo");
    expect(withoutExtension("notes.txt")).toBe("notes.txt");
  });
});

describe("upload validation", () => {
  it("accepts jpeg, jpg, png and svg by name only", () => {
    for (const name of ["a.jpeg", "b.JPG", "c.png", "d.svg"]) expect(isAcceptedFile({ name })).toBe(true);
    for (const name of ["a.gif", "b.exe", "png", "c.png.exe", "webp.webp"]) expect(isAcceptedFile({ name })).toBe(false);
  });
  it("the upload button needs files and no category being typed", () => {
    expect(canUpload(0, false)).toBe(false);
    expect(canUpload(2, true)).toBe(false);
    expect(canUpload(2, false, true)).toBe(false);
    expect(canUpload(2, false)).toBe(true);
  });
  it("splits one request's progress over its files in order", () => {
    expect(perFileProgress([100, 100], 0, 220)).toEqual([0, 0]);
    expect(perFileProgress([100, 300], 110, 440)).toEqual([100, 0]);
    expect(perFileProgress([100, 300], 220, 440)).toEqual([100, 33]);
    expect(perFileProgress([100, 300], 440, 440)).toEqual([100, 100]);
    expect(perFileProgress([0, 10], 5, 10)).toEqual([100, 50]);
  });
});

describe("effective DPI", () => {
  it("is the trimmed width in pixels over the printed width in inches", () => {
    expect(effectiveDpi(image(), { value: 12 })).toBe(200);
    expect(effectiveDpi(image({ trim: null }), { value: 12 })).toBe(250);
  });
  it("is unknown without a size, without dimensions, or for vectors", () => {
    expect(effectiveDpi(image(), null)).toBeNull();
    expect(effectiveDpi(image(), { value: 0 })).toBeNull();
    expect(effectiveDpi(image({ trim: null, width: null }), { value: 10 })).toBeNull();
    expect(effectiveDpi(image({ mime: "image/svg+xml", file: { path: "/f", name: "logo.svg" } }), { value: 10 })).toBeNull();
  });
  it("warns below 150 DPI", () => {
    expect(lowResolutionWarning(149)).toBe("Low resolution: 149 DPI at this size — may print blurry");
    expect(lowResolutionWarning(150)).toBeNull();
    expect(lowResolutionWarning(null)).toBeNull();
    expect(lowResolutionWarning(effectiveDpi(image(), { value: 20 }))).toMatch(/^Low resolution: 120 DPI/);
  });
});

describe("print side panel", () => {
  it("labels sizes as 'name (value Inches)'", () => {
    expect(sizeLabel({ name: "Adult front", value: 11.5 })).toBe("Adult front (11.5 Inches)");
  });
  it("Add to print needs a whole quantity of at least 1 and a size", () => {
    expect(canAddToPrint(1, "s1")).toBe(true);
    expect(canAddToPrint(0, "s1")).toBe(false);
    expect(canAddToPrint(1.5, "s1")).toBe(false);
    expect(canAddToPrint(null, "s1")).toBe(false);
    expect(canAddToPrint(3, null)).toBe(false);
  });
});
