/** Print-quality figures a seller sees before paying: effective DPI per design, film use. */
import { LayoutResult } from './pack/layout';

/** Below this effective resolution a design is flagged (soft or pixelated print). */
export const LOW_DPI_THRESHOLD = 150;

export interface ReportDesign {
  id: string;
  /** Trimmed source size in pixels (for SVG: at the inspection density). */
  trim: { width: number; height: number };
  /** Printed width in inches. */
  width: number;
  quantity: number;
  /** Vector art prints sharp at any size. */
  vector?: boolean;
}

export interface DesignReportEntry {
  designId: string;
  quantity: number;
  printedWidth: number;
  printedHeight: number;
  /** Source pixels per printed inch; null for vector art. */
  effectiveDpi: number | null;
  /** True when effectiveDpi < threshold. */
  lowResolution: boolean;
}

export function designReport(designs: readonly ReportDesign[], threshold = LOW_DPI_THRESHOLD): DesignReportEntry[] {
  return designs.map((d) => {
    const printedHeight = (d.width * d.trim.height) / d.trim.width;
    const effectiveDpi = d.vector ? null : d.trim.width / d.width;
    return {
      designId: d.id,
      quantity: d.quantity,
      printedWidth: d.width,
      printedHeight: +printedHeight.toFixed(4),
      effectiveDpi: effectiveDpi === null ? null : +effectiveDpi.toFixed(1),
      lowResolution: effectiveDpi !== null && effectiveDpi < threshold,
    };
  });
}

export interface LayoutSummary {
  sheets: { index: number; length: number; widthPx: number; lengthPx: number; copies: number }[];
  totalLength: number;
  /** Printed area / film area used. */
  density: number;
  /** Film length at 100 % density, inches. */
  lengthLowerBound: number;
}

export function layoutSummary(layout: LayoutResult): LayoutSummary {
  return {
    sheets: layout.sheets.map((s) => ({ index: s.index, length: s.length, widthPx: s.widthPx, lengthPx: s.lengthPx, copies: s.placements.length })),
    totalLength: layout.totalLength,
    density: +layout.density.toFixed(4),
    lengthLowerBound: +layout.lengthLowerBound.toFixed(3),
  };
}
