// Shapes of the images/sizes API, aliased from the schema generated from
// docs/openapi.json (`npm run api-types -w frontend`) so they cannot drift from it.
import type { components } from "../../api/schema";

type Schemas = components["schemas"];

export type LibraryImage = Schemas["ImageDto"];
export type ImageStatus = LibraryImage["status"];
export type TrimBox = Schemas["TrimDto"];
export type ImageCategory = Schemas["ImageCategoryDto"];
export type Size = Schemas["SizeDto"];
/** Per-file outcome of a bulk upload: `{data: stored images, errors: refused files, message}`. */
export type UploadResult = Schemas["UploadResponse"];
