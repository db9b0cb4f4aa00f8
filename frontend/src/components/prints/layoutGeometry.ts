// Geometry for drawing a sheet layout. Sheets are drawn in inches (SVG user units) and
// scaled to the pixels available; these functions hold the maths so it can be tested.
import type { DesignImage, LayoutPlacement, ShapeSaving } from "../../api/types";

/**
 * Pixels per inch so a sheet fits `maxWidthPx` across and, when given, `maxHeightPx`
 * down. Long sheets hit the height bound; a sheet never draws larger than `maxPpi`.
 */
export function sheetScale(sheet: { width: number; length: number }, maxWidthPx: number, maxHeightPx = Infinity, maxPpi = 40): number {
  if (!(sheet.width > 0) || !(maxWidthPx > 0)) return 0;
  const byWidth = maxWidthPx / sheet.width;
  const byHeight = sheet.length > 0 ? maxHeightPx / sheet.length : Infinity;
  return Math.min(byWidth, byHeight, maxPpi);
}

/** Size in whole pixels of a sheet drawn at `ppi`. */
export const sheetPixels = (sheet: { width: number; length: number }, ppi: number) => ({
  width: Math.round(sheet.width * ppi),
  height: Math.max(1, Math.round(sheet.length * ppi)),
});

/**
 * A placement's box is its footprint on the sheet (after rotation). The design is drawn
 * upright in its own box (height × width for quarter turns), then turned clockwise by
 * `rotation` about its (0,0) and moved so its top-left corner lands on the footprint's
 * corner it turns to: top-right for 90°, bottom-right for 180°, bottom-left for 270°.
 */
export function placementTransform(p: Pick<LayoutPlacement, "x" | "y" | "width" | "height" | "rotation">) {
  switch (p.rotation) {
    case 90:
      return { transform: `translate(${p.x + p.width} ${p.y}) rotate(90)`, width: p.height, height: p.width };
    case 180:
      return { transform: `translate(${p.x + p.width} ${p.y + p.height}) rotate(180)`, width: p.width, height: p.height };
    case 270:
      return { transform: `translate(${p.x} ${p.y + p.height}) rotate(270)`, width: p.height, height: p.width };
    default:
      return { transform: `translate(${p.x} ${p.y})`, width: p.width, height: p.height };
  }
}

/** "True shape saves 14 % film, 31 in vs rectangles", or that it saves nothing on this order. */
export function shapeSavingText(s: ShapeSaving | null | undefined): string | null {
  if (!s) return null;
  const percent = Math.round(s.savedFraction * 100);
  const inches = Math.round(s.savedLength * 10) / 10;
  if (!(inches > 0)) return "True shape saves no film on this order (same length as rectangles)";
  // under 1 % still saves film: show it rather than "0 %"
  return `True shape saves ${percent >= 1 ? percent : "<1"} % film, ${inches} in vs rectangles`;
}

/**
 * The part of the design's preview that is printed: the trim box (transparent edges
 * removed) in source pixels, as an SVG viewBox over an image drawn at source size.
 */
export function trimViewBox(image: Pick<DesignImage, "width" | "height" | "trim"> | undefined) {
  const w = image?.width ?? 0;
  const h = image?.height ?? 0;
  if (!(w > 0 && h > 0)) return null;
  const t = image?.trim && image.trim.width > 0 && image.trim.height > 0 ? image.trim : { left: 0, top: 0, width: w, height: h };
  return { viewBox: `${t.left} ${t.top} ${t.width} ${t.height}`, imageWidth: w, imageHeight: h };
}

