/**
 * The narrow slice of the gang-sheet engine the prints feature uses. Everything engine-side
 * goes through here, so the rest of prints/ depends on this interface only (and tests or
 * benchmarks can time or replace it). The app's engine (workerEngine) runs each call in
 * the CPU pool (src/cpu), off the API's event loop; engineInProcess is what the workers run.
 */
import { availableParallelism } from 'node:os';
import type { CpuPool } from '../cpu/cpu-pool';
import { checkLayout, LayoutCopy, LayoutProblem, LayoutSettings } from './print-layout';
import { StoreSpec, storeFor, UploadBatch } from '../storage/store-sink';
import {
  compareNesting,
  designFit,
  FitSheet,
  designReport,
  DesignMask,
  DesignDecodeError,
  DesignReportEntry,
  DesignTooLargeError,
  FixedPlacement,
  FixedPlacementError,
  inspectDesign,
  LabelSpace,
  layoutSheets,
  LayoutResult,
  LOW_DPI_THRESHOLD,
  NestingComparison,
  RenderedSheet,
  RenderProgress,
  renderSheets,
  SheetOutput,
  SheetSettings,
  TrimBox,
  UnsafePathError,
} from '../gangsheet';

export type { SheetOutput, LayoutResult, RenderedSheet, RenderProgress, TrimBox, DesignReportEntry, DesignMask, NestingComparison };
export { LOW_DPI_THRESHOLD, designFit };
// the permanent errors, for the job to word them for the seller
export { DesignDecodeError, DesignTooLargeError, UnsafePathError };
// a fixed placement (an edited layout's copy) the sheet cannot hold
export { FixedPlacementError };
export type { FixedPlacement };
export type { FitSheet };

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
  /** Ink over `trim` for "shape" nesting; absent/null: nested as its rectangle. */
  mask?: DesignMask | null;
  /** Order labels: the space reserved below each copy (absent: none). */
  label?: LabelSpace | null;
  /** Each copy's label text, by its reading-order rank among the design's copies (see readingRanks). */
  labels?: string[] | null;
}

/** signal: aborting stops the work at once (its worker is killed) and rejects with an AbortError (see isAbortError). */
export interface EngineCallOptions {
  signal?: AbortSignal;
}

/**
 * fixed: copies that stay where they are (an edited layout's); the others are laid out around
 * them. start: where the others stand now (the editor's current layout, "Re-nest the rest"):
 * the "shape" search starts from it and repairs what collides with the fixed copies.
 */
export interface EngineLayoutOptions extends EngineCallOptions {
  fixed?: readonly FixedPlacement[];
  start?: readonly FixedPlacement[];
}

export interface RenderRequest extends EngineCallOptions {
  layout: LayoutResult;
  designs: readonly EngineDesign[];
  root: string;
  /** Where sheet `index` goes: a PNG and/or a PDF, and the preview (file paths, or keys in `store`). */
  output: (index: number) => SheetOutput;
  /** The object store the outputs are keys of; without it they are file paths. */
  store?: StoreSpec;
  onProgress?: (p: RenderProgress) => void;
  /** Folder for the render's temporary rasters (local disk, removed with the run). */
  tmpDir?: string;
  /** Text repeated across every sheet (PNG, PDF and preview): "TEST" on a test print's sheets. */
  watermark?: string;
}

export interface PrintEngine {
  inspect(file: string, root: string, opts?: EngineCallOptions): Promise<{ widthPx: number; heightPx: number; trim: TrimBox; vector: boolean; mask: DesignMask | null }>;
  /** Lays out with `settings.nesting` ("shape" never returns a longer layout than "box"). */
  layout(designs: readonly EngineDesign[], settings: SheetSettings, timeLimitMs: number, opts?: EngineLayoutOptions): Promise<LayoutResult>;
  /** Every problem of an edited layout (print-layout.ts checkLayout); empty when it can be printed. */
  checkLayout(designs: readonly EngineDesign[], settings: LayoutSettings, copies: readonly LayoutCopy[], names: Record<string, string>, opts?: EngineCallOptions): Promise<LayoutProblem[]>;
  /** Shape and box layouts of the same order and the film shape saves (for the preview). */
  compare(designs: readonly EngineDesign[], settings: SheetSettings, timeLimitMs: number, opts?: EngineCallOptions): Promise<NestingComparison>;
  /** Arithmetic over the designs only: cheap, so it stays in the calling process. */
  report(designs: readonly EngineDesign[]): DesignReportEntry[];
  render(req: RenderRequest): Promise<RenderedSheet[]>;
}

export const PRINT_ENGINE = Symbol('PRINT_ENGINE');

const PERMANENT_ERRORS = [DesignTooLargeError, DesignDecodeError, UnsafePathError] as const;

/** An error that retrying cannot fix (bad design file, a design larger than the sheet). */
export function isPermanentEngineError(e: unknown): boolean {
  return PERMANENT_ERRORS.some((cls) => e instanceof cls);
}

/** A render request as plain data: the output paths of every sheet instead of a function. */
export interface SerialRenderRequest {
  layout: LayoutResult;
  designs: readonly EngineDesign[];
  root: string;
  outputs: SheetOutput[];
  store?: StoreSpec;
  maxPixels: number;
  tmpDir?: string;
  watermark?: string;
}

/**
 * Whether any design has an ink mask. Without one every design is its rectangle, and the
 * rectangle packer (at its best on rectangles) gets the whole budget instead of a fifth of it
 * beside a shape search that has no shapes to use: "shape" then means "box" and saves nothing.
 */
