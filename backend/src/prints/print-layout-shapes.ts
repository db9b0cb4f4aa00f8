/**
 * What the layout editor needs to draw every copy at its true outline and to check the gap
 * by ink in the browser, exactly as the engine does (docs/prints.md "Edited layout"): per
 * design its footprint in printed pixels (the art, and the order label's space when it has
 * one), its ink mask and how far the renderer lets ink reach beyond it (`inkReach`), and the
 * grid the engine checks fixed copies on (`cellPx`, anchored at the margin). The editor turns
 * these into the engine's cells (its shapeCheck.ts is a port of shape-layout.ts
 * footprintRects / cellMaskOf / grownMask and cell-overlap.ts gapOverlap).
 */
import { DEFAULT_CELL_INCHES, designPixelSize, footprintOf, type DesignMask } from '../gangsheet';
import { inkReach } from '../gangsheet/shape/shape-layout';
import type { EngineDesign } from './engine.adapter';
import type { LayoutSettings } from './print-layout';

export interface LayoutShapeBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface LayoutShapeDesign {
  itemId: string;
  /** Footprint (art and label space), upright printed pixels. */
  w: number;
  h: number;
  /** The art within the footprint. */
  art: LayoutShapeBox;
  /** The order label's space within the footprint (kept free like ink), or null. */
  label: LayoutShapeBox | null;
  /** Ink of the trimmed art; null: the whole art box is ink. */
  mask: DesignMask | null;
  /** Pixels the rendered ink may reach beyond the mask's cells (inkReach). */
  reach: number;
}

export interface LayoutShapes {
  /** The engine's grid cell before its memory bound, sheet pixels (the bound is applied per pair of designs, shapeCheck.ts boundedCell). */
  cellPx: number;
  dpi: number;
  /** Gap and margin in whole sheet pixels. */
  gap: number;
  margin: number;
  rotate: boolean;
  designs: LayoutShapeDesign[];
}

export function layoutShapes(designs: readonly EngineDesign[], s: LayoutSettings): LayoutShapes {
  const px = (v: number) => Math.round(v * s.dpi);
  return {
    cellPx: Math.max(1, Math.round(DEFAULT_CELL_INCHES * s.dpi)),
    dpi: s.dpi,
    gap: px(s.gap),
    margin: px(s.margin),
    rotate: s.rotate,
    designs: designs.map((d) => {
      const ld = { id: d.id, widthPx: d.trim.width, heightPx: d.trim.height, width: d.width, quantity: d.quantity, label: d.label ?? undefined };
      const fp = footprintOf(ld, designPixelSize(ld, s.dpi), px);
      return {
        itemId: d.id,
        w: fp.w,
        h: fp.h,
        art: { x: fp.art.x, y: fp.art.y, w: fp.art.w, h: fp.art.h },
        label: fp.label ? { x: fp.label.x, y: fp.label.y, w: fp.label.w, h: fp.label.h } : null,
        mask: s.nesting === 'shape' ? (d.mask ?? null) : null,
        reach: inkReach(fp.art.w, d.trim.width),
      };
    }),
  };
}
