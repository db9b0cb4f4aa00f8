// Pure print rules (spec §4 Print status, §5 Process print, §9 retention). No React here.
import type { ApiPrint, DraftItem, Layout, Print, PrintFile, PrintStatus } from "./types";

export const MSG = {
  imageMissing: "Image is missing. Please add the missing item.",
  sizeMissing: "Size is missing. Please add the missing item.",
  imageOrSizeMissing: "Image or Size is missing. Please add the missing item.",
  processing:
    "Your images are being processed. Please wait for the process to complete. Don't worry, we will inform you by email after the process is complete.",
  created: "Print Created Successfully",
  deleted: "Print Deleted Successfully",
  linkCopied: "Link copied to clipboard",
  noPrints: "No prints found.",
  fileDeleted: "The file has been deleted",
} as const;

export const RETENTION_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days until the files of a print printed at `printedAt` are deleted (never below 0). */
export function retentionDaysLeft(printedAt: string | Date | null | undefined, now: Date = new Date()): number | null {
  if (!printedAt) return null;
  const printed = new Date(printedAt).getTime();
  if (Number.isNaN(printed)) return null;
  const left = Math.ceil((printed + RETENTION_DAYS * DAY_MS - now.getTime()) / DAY_MS);
  return Math.max(0, Math.min(RETENTION_DAYS, left));
}

export type RetentionColor = "red" | "amber" | "green";
/** Red at 2 days or less, amber at 5 or less, otherwise green. */
export function retentionColor(daysLeft: number): RetentionColor {
  if (daysLeft <= 2) return "red";
  if (daysLeft <= 5) return "amber";
  return "green";
}

export function retentionText(daysLeft: number): string {
  if (daysLeft <= 0) return MSG.fileDeleted;
  return `${daysLeft} ${daysLeft === 1 ? "day" : "days"} left`;
}

// Error (a job that failed for good, charge refunded) is our addition to the spec's
// statuses; the server treats it like a draft (backend/src/prints/prints.rules.ts).

/** Process is allowed only from In Draft or Deleted (and Error). */
export const canProcess = (status: PrintStatus) => status === "In Draft" || status === "Deleted" || status === "Error";
/** 'Process' for In Draft (and a failed print), otherwise 'Already Processed' (still clickable for Deleted). */
export const processLabel = (status: PrintStatus) => (status === "In Draft" || status === "Error" ? "Process" : "Already Processed");
/** Items (image, size, quantity, delete) are editable only in In Draft or Deleted (and Error). */
export const canEditItems = canProcess;
export const canAddItem = (status: PrintStatus) => status !== "Completed" && canEditItems(status);
/** Delete is allowed only from Completed, In Draft or Deleted (and Error). */
export const canDelete = (status: PrintStatus) => status === "Completed" || canProcess(status);
/** Plain Delete (files only) is hidden once Deleted, and a failed print has no files. */
export const showFilesOnlyDelete = (status: PrintStatus) => status === "Completed" || status === "In Draft";
export const canShareFile = (status: PrintStatus) => status === "Completed";

/** The first message that blocks processing, or null. */
export function missingItemMessage(items: { imageId: unknown; sizeId: unknown }[]): string | null {
  if (items.some((i) => !i.imageId)) return MSG.imageMissing;
  if (items.some((i) => !i.sizeId)) return MSG.sizeMissing;
  return null;
}

export const totalQuantity = (items: { quantity: number }[]) => items.reduce((sum, i) => sum + (Number(i.quantity) || 0), 0);

/**
 * What processing will cost: the live layout's figure when there is one, else one credit
 * per copy (ARCHITECTURE). The print's own creditCost is 0 until it was first processed.
 */
export const creditCostOf = (print: Pick<Print, "printItems">, layout?: { creditCost: number } | null) =>
  layout && Number.isFinite(layout.creditCost) ? layout.creditCost : totalQuantity(print.printItems);

/**
 * Why the live layout says the items cannot be processed (the first blocking item's
 * message, e.g. a design wider than the sheet), or null. Unknown until the layout arrives:
 * the server checks again before it charges anything.
 */
export function processBlockedReason(layout: Pick<Layout, "canProcess" | "problems"> | null | undefined): string | null {
  if (!layout || layout.canProcess) return null;
  return layout.problems[0]?.message ?? "An item cannot be processed.";
}

/** The layout's blocking messages by item id (for the items table). */
export function problemsByItem(layout: Pick<Layout, "problems"> | null | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of layout?.problems ?? []) out.set(p.itemId, [...(out.get(p.itemId) ?? []), p.message]);
  return out;
}

/** The id the draft preview gives the n-th line of an unsaved print (POST /print/preview). */
export const draftItemId = (index: number) => `draft-${index}`;

/** Adding the same image and size again adds to that line's quantity. */
export function addDraftItem(items: DraftItem[], next: Omit<DraftItem, "key">): DraftItem[] {
  const key = `${next.image._id}:${next.size._id}`;
  const existing = items.find((i) => i.key === key);
  if (existing) return items.map((i) => (i.key === key ? { ...i, quantity: i.quantity + next.quantity } : i));
  return [...items, { ...next, key }];
}

/**
 * The API sends each item's ids plus the objects as `image` / `size`; the screens read
 * `imageId` / `sizeId` as the objects (spec §3), null when missing.
 */
export function normalizePrint(raw: ApiPrint | Print): Print {
  const obj = <O>(v: unknown): O | null => (v && typeof v === "object" ? (v as O) : null);
  return {
    ...raw,
    printItems: (raw.printItems ?? []).map((i) => {
      const { image, size, ...rest } = i as ApiPrint["printItems"][number];
      return { ...rest, imageId: obj(image) ?? obj(i.imageId), sizeId: obj(size) ?? obj(i.sizeId) };
    }),
  };
}

/** `fileId` is one file or a list (spec §3). */
export const filesOf = (fileId: PrintFile[] | PrintFile | null | undefined): PrintFile[] => (!fileId ? [] : Array.isArray(fileId) ? fileId : [fileId]);

/** Stored paths are served by the API's files route; absolute URLs pass through. */
export function fileUrl(path: string | null | undefined): string | undefined {
  if (!path) return undefined;
  if (/^(https?:|blob:|data:)/.test(path) || path.startsWith("/")) return path;
  return `/api/files/${path.split("/").map(encodeURIComponent).join("/")}`;
}

/** Prints list filters (spec: Status, Date range, Type); everything else in the URL is kept. */
export function setDateRange(params: URLSearchParams, range: [string, string] | null): URLSearchParams {
  const next = new URLSearchParams(params);
  if (range) {
    next.set("startDate", range[0]);
    next.set("endDate", range[1]);
  } else {
    next.delete("startDate");
    next.delete("endDate");
  }
  next.set("page", "1");
  return next;
}

/** The success modal's URL: printSuccessModal=true plus one filePath per sheet file. */
export function successModalParams(params: URLSearchParams, files: PrintFile[]): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete("printWarningModal");
  next.delete("filePath");
  next.set("printSuccessModal", "true");
  for (const f of files) next.append("filePath", f.path);
  return next;
}
