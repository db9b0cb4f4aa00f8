// Pure print rules (status, processing checks, retention; see docs/prints.md). No React here.
import type { Dayjs } from "dayjs";
import type { Layout, LayoutWarning, PrintFile, PrintStatus } from "../../api/types";
import type { DraftItem } from "./manualDraft";

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

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Whole days (rounded up, never below 0) until the files are deleted at `filesExpireAt`,
 * the date the server sets when a print completes (it owns the retention period).
 */
export function retentionDaysLeft(filesExpireAt: string | null | undefined, now: Date = new Date()): number | null {
  if (!filesExpireAt) return null;
  const expires = new Date(filesExpireAt).getTime();
  if (Number.isNaN(expires)) return null;
  return Math.max(0, Math.ceil((expires - now.getTime()) / DAY_MS));
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
/**
 * The print detail's process button: 'Process Print' while the print can be processed (a
 * Deleted print's files can be made again), otherwise the spec's disabled 'Already Processed'.
 */
export const detailProcessLabel = (status: PrintStatus) => (canProcess(status) ? "Process Print" : "Already Processed");
/** Items (image, size, quantity, delete) are editable only in In Draft or Deleted (and Error). */
export const canEditItems = canProcess;
export const canAddItem = (status: PrintStatus) => status !== "Completed" && canEditItems(status);
/** Delete is allowed only from Completed, In Draft or Deleted (and Error). */
export const canDelete = (status: PrintStatus) => status === "Completed" || canProcess(status);
/** Plain Delete (files only) is hidden once Deleted, and a failed print has no files. */
export const showFilesOnlyDelete = (status: PrintStatus) => status === "Completed" || status === "In Draft";
export const canShareFile = (status: PrintStatus) => status === "Completed";

/** The first message that blocks processing, or null (an item whose image or size was removed has it null). */
export function missingItemMessage(items: { image: unknown; size: unknown }[]): string | null {
  if (items.some((i) => !i.image)) return MSG.imageMissing;
  if (items.some((i) => !i.size)) return MSG.sizeMissing;
  return null;
}

export const totalQuantity = (items: { quantity: number }[]) => items.reduce((sum, i) => sum + (Number(i.quantity) || 0), 0);

/**
 * What processing will cost: the live layout's figure when there is one, else one credit
 * per copy (ARCHITECTURE). The print's own creditCost is 0 until it was first processed.
 */
export const creditCostOf = (print: { printItems: { quantity: number }[] }, layout?: { creditCost: number } | null) =>
  layout && Number.isFinite(layout.creditCost) ? layout.creditCost : totalQuantity(print.printItems);

/**
 * Why the live layout says the items cannot be processed (the first blocking item's
 * message, e.g. a design wider than the sheet), or null. Unknown until the layout arrives:
 * the server checks again before it charges anything.
 */
export function processBlockedReason(layout: Pick<Layout, "canProcess" | "warnings"> | null | undefined): string | null {
  if (!layout || layout.canProcess) return null;
  return layoutProblems(layout)[0]?.message ?? "An item cannot be processed.";
}

/**
 * The layout's warnings that block processing: every code but low resolution (the
 * server leaves those items out of the layout and the cost).
 */
export const layoutProblems = (layout: Pick<Layout, "warnings"> | null | undefined): LayoutWarning[] =>
  (layout?.warnings ?? []).filter((w) => w.code !== "low_resolution");

/** Designs that print below 150 DPI, once per image, from the layout's items. */
export function lowResolutionImages(layout: Pick<Layout, "items"> | null | undefined): { imageId: string; effectiveDpi: number }[] {
  const out = new Map<string, number>();
  for (const i of layout?.items ?? []) if (i.lowResolution && i.effectiveDpi !== null) out.set(i.imageId, i.effectiveDpi);
  return [...out].map(([imageId, effectiveDpi]) => ({ imageId, effectiveDpi }));
}

/** The layout's blocking messages by item id (for the items table). */
export function problemsByItem(layout: Pick<Layout, "warnings"> | null | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of layoutProblems(layout)) out.set(p.itemId, [...(out.get(p.itemId) ?? []), p.message]);
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

/** A range picker's value as the startDate/endDate filters (both cleared unless both ends are set). */
export function dateRangeFilters(range: readonly [Dayjs | null, Dayjs | null] | null): { startDate?: string; endDate?: string } {
  const [start, end] = range ?? [null, null];
  return start && end ? { startDate: start.format("YYYY-MM-DD"), endDate: end.format("YYYY-MM-DD") } : { startDate: undefined, endDate: undefined };
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

/**
 * A file path read back from the address bar (the success modal's `filePath`): only a
 * path on our own origin is linked, so a crafted link cannot smuggle in another site or
 * a `javascript:` URL. The server's file paths all start with `/api/`.
 */
export const ownFilePath = (path: string | null | undefined): string | undefined =>
  path && path.startsWith("/api/") && !path.includes("\\") ? path : undefined;

/** The processing job's stages in the seller's words (the server sends trim, layout, render, store, done). */
const STAGE_TEXT: Record<string, string> = {
  trim: "Preparing the designs",
  layout: "Arranging the designs on the sheets",
  render: "Rendering the sheets",
  store: "Saving the files",
  done: "Done",
};

/** What the processing overlay says under its bar: the stage in words, "Waiting to start" before the first event. */
export const stageText = (stage: string | undefined) => (stage ? (STAGE_TEXT[stage] ?? stage) : "Waiting to start");
