/**
 * The narrow slice of the gang-sheet engine the prints feature uses. Everything engine-side
 * goes through here, so the rest of prints/ depends on this interface only (and tests or
 * benchmarks can time or replace it).
 */
import {
  designReport,
  DesignDecodeError,
  DesignReportEntry,
  DesignTooLargeError,
  inspectDesign,
  layoutSheets,
  LayoutResult,
  LOW_DPI_THRESHOLD,
  RenderedSheet,
  RenderProgress,
  renderSheets,
  SheetSettings,
  TrimBox,
  UnsafePathError,
} from '../gangsheet';

export type { LayoutResult, RenderedSheet, RenderProgress, TrimBox, DesignReportEntry };
export { LOW_DPI_THRESHOLD };

export interface EngineDesign {
  /** Our id (the print item id), echoed in placements. */
  id: string;
  /** Storage key of the original file, relative to the storage root. */
  file: string;
  widthPx: number;
  heightPx: number;
  trim: TrimBox;
  /** Printed width in inches (the size value). */
  width: number;
  quantity: number;
  vector: boolean;
}

export interface RenderRequest {
  layout: LayoutResult;
  designs: readonly EngineDesign[];
  root: string;
  output: (index: number) => { png: string; preview: string };
  onProgress?: (p: RenderProgress) => void;
  /** Folder for the render's temporary rasters (under DATA_DIR, cleaned with the run). */
  tmpDir?: string;
  /** Aborts the render promptly (a cancel). */
  signal?: AbortSignal;
}

export interface PrintEngine {
  inspect(file: string, root: string): Promise<{ widthPx: number; heightPx: number; trim: TrimBox; vector: boolean }>;
  layout(designs: readonly EngineDesign[], settings: SheetSettings, timeLimitMs: number): LayoutResult;
  report(designs: readonly EngineDesign[]): DesignReportEntry[];
  render(req: RenderRequest): Promise<RenderedSheet[]>;
}

export const PRINT_ENGINE = Symbol('PRINT_ENGINE');

/** An error that retrying cannot fix (bad design file, a design larger than the sheet). */
export function isPermanentEngineError(e: unknown): boolean {
  return e instanceof DesignTooLargeError || e instanceof DesignDecodeError || e instanceof UnsafePathError;
}

export const gangsheetEngine: PrintEngine = {
  async inspect(file, root) {
    const info = await inspectDesign(file, { root });
    return { widthPx: info.widthPx, heightPx: info.heightPx, trim: info.trim, vector: info.vector };
  },
  layout(designs, settings, timeLimitMs) {
    return layoutSheets(
      designs.map((d) => ({ id: d.id, widthPx: d.trim.width, heightPx: d.trim.height, width: d.width, quantity: d.quantity })),
      settings,
      { timeLimitMs },
    );
  },
  report(designs) {
    return designReport(designs.map((d) => ({ id: d.id, trim: d.trim, width: d.width, quantity: d.quantity, vector: d.vector })));
  },
  render(req) {
    return renderSheets({
      sheets: req.layout.sheets,
      designs: req.designs.map((d) => ({ id: d.id, path: d.file, trim: d.trim, widthPx: d.widthPx, heightPx: d.heightPx })),
      dpi: req.layout.settings.dpi,
      root: req.root,
      output: req.output,
      onProgress: req.onProgress,
      tmpDir: req.tmpDir,
      signal: req.signal,
    });
  },
};
