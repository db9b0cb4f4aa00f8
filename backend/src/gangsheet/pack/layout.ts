/**
 * Designs in inches -> sheets with placements in inches and pixels.
 *
 * Rounding rule: everything is decided in whole pixels at the sheet DPI, then reported in
 * inches as pixels / dpi. A design's printed width is rounded to the nearest pixel, its
 * height is the rounded aspect-ratio height, and gap, margin and sheet width are rounded the
 * same way. Because packing happens on these integers, the pixel placements are exact, never
 * overlap after rounding, and the inch values are exactly the pixel values divided by dpi.
 */
import { FixedUnit, PieceTooLargeError, packSheets, UnitFixedError } from './sheets';
import { DesignMask } from '../shape/design-mask';
import { Box, FixedPlacement, FixedPlacementError, footprintOf, LabelSpace, onSheet, resolveFixed, resolveStart } from './footprint';
import { inkArea, NestPieceTooLargeError, nestShapes, Rotation } from '../shape/shape-layout';
import type { PlacementRule } from '../shape/placement';

export interface LayoutDesign {
  /** Caller's id, echoed in placements and errors. */
  id: string;
  /** Size of the trimmed art in source pixels (only the aspect ratio is used here). */
  widthPx: number;
  heightPx: number;
  /** Printed width in inches; the height follows the aspect ratio. */
  width: number;
  quantity: number;
  /** Ink mask from inspectDesign, used by "shape" nesting; absent = the whole box is ink. */
  mask?: DesignMask;
  /** Space reserved beside every copy (an order label); absent = none. */
  label?: LabelSpace;
}

/** "box": copies are packed as rectangles. "shape": by their ink outline (true-shape nesting). */
export type Nesting = 'box' | 'shape';

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
  /** Default "box". */
  nesting?: Nesting;
}

export type ResolvedSheetSettings = Required<SheetSettings>;

export interface LayoutOptions {
  /** Wall-clock budget for the search. Default DEFAULT_TIME_LIMIT_MS. */
  timeLimitMs?: number;
  /** Deterministic effort cap (heuristic evaluations), for reproducible tests. */
  maxEvaluations?: number;
  seed?: number;
  /** "shape" nesting: grid cell size in inches (default 0.02; rounded to whole pixels). */
  cellInches?: number;
  /** "shape" nesting: only these placement rules (tests and benchmarks; default all). */
  placementRules?: readonly PlacementRule[];
  /**
   * "shape" nesting: compact the far end with this many counted moves (tests: with
   * `maxEvaluations` the timed compaction does not run).
   */
  compactMoves?: number;
  /** "shape" nesting: threads that race on compacting the far end (default 1; see nest.ts). */
  threads?: number;
  /**
   * "shape" nesting: stop once the layout has stopped getting shorter, before the time limit
   * (default true; false always runs to the time limit; see nest.ts CONVERGENCE).
   */
  converge?: boolean;
  /** Copies already placed; the others are laid out around them. */
  fixed?: readonly FixedPlacement[];
  /**
   * "shape" nesting: a starting layout, where the copies not fixed stand now (the seller's
   * current layout; `copy` needed). The search starts from it: copies clear of the fixed
   * ones and of each other stay, the others (and copies it leaves out) are laid out around
   * them, and the usual starting layouts compete. Entries that name no copy of the order are
   * ignored. Rectangle layouts ignore it.
   */
  start?: readonly FixedPlacement[];
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
  /** Turned by 90° or 270° (width and height swapped). */
  rotated: boolean;
  /**
   * Clockwise turn in degrees; "box" layouts use 0 and 90 only. Layouts saved before
   * true-shape nesting lack it: then `rotated` means 90.
   */
  rotation?: Rotation;
  /** This copy was given as a fixed placement (it is where it was given). */
  fixed?: true;
  /** The design's reserved label space on the sheet; text in it runs turned by `rotation` like the art. */
  label?: { x: number; y: number; width: number; height: number; px: PixelRect };
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
  /**
   * How the search ended: its wall time against its time limit, and whether it stopped before
   * the limit because the layout had stopped getting shorter (a converging "shape" layout,
   * `LayoutOptions.converge`). Rectangle layouts report `converged: false`. Absent on counted
   * runs (`maxEvaluations`), which end after their evaluations and are reproducible.
   */
  search?: LayoutSearch;
}

