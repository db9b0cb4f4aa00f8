// Print shapes, aliased from the schema generated from docs/openapi.json
// (`npm run api-types -w frontend`) so they cannot drift from the API. `Print` is the
// view the screens use: items carry their image and size objects as imageId / sizeId
// (spec §3), see normalizePrint in rules.ts.
import type { components } from "../../api/schema";

type Schemas = components["schemas"];

/** As GET /api/print/{id} sends it. */
export type ApiPrint = Schemas["PrintDto"];
export type PrintStatus = ApiPrint["status"];
export type PrintType = ApiPrint["type"];
export const PRINT_STATUSES: PrintStatus[] = ["In Draft", "Processing", "Completed", "Deleted", "Cancelled", "Error"];
export const PRINT_TYPES: PrintType[] = ["Manual", "Etsy", "WooCommerce"];

export type FileRef = Schemas["FileRefDto"];
export type PrintFile = Schemas["PrintFileDto"];
export type PrintSize = Schemas["PrintSizeDto"];
/** A design as a print shows it; library images (ImageDto) fit this too. */
export type PrintImage = Pick<Schemas["PrintImageDto"], "_id" | "name"> &
  Partial<Pick<Schemas["PrintImageDto"], "width" | "height" | "trim">> & { file?: FileRef | null; previewFile?: FileRef | null };

export type PrintItem = Omit<Schemas["PrintItemDto"], "imageId" | "sizeId" | "image" | "size"> & {
  imageId: PrintImage | null;
  sizeId: PrintSize | null;
};

export type Print = Omit<ApiPrint, "printItems"> & { printItems: PrintItem[] };

/** The engine's sheet settings (inches; DPI; rotation allowed). */
export type SheetSettings = Schemas["SheetSettingsDto"];
export type SheetPreset = Schemas["SheetPresetDto"];

// The server's defaults (backend/src/sheet-settings); used only until GET /sheet-settings answers.
export const DEFAULT_SHEET_SETTINGS: SheetSettings = { width: 22, maxLength: 100, gap: 0.25, margin: 0.25, dpi: 300, rotate: true, nesting: "shape" };

export type Nesting = SheetSettings["nesting"];
export type Rotation = 0 | 90 | 180 | 270;

export interface LayoutPlacement {
  imageId: string;
  x: number;
  y: number;
  /** Footprint on the sheet (after rotation), inches. */
  width: number;
  height: number;
  rotated: boolean;
  /** Clockwise turn of the design. */
  rotation: Rotation;
}

/** With true-shape nesting: the film it saves against rectangles (inches, 0..1). */
export interface ShapeSaving {
  boxLength: number;
  savedLength: number;
  savedFraction: number;
}

export interface LayoutSheet {
  length: number;
  widthIn: number;
  placements: LayoutPlacement[];
}

export interface Layout {
  sheets: LayoutSheet[];
  /** 0..1 */
  density: number;
  creditCost: number;
  /** Designs below 150 effective DPI. */
  warnings: { imageId: string; effectiveDpi: number }[];
  /** Items that block processing (image not ready, design larger than the sheet, …), left out of the layout and the cost. */
  problems: LayoutProblem[];
  /** False when some item blocks processing. */
  canProcess: boolean;
  /** The stored layout a Completed print was rendered with (not laid out again). */
  rendered: boolean;
  /** Present when the layout was nested by true shape (not for a rendered layout). */
  shapeSaving: ShapeSaving | null;
}

export interface LayoutProblem {
  /** The print item's id; `draft-<n>` for the n-th line of an unsaved print. */
  itemId: string;
  code: string;
  message: string;
}

/** A line of the manual-create table before the print exists. */
export interface DraftItem {
  key: string;
  image: PrintImage;
  size: PrintSize;
  quantity: number;
}

/** Socket payloads (spec §4 Realtime). */
// Socket payloads are not in the OpenAPI document.
export interface PrintEvent {
  printId: string;
  status: PrintStatus;
  fileId?: PrintFile[] | null;
  message?: string;
}
export interface PrintProgressEvent {
  printId: string;
  percent: number;
  stage?: string;
}
