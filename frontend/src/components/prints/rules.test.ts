import dayjs from "dayjs";
import { describe, expect, it } from "vitest";
import {
  MSG, addDraftItem, canAddItem, canDelete, canEditItems, canProcess, canShareFile, creditCostOf,
  missingItemMessage, processLabel, lowResolutionImages, retentionColor, retentionDaysLeft, retentionText, dateRangeFilters, showFilesOnlyDelete,
  successModalParams, totalQuantity, processBlockedReason, problemsByItem, draftItemId, stageText, detailProcessLabel,
} from "./rules";
import { parseListState } from "../../lib/urlList";
import type { Layout, PrintStatus } from "../../api/types";

const file = (path: string) => ({ format: "png" as const, sheet: 1, path, previewPath: `${path}/preview`, widthPx: 6600, heightPx: 1050, lengthIn: 3.5, bytes: 1 });
const NOW = new Date("2025-03-10T12:00:00Z");
const inDays = (d: number) => new Date(NOW.getTime() + d * 86_400_000).toISOString();

describe("retention (until the server's filesExpireAt)", () => {
  it("counts whole days left, rounding up, never below 0", () => {
    expect(retentionDaysLeft(inDays(7), NOW)).toBe(7);
    expect(retentionDaysLeft(inDays(6.5), NOW)).toBe(7);
    expect(retentionDaysLeft(inDays(6), NOW)).toBe(6);
    expect(retentionDaysLeft(inDays(0.1), NOW)).toBe(1);
    expect(retentionDaysLeft(inDays(0), NOW)).toBe(0);
    expect(retentionDaysLeft(inDays(-23), NOW)).toBe(0);
    // the period is the server's: a longer one shows as it is
    expect(retentionDaysLeft(inDays(30), NOW)).toBe(30);
    expect(retentionDaysLeft(null, NOW)).toBeNull();
    expect(retentionDaysLeft("not a date", NOW)).toBeNull();
  });
  it("is red at 2 days or less, amber at 5 or less, otherwise green", () => {
    expect([0, 1, 2].map(retentionColor)).toEqual(["red", "red", "red"]);
    expect([3, 4, 5].map(retentionColor)).toEqual(["amber", "amber", "amber"]);
    expect([6, 7].map(retentionColor)).toEqual(["green", "green"]);
  });
  it("says the file has been deleted at 0 days", () => {
    expect(retentionText(0)).toBe(MSG.fileDeleted);
    expect(retentionText(1)).toBe("1 day left");
    expect(retentionText(5)).toBe("5 days left");
  });
});

describe("status rules", () => {
  const all: PrintStatus[] = ["In Draft", "Processing", "Completed", "Deleted", "Cancelled", "Error"];
  it("labels Process only for In Draft (and a failed print); Deleted can re-process", () => {
    expect(all.map(processLabel)).toEqual(["Process", "Already Processed", "Already Processed", "Already Processed", "Already Processed", "Process"]);
    expect(all.filter(canProcess)).toEqual(["In Draft", "Deleted", "Error"]);
  });
  it("edits items only in In Draft or Deleted (and Error), adds none when Completed", () => {
    expect(all.filter(canEditItems)).toEqual(["In Draft", "Deleted", "Error"]);
    expect(canAddItem("Completed")).toBe(false);
    expect(canAddItem("In Draft")).toBe(true);
  });
  it("deletes from Completed, In Draft or Deleted; plain Delete hidden once Deleted", () => {
    expect(all.filter(canDelete)).toEqual(["In Draft", "Completed", "Deleted", "Error"]);
    expect(all.filter(showFilesOnlyDelete)).toEqual(["In Draft", "Completed"]);
  });
  it("shares files only when Completed", () => {
    expect(all.filter(canShareFile)).toEqual(["Completed"]);
  });
});

