// Names for the shapes the API sends, aliased from the schema generated from
// docs/openapi.json (`npm run openapi`). Never write a response shape by hand: alias it
// here, so a changed DTO breaks the build instead of a screen.
import type { components } from "./schema";

type Schemas = components["schemas"];

// ---- Users and auth
export type User = Schemas["UserDto"];
export type Role = User["role"];
export type UserStatus = User["status"];
export type AuthConfig = Schemas["AuthConfigDto"];
export type CaptchaProvider = AuthConfig["captcha"]["provider"];

// ---- Images and sizes
export type LibraryImage = Schemas["ImageDto"];
export type ImageStatus = LibraryImage["status"];
export type ImageCategory = Schemas["ImageCategoryDto"];
export type Size = Schemas["SizeDto"];
/** Per-file outcome of a bulk upload: `{data: stored images, errors: refused files, message}`. */
export type UploadResult = Schemas["UploadResponse"];

// ---- Prints
export type Print = Schemas["PrintDto"];
export type PrintStatus = Print["status"];
export type PrintType = Print["type"];
export type PrintItem = Schemas["PrintItemDto"];
export type PrintFile = Schemas["PrintFileDto"];
export type PrintSize = Schemas["PrintSizeDto"];
export type PrintImage = Schemas["PrintImageDto"];
export type PrintItemInput = Schemas["PrintItemInput"];

export const PRINT_STATUSES = ["In Draft", "Processing", "Completed", "Deleted", "Cancelled", "Error"] as const satisfies readonly PrintStatus[];
export const PRINT_TYPES = ["Manual", "Etsy", "WooCommerce"] as const satisfies readonly PrintType[];

// ---- Sheet settings and the live layout (POST /api/print/{id}/preview)
export type SheetSettings = Schemas["SheetSettingsDto"];
export type SheetSettingsInput = Schemas["SheetSettingsInput"];
export type SheetPreset = Schemas["SheetPresetDto"];
export type Nesting = SheetSettings["nesting"];
export type Layout = Schemas["PrintPreviewDto"];
export type LayoutSheet = Schemas["PreviewSheetDto"];
export type LayoutPlacement = Schemas["PreviewPlacementDto"];
export type LayoutWarning = Schemas["PreviewWarningDto"];
export type Rotation = LayoutPlacement["rotation"];
export type ShapeSaving = Schemas["ShapeSavingDto"];

export function fullName(user: Pick<User, "firstName" | "lastName" | "email"> | null | undefined): string {
  if (!user) return "";
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ").trim();
  return name || user.email;
}

/**
 * What a print's design and a library image have in common, as thumbnails and the layout
 * drawing use it (a line of an unsaved manual print may carry only the id and name).
 */
export type DesignImage = Pick<PrintImage, "_id" | "name"> & Partial<Pick<PrintImage, "width" | "height" | "trim" | "file" | "previewFile">>;
