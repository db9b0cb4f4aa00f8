import { SheetSettingsValues } from '../sheet-settings/entities/sheet-settings.entity';
import { printedSize } from './design-fit';

/** Output allowance per sheet pixel: sheets are mostly transparent film and compress well. */
export const OUTPUT_BYTES_PER_PIXEL = 0.5;

export interface WorkEstimate {
  /** A lower bound of the sheet pixels the print renders (no layout packs tighter). */
  pixels: number;
  /** Disk space the render needs: its temporary rasters plus an allowance for the files. */
  bytes: number;
}

export interface BudgetItem {
  /** The art's pixel size: its trim, or (image still being inspected) its whole size from the upload header. */
  trim: { width: number; height: number };
  widthIn: number;
  quantity: number;
}

/**
 * Rasters the render keeps per design size: the upright one, plus its quarter turn when
 * rotation is allowed, plus the half turns true-shape nesting may use (each is a file of
 * its own in the raster cache). A PDF embeds the upright raster, already counted.
 */
function orientations(s: Pick<SheetSettingsValues, 'rotate' | 'nesting'>): number {
  if (!s.rotate) return 1;
  return s.nesting === 'shape' ? 4 : 2;
}

/**
 * What a print will cost to render, from its items alone (no layout, so it is cheap enough
 * for the request path): the copies' area (with gaps) spread over the usable sheet width
 * gives the shortest possible total length, every sheet is the full film width, and a sheet
 * is at least as long as the tallest copy. The job checks the real layout against the same
 * budget before rendering. Disk: every raster at 4 bytes per pixel in each orientation, the
 * PDF's compressed images (at most those bytes again) when a PDF is asked for, and the files.
 */
export function estimateWork(items: BudgetItem[], s: SheetSettingsValues): WorkEstimate {
  const usable = Math.max(s.width - 2 * s.margin, 1e-6);
  let area = 0;
  let tallest = 0;
  let rasters = 0;
  for (const it of items) {
    const { width, height } = printedSize(it.trim, it.widthIn);
    area += (width + s.gap) * (height + s.gap) * it.quantity;
    tallest = Math.max(tallest, s.rotate ? Math.min(width, height) : height);
    rasters += width * s.dpi * height * s.dpi * 4;
  }
  const length = Math.max(area / usable, tallest) + 2 * s.margin;
  const pixels = Math.round(s.width * s.dpi * length * s.dpi);
  const pdf = s.formats?.includes('pdf') ? rasters : 0;
  return { pixels, bytes: Math.round(rasters * orientations(s) + pdf + pixels * OUTPUT_BYTES_PER_PIXEL) };
}

/**
 * The seller-facing refusal of a print over PRINT_MAX_PIXELS, or null. `pending` names the
 * images still being inspected: they are counted at their whole pixel size from the upload
 * header (their transparent edges are not trimmed yet), so the figure is an estimate and
 * the seller learns that waiting for them may bring it under the limit.
 */
export function budgetProblem(work: WorkEstimate, max: number, pending: readonly string[] = []): string | null {
  if (work.pixels <= max) return null;
  const fix = 'Lower the DPI, use fewer copies or split it into several prints.';
  if (!pending.length) return `This print would render at least ${gigapixels(work.pixels)} gigapixels; the limit is ${gigapixels(max)}. ${fix}`;
  const names = pending.map((n) => `"${n}"`).join(', ');
  return (
    `This print would render about ${gigapixels(work.pixels)} gigapixels; the limit is ${gigapixels(max)}. ` +
    `${names} ${pending.length === 1 ? 'is' : 'are'} still being inspected and counted at full size; if the art has transparent edges, try again once it is ready. ${fix}`
  );
}

export const gigapixels = (px: number) => (px / 1e9).toFixed(px < 1e10 ? 2 : 1);

/** Layout search per copy a "shape" print's job gets (see `layoutBudget`). */
export const SHAPE_LAYOUT_MS_PER_COPY = 200;

/**
 * The processing job's layout search budget. Rectangles (and "shape" prints without any ink
 * mask) get `layoutTimeLimitMs`. True-shape
 * nesting gets SHAPE_LAYOUT_MS_PER_COPY per copy, at least that and at most
 * `shapeLayoutTimeLimitMs` (30 s by default, so prints of 150 copies or more get the 30 s the
 * engine's goal allows a 300-copy order). Large orders need it: their first layouts alone
 * take seconds, half the time then compacts the sheet's far end, and a longer search keeps
 * saving film (docs/gangsheet.md, "Benchmarks"), while prints of up to 10 copies stay quick.
 * Film is what the seller pays for; the layout is a small part of a job that renders for
 * tens of seconds.
 */
export function layoutBudget(
  designs: ReadonlyArray<{ quantity: number; mask?: unknown }>,
  settings: Pick<SheetSettingsValues, 'nesting'>,
  limits: { layoutTimeLimitMs: number; shapeLayoutTimeLimitMs: number },
): number {
  // without any ink mask a "shape" print is laid out as rectangles (engine.adapter.ts)
  if (settings.nesting !== 'shape' || !designs.some((d) => d.mask)) return limits.layoutTimeLimitMs;
  const copies = designs.reduce((a, d) => a + d.quantity, 0);
  return Math.min(limits.shapeLayoutTimeLimitMs, Math.max(limits.layoutTimeLimitMs, SHAPE_LAYOUT_MS_PER_COPY * copies));
}