export interface LayoutSearch {
  converged: boolean;
  elapsedMs: number;
  timeLimitMs: number;
}

export const DEFAULT_SETTINGS: ResolvedSheetSettings = {
  width: 22,
  maxLength: Infinity,
  gap: 0.25,
  margin: 0,
  rotate: true,
  dpi: 300,
  nesting: 'box',
};

/** Default grid cell of "shape" nesting, inches. */
export const DEFAULT_CELL_INCHES = 0.02;

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
  if (r.nesting !== 'box' && r.nesting !== 'shape') throw new Error('sheet nesting must be "box" or "shape"');
  return r;
}

/** Pixel size of one copy of a design, per the rounding rule above. */
export function designPixelSize(d: Pick<LayoutDesign, 'widthPx' | 'heightPx' | 'width'>, dpi: number): { w: number; h: number } {
  const w = Math.max(1, Math.round(d.width * dpi));
  const h = Math.max(1, Math.round((d.width * dpi * d.heightPx) / d.widthPx));
  return { w, h };
}

/**
 * Lays the copies out on sheets. With `nesting: "shape"` the copies are nested by their ink
 * (designs need `mask`); the rectangle layout is computed too (with a small share of the
 * time) and returned instead when it is not longer, so "shape" never costs film.
 */
export function layoutSheets(designs: readonly LayoutDesign[], settings: SheetSettings = {}, opts: LayoutOptions = {}): LayoutResult {
  const s = resolveSettings(settings);
  if (s.nesting === 'box') return layoutWith(designs, s, opts, 'box');
  return nestBoth(designs, settings, opts, false).shape;
}

export interface NestingComparison {
  /** The "shape" layout (the rectangle one when that is not longer). */
  shape: LayoutResult;
  /** The rectangle ("box") layout of the same order. */
  box: LayoutResult;
  /** Film the shape layout saves: box.totalLength - shape.totalLength (inches, >= 0). */
  savedLength: number;
  /** savedLength / box.totalLength (0..1). */
  savedFraction: number;
}

/**
 * Both layouts of an order, for the preview's "saves 14 % film, 31 in" and for choosing the
 * default. The time limit covers both: the rectangle packer gets a fifth of it (at most
 * the default 600 ms), true-shape nesting the rest. Fixed copies bind both layouts; where
 * the rectangle layout cannot hold them (copies pinned where a shape layout put them, their
 * boxes closer than the gap), `shape` is the shape layout and `box` is laid out without
 * them, for the film figures only.
 */
export function compareNesting(designs: readonly LayoutDesign[], settings: SheetSettings = {}, opts: LayoutOptions = {}): NestingComparison {
  return nestBoth(designs, settings, opts, true);
}

/**
 * `compareNesting`; without `figures` (`layoutSheets`, which returns only the layout) a
 * rectangle layout that cannot hold the fixed copies is not made, and its share of the time
 * goes to the shape layout (`box` is then absent).
 */
