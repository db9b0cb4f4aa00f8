import type { LibraryImage, Size } from "../../api/types";
import type { ListOptions } from "../../lib/urlList";

/** The library's sort dropdown (spec: Name, Upload date, Score, Most used). */
export const SORT_OPTIONS = [
  { value: "name", label: "Name" },
  { value: "createdAt", label: "Upload date" },
  { value: "score", label: "Score" },
  { value: "usedInPrint", label: "Most used" },
] as const;
export type ImageSortField = (typeof SORT_OPTIONS)[number]["value"];
export type SortDirection = "asc" | "desc";

export const IMAGE_PAGE_SIZE = 50;
/** What the page-size selector falls back to when it is cleared. */
export const CLEARED_PAGE_SIZE = 25;

/**
 * The library's list state in the URL: newest first until the user picks another sort, 50 per
 * page, 25 when the size selector was cleared, and the category chip as `imageCategory`.
 */
export const LIBRARY_LIST = {
  filters: ["imageCategory"],
  defaultLimit: IMAGE_PAGE_SIZE,
  clearedLimit: CLEARED_PAGE_SIZE,
  defaultSort: { sortBy: "createdAt", sort: "desc" },
  sortFields: SORT_OPTIONS.map((o) => o.value),
} as const satisfies ListOptions<"imageCategory">;

/** A tile whose file never made it (no path, or processing failed) is an upload-error tile. */
export const isBrokenImage = (image: LibraryImage) => image.status === "error" || !image.file?.path;

/** The preview once the queue job made it, the original until then. */
export const tileSource = (image: LibraryImage) => image.previewFile?.path ?? image.file?.path ?? null;

/** Names are shown and edited without their extension. */
export const withoutExtension = (name: string) => name.replace(/\.(jpe?g|png|svg)$/i, "");

// ---- Upload ---------------------------------------------------------------------

export const ACCEPTED_EXTENSIONS = ["jpeg", "jpg", "png", "svg"] as const;
export const ACCEPT_ATTRIBUTE = ".jpeg,.jpg,.png,.svg,image/jpeg,image/png,image/svg+xml";
export const UNSUPPORTED_FILE = "Only JPEG, PNG and SVG files can be uploaded";

/** The browser's first check (by name); the server decides by content. */
export function isAcceptedFile(file: { name: string }): boolean {
  const ext = file.name.split(".").pop()?.toLowerCase() ?? "";
  return file.name.includes(".") && (ACCEPTED_EXTENSIONS as readonly string[]).includes(ext);
}

/** The upload button is disabled with no files or while a new category is being typed. */
export const canUpload = (fileCount: number, customCategoryMode: boolean, uploading = false) =>
  fileCount > 0 && !customCategoryMode && !uploading;

/**
 * One request carries every file, in order, so the bytes sent so far say how far each
 * file is: files before the cursor are done, the one under it is partly sent.
 * Multipart overhead is spread proportionally. Returns percentages 0–100.
 */
export function perFileProgress(sizes: number[], loaded: number, total: number): number[] {
  const sum = sizes.reduce((a, b) => a + b, 0);
  if (sum === 0 || total <= 0) return sizes.map(() => (loaded >= total && total > 0 ? 100 : 0));
  const sent = Math.min(1, loaded / total) * sum;
  let before = 0;
  return sizes.map((size) => {
    const start = before;
    before += size;
    if (size === 0) return sent >= start ? 100 : 0;
    return Math.round(Math.max(0, Math.min(1, (sent - start) / size)) * 100);
  });
}

// ---- Print resolution -------------------------------------------------------------

export const MIN_PRINT_DPI = 150;

/**
 * Dots per inch the art will have when printed `size.value` inches wide: the width of
 * the visible (trimmed) art in source pixels over the printed width. Null when the
 * dimensions are not known yet (still processing) or the image is a vector: an SVG
 * scales without loss, so it has no pixel resolution to run out of.
 */
export function effectiveDpi(image: Pick<LibraryImage, "trim" | "width"> & { file?: LibraryImage["file"]; mime?: string }, size: Pick<Size, "value"> | null | undefined): number | null {
  if (isVector(image)) return null;
  const px = image.trim?.width ?? image.width;
  if (!size || !(size.value > 0) || !px || px <= 0) return null;
  return Math.round(px / size.value);
}

export const isVector = (image: { file?: LibraryImage["file"]; mime?: string }) =>
  image.mime ? image.mime === "image/svg+xml" : /\.svg$/i.test(image.file?.name ?? "");

export function lowResolutionWarning(dpi: number | null): string | null {
  return dpi !== null && dpi < MIN_PRINT_DPI ? `Low resolution: ${dpi} DPI at this size — may print blurry` : null;
}

/** Size dropdown label (spec): 'name (value Inches)'. */
export const sizeLabel = (size: Pick<Size, "name" | "value">) => `${size.name} (${size.value} Inches)`;

/** Quantity is a whole number of at least 1; Add to print needs it and a size. */
export const canAddToPrint = (quantity: number | null | undefined, sizeId: string | null | undefined) =>
  !!sizeId && typeof quantity === "number" && Number.isInteger(quantity) && quantity >= 1;
