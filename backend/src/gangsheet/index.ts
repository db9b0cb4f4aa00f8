/**
 * GangSheet engine: public API. Pure TypeScript, no Nest: plain data in, plain data or
 * files out. The Prints feature calls it from a queue job:
 *
 * 1. `inspectDesign(path, { root, limits })` for every uploaded design (once, at upload):
 *    decodes with pixel limits, rejects corrupt files and paths outside `root`, and
 *    measures the trim box of the visible art and its ink `mask` (store it with the design).
 * 2. `layoutSheets(designs, settings, { timeLimitMs })` with each design's trimmed pixel
 *    size, printed width (inches) and quantity: returns sheets with every copy's placement
 *    in inches and whole pixels. Deterministic for the same input and effort.
 *    `settings.nesting: "shape"` nests by the ink (pass each design's `mask`); then
 *    `compareNesting(...)` gives both layouts and the film saved against rectangles.
 *    `opts.fixed` pins copies where they are (the others are laid out around them) and a
 *    design's `label` reserves space below each copy (reported as `placement.label`);
 *    `labelSpace(texts)` sizes it for order labels, and `renderSheets` prints each design's
 *    `labels` there (by the copies' reading order, `readingRanks`).
 * 3. `designReport(...)` for effective DPI per design (flag < 150) before the user pays.
 * 4. `renderSheets({ sheets, designs, dpi, root, output, onProgress })` (or `renderSheet`
 *    for one sheet): writes each sheet as a 300 DPI RGBA sRGB PNG and/or a one-page PDF
 *    (`output(i)` returns `{ png?, pdf?, preview? }`) plus a WebP preview, in bounded
 *    memory, reporting progress in percent; each result lists its `files` by format.
 *
 * Errors a caller should show to the seller: `DesignTooLargeError` (names the design),
 * `FixedPlacementError` (a pinned copy off the sheet or too close to another),
 * `DesignDecodeError` (corrupt or oversized file), `UnsafePathError`.
 *
 * @example
 * const info = await inspectDesign('u1/art.png', { root: storageRoot });
 * const layout = layoutSheets(
 *   [{ id: 'art', widthPx: info.trim.width, heightPx: info.trim.height, width: 3.5, quantity: 10, mask: info.mask }],
 *   { width: 22, maxLength: 100, gap: 0.25, margin: 0.25, dpi: 300, rotate: true, nesting: 'shape' },
 *   { timeLimitMs: 10_000 },
 * );
 * await renderSheets({
 *   sheets: layout.sheets, dpi: 300, root: storageRoot,
 *   designs: [{ id: 'art', path: 'u1/art.png', ...info }],
 *   output: (i) => ({ png: `out/sheet-${i + 1}.png`, preview: `out/sheet-${i + 1}.webp` }),
 *   onProgress: ({ percent }) => job.progress(percent),
 * });
 */
export {
  layoutSheets,
  compareNesting,
  resolveSettings,
  designPixelSize,
  DesignTooLargeError,
  DEFAULT_SETTINGS,
  DEFAULT_TIME_LIMIT_MS,
  DEFAULT_CELL_INCHES,
} from './pack/layout';
export type {
  LayoutDesign,
  SheetSettings,
  ResolvedSheetSettings,
  LayoutOptions,
  LayoutResult,
  LayoutSearch,
  SheetLayout,
  Placement,
  PixelRect,
  Nesting,
  NestingComparison,
} from './pack/layout';
export { FixedPlacementError, footprintOf, onSheet } from './pack/footprint';
export type { FixedPlacement, LabelSpace } from './pack/footprint';
export type { DesignMask } from './shape/design-mask';
export { alphaMask, INK_ALPHA_THRESHOLD } from './shape/design-mask';
export type { Rotation } from './shape/shape-layout';
export { packSheets, PieceTooLargeError, UnitFixedError } from './pack/sheets';
export type { UnitSheet, UnitPlacement, UnitSheetConfig, FixedUnit } from './pack/sheets';
export { inspectDesign, alphaBoundingBox, trimAlpha } from './trim';
export type { DesignInfo, TrimBox, InspectOptions, TrimResult } from './trim';
export { designFit } from './fit';
export { SHEET_DEFAULTS } from './sheet-defaults';
export type { DesignFit, FitSheet } from './fit';
export { renderSheets, renderSheet } from './render/render-sheet';
export { labelSpace, orderLabelText, readingRanks, LABEL_FONT_PT } from './render/order-labels';
export type { RenderDesign, RenderProgress, RenderSheetsOptions, RenderedSheet, RenderedFile, SheetOutput, PrintFormat } from './render/render-sheet';
export { DesignDecodeError, DEFAULT_MAX_PIXELS } from './render/sharp-io';
export type { DecodeLimits } from './render/sharp-io';
export { UnsafePathError } from './render/safe-path';
export { designReport, layoutSummary, LOW_DPI_THRESHOLD } from './report';
export type { DesignReportEntry, ReportDesign, LayoutSummary } from './report';
export { buildJob } from './build';
export type { BuildJob, BuildReport } from './build';
export { parseEsicup, nestEsicup } from './shape/esicup';
export type { EsicupInstance, EsicupSolution, EsicupPlacement } from './shape/esicup';