function nestBoth(designs: readonly LayoutDesign[], settings: SheetSettings, opts: LayoutOptions, figures: true): NestingComparison;
function nestBoth(designs: readonly LayoutDesign[], settings: SheetSettings, opts: LayoutOptions, figures: boolean): Pick<NestingComparison, 'shape'>;
function nestBoth(designs: readonly LayoutDesign[], settings: SheetSettings, opts: LayoutOptions, figures: boolean): Pick<NestingComparison, 'shape'> & Partial<NestingComparison> {
  const start = performance.now();
  const s = resolveSettings({ ...settings, nesting: 'shape' });
  const total = opts.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
  const boxMs = Math.min(DEFAULT_TIME_LIMIT_MS, total / 5);
  // fixed copies placed by shape (their boxes may come closer than the gap) cannot stand in
  // a rectangle layout: then the shape layout is the one, and the rectangle layout without
  // them only gives the film figures
  let boxHoldsFixed = true;
  let box: LayoutResult | undefined;
  try {
    box = layoutWith(designs, { ...s, nesting: 'box' }, { ...opts, timeLimitMs: boxMs }, 'box');
  } catch (e) {
    if (!(e instanceof FixedPlacementError) || !opts.fixed?.length) throw e;
    boxHoldsFixed = false;
    // the rectangle layout without the fixed copies only gives the film figures
    if (figures) box = layoutWith(designs, { ...s, nesting: 'box' }, { ...opts, fixed: undefined, timeLimitMs: boxMs }, 'box');
  }
  let nested: LayoutResult | undefined;
  try {
    nested = layoutWith(designs, s, { ...opts, timeLimitMs: Math.max(1, box ? total - boxMs : total - (performance.now() - start)) }, 'shape');
  } catch (e) {
    // the reverse: fixed copies a rectangle layout put exactly a gap apart can come closer
    // than the gap on the shape search's cells (which cover every outline outwards); the
    // rectangle layout, which holds them exactly, is then the one
    if (!(e instanceof FixedPlacementError) || !box || !boxHoldsFixed) throw e;
  }
  const searched = (chosen: LayoutResult): LayoutResult =>
    opts.maxEvaluations === undefined ? { ...chosen, search: { converged: nested?.search?.converged ?? false, elapsedMs: performance.now() - start, timeLimitMs: total } } : chosen;
  const shorter = (a: LayoutResult, b: LayoutResult) => a.sheets.length < b.sheets.length || (a.sheets.length === b.sheets.length && a.totalLength < b.totalLength);
  // the starting layout repaired as a rectangle layout (where it is one): a candidate too
  const started = startAsRectangles(designs, s, opts);
  if (!box) return { shape: searched(started && (!nested || shorter(started, nested)) ? started : nested!) };
  const better = !!nested && (!boxHoldsFixed || shorter(nested, box));
  // the search of both layouts: the whole time limit, and whether the shape search converged
  let chosen = better ? nested! : { ...box, settings: s };
  if (started && shorter(started, chosen)) chosen = started;
  const shape = searched(chosen);
  const savedLength = box.totalLength - shape.totalLength;
  return { shape, box, savedLength, savedFraction: box.totalLength > 0 ? savedLength / box.totalLength : 0 };
}

/**
 * The starting layout (`opts.start`) repaired around the fixed copies as rectangles: each
 * start copy (in reading order) whose box lies within the sheet and keeps the gap from the
 * fixed copies' boxes and from those kept before it stays, as a fixed copy of a rectangle
 * layout, and the others (covered by a moved pin, or without a place) are packed around them
 * (a few counted evaluations). A rectangle layout's copies lie off the shape search's cells
 * exactly the gap apart, and the shape search's cells would take many of them for too close:
 * for such a start (the preview of a print of near-rectangular art often is the rectangle
 * layout) this is the repair. Only the given fixed copies are flagged `fixed`. Undefined
 * without a start, when a fixed copy names no copy number, or when more than a quarter of
 * the start would be displaced (then it was no rectangle layout).
 */
