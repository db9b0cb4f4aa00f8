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

/**
 * What a print will cost to render, from its items alone (no layout, so it is cheap enough
 * for the request path): the copies' area (with gaps) spread over the usable sheet width
 * gives the shortest possible total length, every sheet is the full film width, and a sheet
 * is at least as long as the tallest copy. The job checks the real layout against the same
 * budget before rendering.
 */
export function estimateWork(items: Array<{ trim: { width: number; height: number }; widthIn: number; quantity: number }>, s: SheetSettingsValues): WorkEstimate {
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
  return { pixels, bytes: Math.round(rasters + pixels * OUTPUT_BYTES_PER_PIXEL) };
}

export const gigapixels = (px: number) => (px / 1e9).toFixed(px < 1e10 ? 2 : 1);