function hasInk(designs: readonly EngineDesign[]): boolean {
  return designs.some((d) => !!d.mask);
}

function layoutDesign(d: EngineDesign) {
  return { id: d.id, widthPx: d.trim.width, heightPx: d.trim.height, width: d.width, quantity: d.quantity, mask: d.mask ?? undefined, label: d.label ?? undefined };
}

/** The engine calls with plain data in and out, as the CPU workers run them. */
export const engineInProcess = {
  async inspect(file: string, root: string, maxPixels: number) {
    const info = await inspectDesign(file, { root, limits: { maxPixels } });
    return { widthPx: info.widthPx, heightPx: info.heightPx, trim: info.trim, vector: info.vector, mask: info.mask ?? null };
  },
  // threads: what one "shape" layout may use (PRINT_LAYOUT_THREADS); converge: stop a "shape"
  // layout once it has converged (the product always does; bench:pipeline compares with false)
  async layout(
    designs: readonly EngineDesign[],
    settings: SheetSettings,
    timeLimitMs: number,
    threads = 1,
    converge = true,
    fixed?: readonly FixedPlacement[],
    start?: readonly FixedPlacement[],
  ): Promise<LayoutResult> {
    if (settings.nesting === 'shape' && !hasInk(designs)) return layoutSheets(designs.map(layoutDesign), { ...settings, nesting: 'box' }, { timeLimitMs, fixed });
    return layoutSheets(designs.map(layoutDesign), settings, { timeLimitMs, threads, converge, fixed, start });
  },
  async checkLayout(designs: readonly EngineDesign[], settings: LayoutSettings, copies: readonly LayoutCopy[], names: Record<string, string>): Promise<LayoutProblem[]> {
    return checkLayout(designs, settings, copies, names);
  },
  async compare(designs: readonly EngineDesign[], settings: SheetSettings, timeLimitMs: number, threads = 1): Promise<NestingComparison> {
    if (!hasInk(designs)) {
      const box = layoutSheets(designs.map(layoutDesign), { ...settings, nesting: 'box' }, { timeLimitMs });
      return { shape: box, box, savedLength: 0, savedFraction: 0 };
    }
    return compareNesting(designs.map(layoutDesign), settings, { timeLimitMs, threads });
  },
  async render(req: SerialRenderRequest, onProgress?: (p: RenderProgress) => void): Promise<RenderedSheet[]> {
    const store = req.store ? await storeFor(req.store) : null;
    const uploads = store ? new UploadBatch(store) : null;
    const rendering = renderSheets({
      sheets: req.layout.sheets,
      // masks come with the designs of "shape" prints only: their rasters are clipped to the ink
      designs: req.designs.map((d) => ({ id: d.id, path: d.file, trim: d.trim, widthPx: d.widthPx, heightPx: d.heightPx, mask: d.mask ?? undefined, labels: d.labels ?? undefined })),
      dpi: req.layout.settings.dpi,
      root: req.root,
      output: (i) => req.outputs[i],
      // the print files stream into the store as they are written: no sheet is held whole
      open: uploads ? async (key, contentType) => uploads.sink(key, contentType) : undefined,
      limits: { maxPixels: req.maxPixels },
      tmpDir: req.tmpDir,
      watermark: req.watermark,
      onProgress,
    });
    if (!uploads) return rendering;
    try {
      const sheets = await rendering;
      await uploads.settle();
      return sheets;
    } catch (e) {
      await uploads.abort();
      throw e;
    }
  },
};

/**
 * The threads a layout starting now may use: `layoutThreads` at most, but only as many as the
 * cores the pool's other tasks leave free (at least one). A lone print's layout races a helper
 * thread for film; beside another print's layout or render, the helper would only take that
 * print's core, and two prints on one core each finish sooner than one after the other.
 */
export function layoutThreadsNow(layoutThreads: number, cores: number, othersInFlight: number): number {
  return Math.max(1, Math.min(layoutThreads, cores - othersInFlight));
}

/** The app's engine: every heavy call in the CPU pool, with the one configured pixel limit. */
export function workerEngine(pool: CpuPool, maxPixels: number, layoutThreads = 1, converge = true, cores = availableParallelism()): PrintEngine {
  const errors = PERMANENT_ERRORS;
  return {
    inspect: (file, root, opts) => pool.run('engineInspect', [file, root, maxPixels], { signal: opts?.signal, errors }),
    layout: (designs, settings, timeLimitMs, opts) =>
      pool.run('engineLayout', [designs, settings, timeLimitMs, layoutThreadsNow(layoutThreads, cores, pool.inFlight()), converge, opts?.fixed, opts?.start], {
        signal: opts?.signal,
        errors: [...errors, FixedPlacementError],
      }),
    checkLayout: (designs, settings, copies, names, opts) => pool.run('engineCheckLayout', [designs, settings, copies, names], { signal: opts?.signal, errors }),
    compare: (designs, settings, timeLimitMs, opts) => pool.run('engineCompare', [designs, settings, timeLimitMs, layoutThreads], { signal: opts?.signal, errors }),
    report: (designs) => designReport(designs.map((d) => ({ id: d.id, trim: d.trim, width: d.width, quantity: d.quantity, vector: d.vector }))),
    render: (req) =>
      pool.run(
        'engineRender',
        [{ layout: req.layout, designs: req.designs, root: req.root, outputs: req.layout.sheets.map((_, i) => req.output(i)), store: req.store, maxPixels, tmpDir: req.tmpDir, watermark: req.watermark }],
        { signal: req.signal, errors, onEvent: req.onProgress },
      ),
  };
}