function startAsRectangles(designs: readonly LayoutDesign[], s: ResolvedSheetSettings, opts: LayoutOptions): LayoutResult | undefined {
  const fixed = opts.fixed ?? [];
  const start = opts.start ?? [];
  if (!start.length || fixed.some((f) => f.copy === undefined)) return undefined;
  const px = (inches: number) => Math.round(inches * s.dpi);
  const gap = px(s.gap);
  const margin = px(s.margin);
  const right = px(s.width) - margin;
  const bottom = Number.isFinite(s.maxLength) ? px(s.maxLength) - margin : Infinity;
  const byId = new Map(designs.map((d) => [d.id, d]));
  const key = (f: FixedPlacement) => `${f.designId}#${f.copy}`;
  const boxOf = (f: FixedPlacement) => {
    const d = byId.get(f.designId);
    const rotation = f.rotation ?? 0;
    if (!d || !Number.isFinite(f.x) || !Number.isFinite(f.y) || ![0, 90, 180, 270].includes(rotation)) return undefined;
    const fp = footprintOf(d, designPixelSize(d, s.dpi), px);
    const art = onSheet(fp, fp.art, 0, 0, rotation);
    const odd = rotation % 180 !== 0;
    return { sheet: f.sheet ?? 0, x: px(f.x) - art.x, y: px(f.y) - art.y, w: odd ? fp.h : fp.w, h: odd ? fp.w : fp.h };
  };
  type B = NonNullable<ReturnType<typeof boxOf>>;
  const apart = (a: B, b: B) => a.sheet !== b.sheet || a.x >= b.x + b.w + gap || b.x >= a.x + a.w + gap || a.y >= b.y + b.h + gap || b.y >= a.y + a.h + gap;
  const placed: B[] = fixed.flatMap((f) => boxOf(f) ?? []);
  const taken = new Set(fixed.map(key));
  const kept: FixedPlacement[] = [];
  const given = start.flatMap((f) => {
    const b = boxOf(f);
    return b && f.copy !== undefined ? [{ f, b }] : [];
  });
  given.sort((p, q) => p.b.sheet - q.b.sheet || p.b.y - q.b.y || p.b.x - q.b.x);
  for (const { f, b } of given) {
    if (taken.has(key(f)) || b.x < margin || b.y < margin || b.x + b.w > right || b.y + b.h > bottom || !placed.every((o) => apart(b, o))) continue;
    taken.add(key(f));
    placed.push(b);
    kept.push(f);
  }
  if (kept.length < 0.75 * start.length) return undefined;
  const pinned = new Set(fixed.map(key));
  let all: LayoutResult;
  try {
    all = layoutWith(designs, { ...s, nesting: 'box' }, { fixed: [...fixed, ...kept], maxEvaluations: START_BOX_EVALUATIONS, seed: opts.seed }, 'box');
  } catch (e) {
    if (e instanceof FixedPlacementError) return undefined;
    throw e;
  }
  const sheets = all.sheets.map((sh) => ({
    ...sh,
    placements: sh.placements.map(({ fixed: _fixed, ...p }) => (pinned.has(`${p.designId}#${p.copy}`) ? { ...p, fixed: true as const } : p)),
  }));
  return { ...all, settings: s, sheets };
}

/** Counted evaluations of the rectangle packing around a repaired starting layout (`startAsRectangles`). */
const START_BOX_EVALUATIONS = 20;

