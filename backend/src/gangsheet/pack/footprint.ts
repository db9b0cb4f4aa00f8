/**
 * Copies' footprints and fixed copies, in whole pixels (see layout.ts's rounding rule).
 *
 * A design's footprint is its art plus its reserved label space (`LabelSpace`), one upright
 * box that the packers and the nester lay out like any copy and that turns with it; the
 * layout reports the art's and the label's rectangles on the sheet (`onSheet`). Fixed copies
 * (`FixedPlacement`, the art's position as placed) become footprint positions and are
 * checked against the designs here; whether they fit the sheet and each other is the
 * packer's and the nester's check (`UnitFixedError`).
 */
import type { LayoutDesign, ResolvedSheetSettings } from './layout';
import { Rotation, turnRect } from '../shape/shape-layout';

/**
 * A rectangle reserved below each copy's art, in the design's upright frame (it turns with
 * the copy), centred on the art: no other copy (nor its label) comes closer than the gap.
 * The layout reports where it lies (`Placement.label`), so the renderer can print there.
 */
export interface LabelSpace {
  /** Inches. */
  width: number;
  height: number;
  /** From the art's bottom edge to the label's top edge, inches (default 0). */
  offset?: number;
}

/**
 * A copy that is already placed (pinned by the seller): it stays exactly there, and the
 * search lays the other copies out around it in the same search. It is one of its design's
 * `quantity` copies.
 */
export interface FixedPlacement {
  designId: string;
  /** Which copy of the design (0-based, below its quantity); default: the lowest not fixed otherwise. */
  copy?: number;
  /** Sheet index, 0-based (default 0). */
  sheet?: number;
  /** Inches from the sheet's top-left corner to the art's top-left corner as placed, like `Placement.x`/`y`. */
  x: number;
  y: number;
  /** Clockwise turn (default 0); odd turns need `rotate`. */
  rotation?: Rotation;
}

/** A fixed placement the sheet cannot hold: outside the printable area, or closer than the gap to another. */
export class FixedPlacementError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FixedPlacementError';
  }
}

/** A rectangle in whole pixels: x, y, width, height. */
export type Box = { x: number; y: number; w: number; h: number };

/**
 * A design's footprint: the art and its reserved label space (if any) in one upright box of
 * w × h pixels, the label centred below the art. Without a label it is the art's box.
 */
export interface Footprint {
  w: number;
  h: number;
  art: Box;
  label?: Box;
}

export function footprintOf(d: LayoutDesign, art: { w: number; h: number }, px: (inches: number) => number): Footprint {
  if (!d.label) return { w: art.w, h: art.h, art: { x: 0, y: 0, ...art } };
  const { width, height, offset = 0 } = d.label;
  if (!(width > 0) || !(height > 0) || !(offset >= 0)) throw new Error(`design "${d.id}": label width and height must be positive, its offset zero or more`);
  const lw = Math.max(1, px(width));
  const lh = Math.max(1, px(height));
  const w = Math.max(art.w, lw);
  return { w, h: art.h + px(offset) + lh, art: { x: Math.floor((w - art.w) / 2), y: 0, ...art }, label: { x: Math.floor((w - lw) / 2), y: art.h + px(offset), w: lw, h: lh } };
}

/** Where a rectangle of a footprint placed at (x, y), turned by `rotation`, lies on the sheet. */
export function onSheet(f: Footprint, r: Box, x: number, y: number, rotation: Rotation): Box {
  const [x0, y0, x1, y1] = turnRect([r.x, r.y, r.x + r.w, r.y + r.h], f.w, f.h, rotation / 90);
  return { x: x + x0, y: y + y0, w: x1 - x0, h: y1 - y0 };
}

/** A fixed copy in whole pixels: its piece (index into the copies), sheet, footprint's top-left and turn. */
export interface FixedCopy {
  index: number;
  sheet: number;
  x: number;
  y: number;
  rotation: Rotation;
}

