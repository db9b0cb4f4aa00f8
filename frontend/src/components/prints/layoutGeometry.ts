// Geometry for drawing a sheet layout. Sheets are drawn in inches (SVG user units) and
// scaled to the pixels available; these functions hold the maths so it can be tested.
import type { Layout, LayoutPlacement, LayoutProblem, LayoutSheet, PrintImage, Rotation, ShapeSaving, SheetSettings } from "./types";

/**
 * Pixels per inch so a sheet fits `maxWidthPx` across and, when given, `maxHeightPx`
 * down. Long sheets hit the height bound; a sheet never draws larger than `maxPpi`.
 */
export function sheetScale(sheet: { widthIn: number; length: number }, maxWidthPx: number, maxHeightPx = Infinity, maxPpi = 40): number {
  if (!(sheet.widthIn > 0) || !(maxWidthPx > 0)) return 0;
  const byWidth = maxWidthPx / sheet.widthIn;
  const byHeight = sheet.length > 0 ? maxHeightPx / sheet.length : Infinity;
  return Math.min(byWidth, byHeight, maxPpi);
}

/** Size in whole pixels of a sheet drawn at `ppi`. */
export const sheetPixels = (sheet: { widthIn: number; length: number }, ppi: number) => ({
  width: Math.round(sheet.widthIn * ppi),
  height: Math.max(1, Math.round(sheet.length * ppi)),
});

/**
 * A placement's box is its footprint on the sheet (after rotation). The design is drawn
 * upright in its own box (height × width for quarter turns), then turned clockwise by
 * `rotation` about its (0,0) and moved so its top-left corner lands on the footprint's
 * corner it turns to: top-right for 90°, bottom-right for 180°, bottom-left for 270°.
 * Layouts without `rotation` (stored before true-shape nesting) use `rotated` (= 90°).
 */
export function placementTransform(p: Pick<LayoutPlacement, "x" | "y" | "width" | "height" | "rotated"> & { rotation?: Rotation }) {
  const r = p.rotation ?? (p.rotated ? 90 : 0);
  switch (r) {
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

const ROTATIONS: Rotation[] = [0, 90, 180, 270];
const toRotation = (v: unknown, rotated: boolean): Rotation => (ROTATIONS.includes(Number(v) as Rotation) && v != null ? (Number(v) as Rotation) : rotated ? 90 : 0);

/**
 * The part of the design's preview that is printed: the trim box (transparent edges
 * removed) in source pixels, as an SVG viewBox over an image drawn at source size.
 */
export function trimViewBox(image: Pick<PrintImage, "width" | "height" | "trim"> | undefined) {
  const w = image?.width ?? 0;
  const h = image?.height ?? 0;
  if (!(w > 0 && h > 0)) return null;
  const t = image?.trim && image.trim.width > 0 && image.trim.height > 0 ? image.trim : { left: 0, top: 0, width: w, height: h };
  return { viewBox: `${t.left} ${t.top} ${t.width} ${t.height}`, imageWidth: w, imageHeight: h };
}

/** Density as a whole percent; accepts 0..1 or an already-percent value. */
export const densityPercent = (density: number | null | undefined) =>
  density == null || Number.isNaN(density) ? 0 : Math.round((density <= 1 ? density * 100 : density) * 10) / 10;

/**
 * Reads POST /print/{id}/preview: sheets (`width` or `widthIn`), placements (`imageId` or
 * the engine's `designId`), low-DPI designs from `items[].lowResolution` (or documented
 * `warnings[{imageId, effectiveDpi}]`), and any other server warning as a problem of its item
 * (it blocks processing; the server leaves that item out of the layout and the cost).
 */
export function normalizeLayout(raw: any, settings?: Partial<SheetSettings>): Layout {
  const data = raw?.data ?? raw ?? {};
  const width = Number(data.settings?.width ?? settings?.width ?? 22);
  const sheets: LayoutSheet[] = (data.sheets ?? []).map((s: any) => ({
    length: Number(s.length ?? s.lengthIn ?? 0),
    widthIn: Number(s.widthIn ?? s.width ?? width),
    placements: (s.placements ?? []).map((p: any) => ({
      imageId: String(p.imageId ?? p.designId),
      x: Number(p.x),
      y: Number(p.y),
      width: Number(p.width),
      height: Number(p.height),
      rotated: Boolean(p.rotated),
      rotation: toRotation(p.rotation, Boolean(p.rotated)),
    })),
  }));
  const low = new Map<string, number>();
  for (const i of data.items ?? []) if (i.lowResolution && Number.isFinite(Number(i.effectiveDpi))) low.set(String(i.imageId), Number(i.effectiveDpi));
  const problems: LayoutProblem[] = [];
  for (const w of data.warnings ?? []) {
    if (w.imageId && Number.isFinite(Number(w.effectiveDpi))) low.set(String(w.imageId), Number(w.effectiveDpi));
    else if (w.code !== "low_resolution" && w.message) problems.push({ itemId: String(w.itemId ?? ""), code: String(w.code ?? ""), message: String(w.message) });
  }
  const copies = sheets.reduce((n, s) => n + s.placements.length, 0);
  return {
    sheets,
    density: Number(data.density ?? 0),
    creditCost: Number(data.creditCost ?? copies),
    warnings: [...low].map(([imageId, effectiveDpi]) => ({ imageId, effectiveDpi })),
    problems,
    canProcess: data.canProcess ?? problems.length === 0,
    rendered: Boolean(data.rendered),
    shapeSaving: data.shapeSaving
      ? { boxLength: Number(data.shapeSaving.boxLength), savedLength: Number(data.shapeSaving.savedLength), savedFraction: Number(data.shapeSaving.savedFraction) }
      : null,
  };
}
