import type { LayoutResult } from './engine.adapter';

/** One placed copy as the print keeps it: the print item's id and its box on the sheet, inches. */
export interface StoredPlacement {
  itemId: string;
  /** Which copy of the item (0-based); absent in layouts stored before copies were numbered. */
  copy?: number;
  x: number;
  y: number;
  width: number;
  height: number;
  rotated: boolean;
  /** Clockwise turn; absent in layouts stored before true-shape nesting (then rotated = 90). */
  rotation?: 0 | 90 | 180 | 270;
  /** The order label's reserved space, inches (copies printed with order labels only). */
  label?: { x: number; y: number; width: number; height: number };
}

/** A placement's clockwise turn, also for layouts stored before `rotation` existed. */
export function rotationOf(p: { rotated: boolean; rotation?: 0 | 90 | 180 | 270 }): 0 | 90 | 180 | 270 {
  return p.rotation ?? (p.rotated ? 90 : 0);
}

/**
 * The layout a print's files were rendered from (`prints.layout`), saved when the job
 * completes. Layout search is time-bounded, so running it again (the preview's 300 ms budget,
 * or today's sheet settings) can give a different answer than the sheets delivered; the
 * detail page of a Completed print shows this instead.
 */
export interface StoredLayout {
  sheets: Array<{ index: number; length: number; widthPx: number; lengthPx: number; placements: StoredPlacement[] }>;
  totalLength: number;
  density: number;
  copies: number;
}

export function storedLayout(l: LayoutResult): StoredLayout {
  return {
    sheets: l.sheets.map((s) => ({
      index: s.index,
      length: s.length,
      widthPx: s.widthPx,
      lengthPx: s.lengthPx,
      placements: s.placements.map((p) => ({
        itemId: p.designId,
        copy: p.copy,
        x: p.x,
        y: p.y,
        width: p.width,
        height: p.height,
        rotated: p.rotated,
        rotation: rotationOf(p),
        ...(p.label ? { label: { x: p.label.x, y: p.label.y, width: p.label.width, height: p.label.height } } : {}),
      })),
    })),
    totalLength: l.totalLength,
    density: l.density,
    copies: l.copies,
  };
}