export function resolveFixed(
  fixed: readonly FixedPlacement[],
  designs: readonly LayoutDesign[],
  firstPiece: readonly number[],
  footprints: readonly Footprint[],
  s: ResolvedSheetSettings,
  px: (inches: number) => number,
): FixedCopy[] {
  const taken = new Set<number>();
  const out: FixedCopy[] = [];
  const explicit = new Set(fixed.filter((f) => f.copy !== undefined).map((f) => `${f.designId}#${f.copy}`));
  for (const f of fixed) {
    const di = designs.findIndex((d) => d.id === f.designId);
    if (di < 0) throw new FixedPlacementError(`fixed placement: no design "${f.designId}"`);
    const d = designs[di];
    const rotation = f.rotation ?? 0;
    if (![0, 90, 180, 270].includes(rotation)) throw new FixedPlacementError(`fixed copy of "${d.id}": rotation must be 0, 90, 180 or 270`);
    if (rotation % 180 !== 0 && !s.rotate) throw new FixedPlacementError(`fixed copy of "${d.id}" is turned by ${rotation}° but the sheet does not allow rotation`);
    const sheet = f.sheet ?? 0;
    if (!Number.isInteger(sheet) || sheet < 0) throw new FixedPlacementError(`fixed copy of "${d.id}": sheet must be a whole number, 0 or more`);
    if (sheet > 0 && !Number.isFinite(s.maxLength)) throw new FixedPlacementError(`fixed copy of "${d.id}" is on sheet ${sheet}, but without a maximum length there is one sheet`);
    if (!Number.isFinite(f.x) || !Number.isFinite(f.y)) throw new FixedPlacementError(`fixed copy of "${d.id}": x and y must be numbers (inches)`);
    let copy = f.copy;
    if (copy === undefined) {
      copy = 0;
      while (copy < d.quantity && (taken.has(firstPiece[di] + copy) || explicit.has(`${d.id}#${copy}`))) copy++;
    }
    if (!Number.isInteger(copy) || copy < 0 || copy >= d.quantity)
      throw new FixedPlacementError(`fixed copy ${copy} of "${d.id}": the design has ${d.quantity} ${d.quantity === 1 ? 'copy' : 'copies'}`);
    const index = firstPiece[di] + copy;
    if (taken.has(index)) throw new FixedPlacementError(`copy ${copy} of "${d.id}" is fixed twice`);
    taken.add(index);
    // the art's top-left as given -> the footprint's
    const fp = footprints[di];
    const art = onSheet(fp, fp.art, 0, 0, rotation);
    out.push({ index, sheet, x: px(f.x) - art.x, y: px(f.y) - art.y, rotation });
  }
  return out;
}

/**
 * A starting layout's copies (`LayoutOptions.start`) in whole pixels, like `resolveFixed` but
 * lenient: a start is a hint, so a copy of an unknown design, beyond its design's quantity,
 * given twice, fixed, turned where the sheet does not turn, or not a number is left out (the
 * search lays it out like any copy without a place), never an error.
 */
export function resolveStart(
  start: readonly FixedPlacement[],
  designs: readonly LayoutDesign[],
  firstPiece: readonly number[],
  footprints: readonly Footprint[],
  s: ResolvedSheetSettings,
  px: (inches: number) => number,
  fixed: readonly FixedCopy[],
): FixedCopy[] {
  const taken = new Set(fixed.map((f) => f.index));
  const byId = new Map(designs.map((d, i) => [d.id, i]));
  const out: FixedCopy[] = [];
  for (const f of start) {
    const di = byId.get(f.designId);
    if (di === undefined || f.copy === undefined || !Number.isInteger(f.copy) || f.copy < 0 || f.copy >= designs[di].quantity) continue;
    const rotation = f.rotation ?? 0;
    if (![0, 90, 180, 270].includes(rotation) || (rotation % 180 !== 0 && !s.rotate)) continue;
    const sheet = f.sheet ?? 0;
    if (!Number.isInteger(sheet) || sheet < 0 || !Number.isFinite(f.x) || !Number.isFinite(f.y)) continue;
    const index = firstPiece[di] + f.copy;
    if (taken.has(index)) continue;
    taken.add(index);
    const fp = footprints[di];
    const art = onSheet(fp, fp.art, 0, 0, rotation);
    out.push({ index, sheet, x: px(f.x) - art.x, y: px(f.y) - art.y, rotation });
  }
  return out;
}
