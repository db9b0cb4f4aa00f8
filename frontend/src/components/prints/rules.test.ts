import { describe, expect, it } from "vitest";
import {
  MSG, addDraftItem, canAddItem, canDelete, canEditItems, canProcess, canShareFile, creditCostOf, fileUrl, filesOf,
  missingItemMessage, normalizePrint, processLabel, retentionColor, retentionDaysLeft, retentionText, setDateRange, showFilesOnlyDelete,
  successModalParams, totalQuantity, processBlockedReason, problemsByItem, draftItemId,
} from "./rules";
import { parseListState } from "../../lib/urlList";
import type { PrintStatus } from "./types";

const file = (path: string) => ({ format: "png" as const, sheet: 1, path, previewPath: `${path}/preview`, widthPx: 6600, heightPx: 1050, lengthIn: 3.5, bytes: 1 });
const NOW = new Date("2025-03-10T12:00:00Z");
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString();

describe("retention (7 days after printedAt)", () => {
  it("counts whole days left, rounding up, never below 0", () => {
    expect(retentionDaysLeft(daysAgo(0), NOW)).toBe(7);
    expect(retentionDaysLeft(daysAgo(0.5), NOW)).toBe(7);
    expect(retentionDaysLeft(daysAgo(1), NOW)).toBe(6);
    expect(retentionDaysLeft(daysAgo(6.9), NOW)).toBe(1);
    expect(retentionDaysLeft(daysAgo(7), NOW)).toBe(0);
    expect(retentionDaysLeft(daysAgo(30), NOW)).toBe(0);
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
    expect(missingItemMessage([{ imageId: image, sizeId: size }])).toBeNull();
    expect(missingItemMessage([{ imageId: null, sizeId: null }])).toBe(MSG.imageMissing);
    expect(missingItemMessage([{ imageId: image, sizeId: null }])).toBe(MSG.sizeMissing);
  });
  it("costs one credit per copy unless the server says otherwise", () => {
    const items = [{ _id: "1", imageId: image, sizeId: size, quantity: 3, orderItemId: null }, { _id: "2", imageId: image, sizeId: size, quantity: 4, orderItemId: null }];
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

describe("print from the API", () => {
  it("reads item objects from image/size, null when missing", () => {
    const raw = { _id: "p", type: "Manual", status: "In Draft", printedAt: null, fileId: [], createdAt: "", printItems: [
      { _id: "1", imageId: "i", image: { _id: "i", name: "a" }, sizeId: "s", size: { _id: "s", name: "S", value: 3 }, quantity: 1, orderItemId: null },
      { _id: "2", imageId: "gone", image: null, sizeId: null, size: null, quantity: 1, orderItemId: null },
    ] } as any;
    const p = normalizePrint(raw);
    expect(p.printItems[0].imageId?.name).toBe("a");
    expect(p.printItems[0].sizeId?.value).toBe(3);
    expect(p.printItems[1].imageId).toBeNull();
    expect(missingItemMessage(p.printItems)).toBe(MSG.imageMissing);
  });
});

describe("files and URLs", () => {
  it("reads fileId as one file or a list", () => {
    expect(filesOf(null)).toEqual([]);
    expect(filesOf(file("a.png"))).toEqual([file("a.png")]);
    expect(filesOf([file("a.png"), file("b.png")])).toHaveLength(2);
  });
  it("serves stored keys through the API and passes URLs through", () => {
    expect(fileUrl("u1/prints/p 1/sheet-1.png")).toBe("/api/files/u1/prints/p%201/sheet-1.png");
    expect(fileUrl("/api/files/x.png")).toBe("/api/files/x.png");
    expect(fileUrl("https://cdn.example/x.png")).toBe("https://cdn.example/x.png");
    expect(fileUrl(undefined)).toBeUndefined();
  });
  it("writes the date range as startDate/endDate and keeps other filters", () => {
    const p = setDateRange(new URLSearchParams("status=Completed&type=Manual&page=3"), ["2025-01-01", "2025-01-31"]);
    expect(p.toString()).toBe("status=Completed&type=Manual&page=1&startDate=2025-01-01&endDate=2025-01-31");
    expect(parseListState(p).filters).toEqual({ status: "Completed", type: "Manual", startDate: "2025-01-01", endDate: "2025-01-31" });
    expect(setDateRange(p, null).has("startDate")).toBe(false);
  });
  it("never sends modal parameters as list filters", () => {
    const p = successModalParams(new URLSearchParams("status=Completed&printWarningModal=5"), [file("a.png"), file("b.png")]);
    expect(p.getAll("filePath")).toEqual(["a.png", "b.png"]);
    expect(p.has("printWarningModal")).toBe(false);
    expect(parseListState(p).filters).toEqual({ status: "Completed" });
  });
});

describe("items that block processing", () => {
  const problem = { itemId: "it2", code: "too_large", message: 'Design "Banner" is 40 x 24 in and does not fit a 22 x 100 in sheet with 0.25 in margins.' };
  it("give the reason Process is disabled, once the layout is known", () => {
    expect(processBlockedReason(undefined)).toBeNull();
    expect(processBlockedReason({ canProcess: true, problems: [] })).toBeNull();
    expect(processBlockedReason({ canProcess: false, problems: [problem] })).toBe(problem.message);
  });
  it("are listed by item, for the items table", () => {
    expect(problemsByItem({ problems: [problem] }).get("it2")).toEqual([problem.message]);
    expect(problemsByItem(undefined).size).toBe(0);
    expect(draftItemId(1)).toBe("draft-1");
  });
});