function layoutWith(designs: readonly LayoutDesign[], s: ResolvedSheetSettings, opts: LayoutOptions, mode: Nesting): LayoutResult {
  const start = performance.now();
  const px = (inches: number) => Math.round(inches * s.dpi);
  const pieces: { w: number; h: number }[] = [];
  const owner: { design: number; copy: number }[] = [];
  const firstPiece: number[] = [];
  const footprints = designs.map((d, di) => {
    if (!(d.widthPx > 0) || !(d.heightPx > 0)) throw new Error(`design "${d.id}": pixel size must be positive`);
    if (!(d.width > 0)) throw new Error(`design "${d.id}": printed width must be positive`);
    if (!Number.isInteger(d.quantity) || d.quantity < 0) throw new Error(`design "${d.id}": quantity must be a whole number`);
    const fp = footprintOf(d, designPixelSize(d, s.dpi), px);
    firstPiece.push(pieces.length);
    for (let c = 0; c < d.quantity; c++) {
      pieces.push({ w: fp.w, h: fp.h });
      owner.push({ design: di, copy: c });
    }
    return fp;
  });
  const widthPx = px(s.width);
  const cfg = {
    width: widthPx,
    gap: px(s.gap),
    margin: px(s.margin),
    maxLength: Number.isFinite(s.maxLength) ? px(s.maxLength) : Infinity,
    rotate: s.rotate,
  };
  const fixed = resolveFixed(opts.fixed ?? [], designs, firstPiece, footprints, s, px);
  const tooLarge = (index: number, reason: 'width' | 'length') => {
    const d = designs[owner[index].design];
    const p = pieces[index];
    const inch = (v: number) => +(v / s.dpi).toFixed(3);
    const what =
      reason === 'width'
        ? `is ${inch(p.w)} x ${inch(p.h)} in and does not fit the printable width of ${inch(cfg.width - 2 * cfg.margin)} in${s.rotate ? ', even rotated' : ''}`
        : `is ${inch(p.w)} x ${inch(p.h)} in and does not fit the maximum printable length of ${inch(cfg.maxLength - 2 * cfg.margin)} in`;
    return new DesignTooLargeError(d.id, `Design "${d.id}" ${what}`);
  };
  const fixedError = (e: UnitFixedError) => {
    const name = (index: number) => `copy ${owner[index].copy} of "${designs[owner[index].design].id}"`;
    return new FixedPlacementError(
      e.reason === 'outside'
        ? `fixed ${name(e.index)} lies outside the printable area of sheet ${e.sheet}`
        : `fixed ${name(e.index)} and fixed ${name(e.other!)} overlap or are closer than the gap on sheet ${e.sheet}`,
    );
  };
  const search = { timeLimitMs: opts.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS, maxEvaluations: opts.maxEvaluations, seed: opts.seed };
  let unitSheets: { length: number; placements: { index: number; x: number; y: number; w: number; h: number; rotation: Rotation }[] }[];
  // area each copy counts for in the density figures: its box, or its ink for "shape"
  let copyArea: (index: number) => number;
  let converged = false;
  try {
    if (mode === 'shape') {
      const shapes = designs.map((d, di) => {
        const fp = footprints[di];
        return { w: fp.w, h: fp.h, sourceWidth: d.widthPx, mask: d.mask, ...(fp.label ? { art: fp.art, reserved: [fp.label] } : {}) };
      });
      const cellPx = Math.max(1, Math.round((opts.cellInches ?? DEFAULT_CELL_INCHES) * s.dpi));
      const nested = nestShapes(
        shapes,
        owner.map((o) => o.design),
        { ...cfg, cellPx },
        { ...search, rules: opts.placementRules, compactMoves: opts.compactMoves, threads: opts.threads, converge: opts.converge },
        fixed.map((f) => ({ copy: f.index, sheet: f.sheet, x: f.x, y: f.y, rotation: f.rotation })),
        resolveStart(opts.start ?? [], designs, firstPiece, footprints, s, px, fixed).map((f) => ({ copy: f.index, sheet: f.sheet, x: f.x, y: f.y, rotation: f.rotation })),
      );
      converged = nested.converged;
      unitSheets = nested.sheets.map((sh) => ({ length: sh.length, placements: sh.placements.map((p) => ({ ...p, index: p.copy })) }));
      const inkAreas = designs.map((d, di) => inkArea({ w: footprints[di].art.w, h: footprints[di].art.h, sourceWidth: d.widthPx, mask: d.mask }));
      copyArea = (i) => inkAreas[owner[i].design];
    } else {
      const fixedUnits: FixedUnit[] = fixed.map((f) => ({ index: f.index, sheet: f.sheet, x: f.x, y: f.y, rotated: f.rotation % 180 !== 0 }));
      unitSheets = packSheets(pieces, cfg, search, fixedUnits).map((us) => ({
        length: us.length,
        placements: us.placements.map((p) => {
          const given = p.fixed ? fixed.find((f) => f.index === p.index) : undefined;
          return { ...p, rotation: given ? given.rotation : ((p.rotated ? 90 : 0) as Rotation) };
        }),
      }));
      copyArea = (i) => footprints[owner[i].design].art.w * footprints[owner[i].design].art.h;
    }
  } catch (e) {
    if (e instanceof PieceTooLargeError) throw tooLarge(e.index, e.reason);
    if (e instanceof NestPieceTooLargeError) throw tooLarge(e.copy, e.reason);
    if (e instanceof UnitFixedError) throw fixedError(e);
    throw e;
  }
  const fixedIndex = new Set(fixed.map((f) => f.index));
  const inches = (b: Box) => ({ x: b.x / s.dpi, y: b.y / s.dpi, width: b.w / s.dpi, height: b.h / s.dpi, px: { x: b.x, y: b.y, width: b.w, height: b.h } });
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
        designArea += copyArea(p.index);
        const o = owner[p.index];
        const fp = footprints[o.design];
        const art = onSheet(fp, fp.art, p.x, p.y, p.rotation);
        const placement: Placement = {
          designId: designs[o.design].id,
          copy: o.copy,
          ...inches(art),
          rotated: p.rotation % 180 !== 0,
          rotation: p.rotation,
        };
        if (fixedIndex.has(p.index)) placement.fixed = true;
        if (fp.label) placement.label = inches(onSheet(fp, fp.label, p.x, p.y, p.rotation));
        return placement;
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
    ...(search.maxEvaluations === undefined ? { search: { converged, elapsedMs: performance.now() - start, timeLimitMs: search.timeLimitMs } } : {}),
  };
}