describe("process checks", () => {
  const image = { _id: "i", name: "a" };
  const size = { _id: "s", name: "S", value: 3 };
  it("names the missing image first, then the missing size", () => {
    expect(missingItemMessage([{ image, size }])).toBeNull();
    expect(missingItemMessage([{ image: null, size: null }])).toBe(MSG.imageMissing);
    expect(missingItemMessage([{ image, size: null }])).toBe(MSG.sizeMissing);
  });
  it("costs one credit per copy unless the server says otherwise", () => {
    const items = [{ quantity: 3 }, { quantity: 4 }];
    expect(totalQuantity(items)).toBe(7);
    expect(creditCostOf({ printItems: items })).toBe(7);
    expect(creditCostOf({ printItems: items }, { creditCost: 9 })).toBe(9);
  });
  it("adds quantity when the same image and size are added again", () => {
    let items = addDraftItem([], { image, size, quantity: 2 });
    items = addDraftItem(items, { image, size, quantity: 3 });
    items = addDraftItem(items, { image, size: { ...size, _id: "s2" }, quantity: 1 });
    expect(items.map((i) => [i.key, i.quantity])).toEqual([["i:s", 5], ["i:s2", 1]]);
  });
});

describe("list and modal URLs", () => {
  it("a range becomes startDate/endDate, and a half-cleared one removes both", () => {
    expect(dateRangeFilters([dayjs("2025-01-01"), dayjs("2025-01-31")])).toEqual({ startDate: "2025-01-01", endDate: "2025-01-31" });
    expect(dateRangeFilters([dayjs("2025-01-01"), null])).toEqual({ startDate: undefined, endDate: undefined });
    expect(dateRangeFilters(null)).toEqual({ startDate: undefined, endDate: undefined });
  });
  it("never sends modal parameters as list filters", () => {
    const p = successModalParams(new URLSearchParams("status=Completed&printWarningModal=5"), [file("a.png"), file("b.png")]);
    expect(p.getAll("filePath")).toEqual(["a.png", "b.png"]);
    expect(p.has("printWarningModal")).toBe(false);
    expect(parseListState(p, { filters: ["status", "startDate", "endDate"] }).filters).toEqual({ status: "Completed" });
  });
});

describe("what the live layout says", () => {
  const tooLarge = { itemId: "it2", code: "too_large" as const, message: 'Design "Banner" is 40 x 24 in and does not fit a 22 x 100 in sheet with 0.25 in margins.' };
  const lowRes = { itemId: "it1", code: "low_resolution" as const, message: "Low resolution" };
  const item = (itemId: string, imageId: string, effectiveDpi: number | null, lowResolution: boolean) =>
    ({ itemId, imageId, effectiveDpi, lowResolution, printedWidth: 3, printedHeight: 2, quantity: 1 });
  it("gives the reason Process is disabled, once the layout is known; low resolution never blocks", () => {
    expect(processBlockedReason(undefined)).toBeNull();
    expect(processBlockedReason({ canProcess: true, warnings: [lowRes] })).toBeNull();
    expect(processBlockedReason({ canProcess: false, warnings: [lowRes, tooLarge] })).toBe(tooLarge.message);
  });
  it("lists blocking warnings by item, for the items table", () => {
    const byItem = problemsByItem({ warnings: [lowRes, tooLarge] });
    expect(byItem.get("it2")).toEqual([tooLarge.message]);
    expect(byItem.has("it1")).toBe(false);
    expect(problemsByItem(undefined).size).toBe(0);
    expect(draftItemId(1)).toBe("draft-1");
  });
  it("names each low-resolution design once, from the layout's items", () => {
    const items: Layout["items"] = [item("a1", "img-a", 96.5, true), item("a2", "img-a", 96.5, true), item("b", "img-b", 300, false), item("c", "img-svg", null, false)];
    expect(lowResolutionImages({ items })).toEqual([{ imageId: "img-a", effectiveDpi: 96.5 }]);
    expect(lowResolutionImages(undefined)).toEqual([]);
  });
});

describe("the processing overlay's stage text", () => {
  it("says what the job does in words, and that it waits before the first event", () => {
    expect(stageText(undefined)).toBe("Waiting to start");
    expect(["trim", "layout", "render", "store"].map(stageText)).toEqual([
      "Preparing the designs", "Arranging the designs on the sheets", "Rendering the sheets", "Saving the files",
    ]);
  });
});

describe("the print detail's process button", () => {
  it("reads 'Already Processed' once the print is processed or processing", () => {
    const all: PrintStatus[] = ["In Draft", "Processing", "Completed", "Deleted", "Error"];
    expect(all.map(detailProcessLabel)).toEqual(["Process Print", "Already Processed", "Already Processed", "Process Print", "Process Print"]);
  });
});
