/**
 * Designs in inches -> sheets with placements in inches and pixels.
 *
 * Rounding rule: everything is decided in whole pixels at the sheet DPI, then reported in
 * inches as pixels / dpi. A design's printed width is rounded to the nearest pixel, its
 * height is the rounded aspect-ratio height, and gap, margin and sheet width are rounded the
 * same way. Because packing happens on these integers, the pixel placements are exact, never
 * overlap after rounding, and the inch values are exactly the pixel values divided by dpi.
 */
import { PieceTooLargeError, packSheets } from './sheets';

export interface LayoutDesign {
  /** Caller's id, echoed in placements and errors. */
  id: string;
  /** Size of the trimmed art in source pixels (only the aspect ratio is used here). */
  widthPx: number;
  heightPx: number;
  /** Printed width in inches; the height follows the aspect ratio. */
  width: number;
  quantity: number;
}

export interface SheetSettings {
  /** Film width in inches. Default 22. */
  width?: number;
  /** Maximum sheet length in inches. Default: no limit (one sheet). */
  maxLength?: number;
  /** Gap between designs in inches. Default 0.25. */
  gap?: number;
  /** Empty border at every edge in inches. Default 0. */
  margin?: number;
  /** Allow 90° rotation. Default true. */
  rotate?: boolean;
  /** Default 300. */
  dpi?: number;
}

export type ResolvedSheetSettings = Required<SheetSettings>;

export interface LayoutOptions {
  /** Wall-clock budget for the search. Default 600 ms (300 copies in well under 1 s). */
  timeLimitMs?: number;
  /** Deterministic effort cap (heuristic evaluations), for reproducible tests. */
  maxEvaluations?: number;
  seed?: number;
}

export interface PixelRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Placement {
  designId: string;
  /** 0-based copy number of this design. */
  copy: number;
  /** Inches from the sheet's top-left corner; width/height as placed (after rotation). */
  x: number;
  y: number;
  width: number;
  height: number;
  px: PixelRect;
  /** Rotated 90° clockwise. */
  rotated: boolean;
}

export interface SheetLayout {
  index: number;
  /** Used length in inches (margins included). */
  length: number;
  lengthPx: number;
  widthPx: number;
  placements: Placement[];
}

export interface LayoutResult {
  settings: ResolvedSheetSettings;
  sheets: SheetLayout[];
  /** Total length of film over all sheets, inches. */
  totalLength: number;
  /** Printed design area / film area used (0..1). */
  density: number;
  /** Film length if density were 100 % (area lower bound), inches. */
  lengthLowerBound: number;
  copies: number;
}

export const DEFAULT_SETTINGS: ResolvedSheetSettings = {
  width: 22,
  maxLength: Infinity,
  gap: 0.25,
  margin: 0,
  rotate: true,
  dpi: 300,
};

export const DEFAULT_TIME_LIMIT_MS = 600;

/** Thrown for a design that cannot be placed on the sheet; names the design. */
export class DesignTooLargeError extends Error {
  constructor(
    readonly designId: string,
    message: string,
  ) {
    super(message);
    this.name = 'DesignTooLargeError';
  }
}

export function resolveSettings(s: SheetSettings = {}): ResolvedSheetSettings {
  const r: ResolvedSheetSettings = { ...DEFAULT_SETTINGS };
  for (const [k, v] of Object.entries(s)) if (v !== undefined && v !== null) (r as any)[k] = v;
  const positive = (v: number, name: string) => {
    if (typeof v !== 'number' || !(v > 0)) throw new Error(`sheet ${name} must be a positive number`);
  };
  positive(r.width, 'width');
  positive(r.dpi, 'dpi');
  positive(r.maxLength, 'maxLength');
  if (!(r.gap >= 0) || !(r.margin >= 0)) throw new Error('sheet gap and margin must be zero or more');
  return r;
}

/** Pixel size of one copy of a design, per the rounding rule above. */
export function designPixelSize(d: Pick<LayoutDesign, 'widthPx' | 'heightPx' | 'width'>, dpi: number): { w: number; h: number } {
  const w = Math.max(1, Math.round(d.width * dpi));
  const h = Math.max(1, Math.round((d.width * dpi * d.heightPx) / d.widthPx));
  return { w, h };
}

export function layoutSheets(designs: readonly LayoutDesign[], settings: SheetSettings = {}, opts: LayoutOptions = {}): LayoutResult {
  const s = resolveSettings(settings);
  const px = (inches: number) => Math.round(inches * s.dpi);
  const pieces: { w: number; h: number }[] = [];
  const owner: { design: number; copy: number }[] = [];
  designs.forEach((d, di) => {
    if (!(d.widthPx > 0) || !(d.heightPx > 0)) throw new Error(`design "${d.id}": pixel size must be positive`);
    if (!(d.width > 0)) throw new Error(`design "${d.id}": printed width must be positive`);
    if (!Number.isInteger(d.quantity) || d.quantity < 0) throw new Error(`design "${d.id}": quantity must be a whole number`);
    const size = designPixelSize(d, s.dpi);
    for (let c = 0; c < d.quantity; c++) {
      pieces.push(size);
      owner.push({ design: di, copy: c });
    }
  });
  const widthPx = px(s.width);
  const cfg = {
    width: widthPx,
    gap: px(s.gap),
    margin: px(s.margin),
    maxLength: Number.isFinite(s.maxLength) ? px(s.maxLength) : Infinity,
    rotate: s.rotate,
  };
  let unitSheets;
  try {
    unitSheets = packSheets(pieces, cfg, {
      timeLimitMs: opts.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS,
      maxEvaluations: opts.maxEvaluations,
      seed: opts.seed,
    });
  } catch (e) {
    if (e instanceof PieceTooLargeError) {
      const d = designs[owner[e.index].design];
      const p = pieces[e.index];
      const inch = (v: number) => +(v / s.dpi).toFixed(3);
      const what =
        e.reason === 'width'
          ? `is ${inch(p.w)} x ${inch(p.h)} in and does not fit the printable width of ${inch(cfg.width - 2 * cfg.margin)} in${s.rotate ? ', even rotated' : ''}`
          : `is ${inch(p.w)} x ${inch(p.h)} in and does not fit the maximum printable length of ${inch(cfg.maxLength - 2 * cfg.margin)} in`;
      throw new DesignTooLargeError(d.id, `Design "${d.id}" ${what}`);
    }
    throw e;
  }
  let designArea = 0;
  let filmArea = 0;
  const sheets: SheetLayout[] = unitSheets.map((us, index) => {
    filmArea += us.length * widthPx;
    return {
      index,
      length: us.length / s.dpi,
      lengthPx: us.length,
      widthPx,
      placements: us.placements.map((p) => {
        designArea += p.w * p.h;
        const o = owner[p.index];
        return {
          designId: designs[o.design].id,
          copy: o.copy,
          x: p.x / s.dpi,
          y: p.y / s.dpi,
          width: p.w / s.dpi,
          height: p.h / s.dpi,
          px: { x: p.x, y: p.y, width: p.w, height: p.h },
          rotated: p.rotated,
        };
      }),
    };
  });
  const totalLength = sheets.reduce((a, sh) => a + sh.length, 0);
  return {
    settings: s,
    sheets,
    totalLength,
    density: filmArea > 0 ? designArea / filmArea : 0,
    lengthLowerBound: designArea / widthPx / s.dpi,
    copies: pieces.length,
  };
}
