/**
 * Gang-sheet designs (pixel sizes plus ink masks) -> true-shape sheets in whole pixels.
 *
 * Each design becomes one cell mask per allowed orientation (0/90/180/270° clockwise), in
 * cells of `cellPx` sheet pixels. A cell is set when the rendered raster can have any
 * visible pixel in it: every ink cell of the design mask is mapped to the printed size and
 * grown by `inkReach`, the most the renderer lets a copy's pixels reach beyond that
 * footprint (it clears the rest of the resampling kernel's spread, `inkClip`). Each
 * orientation's footprint is also grown by the gap, on pixels (`grownMask`); the nester keeps
 * every copy's ink cells off the others' grown cells.
 * Copies are placed on whole cells, so their pixel positions are exact multiples of `cellPx`
 * from the margin.
 */
import { emptyMask, markRect, countCells, setRun, CellMask } from './cells';
import { DesignMask, maskCoverage, unpackMask } from './design-mask';
import { UnitFixedError } from '../pack/sheets';
import { toCompactShape } from './compact-sheet';
import { NestType, prepare } from './grid';
import { NestFixed, NestPieceTooLargeError, NestStart, nestSheets } from './nest';
import { gapOverlap } from './cell-overlap';
import type { PlacementRule } from './placement';

export interface ShapeDesign {
  /** Printed size in sheet pixels (upright). */
  w: number;
  h: number;
  /** Trimmed source width in pixels (how much the renderer enlarges it: `inkReach`). */
  sourceWidth: number;
  /** Ink mask of the trimmed art; absent = the whole rectangle is ink. */
  mask?: DesignMask;
  /** Where the art lies in the w × h box (default: the whole box); the rest is for `reserved`. */
  art?: { x: number; y: number; w: number; h: number };
  /** Rectangles of the box kept free like ink (label space), upright pixels. */
  reserved?: readonly { x: number; y: number; w: number; h: number }[];
}

/** A copy already placed: it stays there, and the others are nested around it. */
export interface ShapeFixed {
  /** Index into the copies array. */
  copy: number;
  sheet: number;
  /** Pixels from the sheet's top-left to the copy's box (turned). */
  x: number;
  y: number;
  rotation: Rotation;
}

export interface ShapeConfig {
  /** All in sheet pixels. */
  width: number;
  gap: number;
  margin: number;
  maxLength: number;
  rotate: boolean;
  /** Grid cell size in pixels. */
  cellPx: number;
}

export type Rotation = 0 | 90 | 180 | 270;

export interface ShapePlacement {
  /** Index into the copies array. */
  copy: number;
  /** Pixels from the sheet's top-left; w/h as placed. */
  x: number;
  y: number;
  w: number;
  h: number;
  /** Clockwise turn of the design. */
  rotation: Rotation;
}

export interface ShapeSheet {
  /** Used length in pixels, margins included. */
  length: number;
  placements: ShapePlacement[];
}

export interface ShapeLayout {
  sheets: ShapeSheet[];
  /** Ended before its time limit because it had stopped getting shorter (`NestResult.converged`). */
  converged: boolean;
  /** Wall time, ms (turning the masks into cells included). */
  elapsedMs: number;
}

/**
 * How far (in printed pixels) a rendered copy's visible pixels may reach beyond its ink
 * footprint (the design mask's ink cells mapped to the printed size). lanczos3 spreads an
 * edge up to 3 pixels of the coarser of source and output; the renderer clears every pixel
 * beyond this reach (`inkClip`), so the nester keeps the gap from the footprint and not from
 * that faint spread. At most 1 pixel for a raster that is not enlarged; an enlarged
 * raster's edge ramp is wider, about 1.5 source pixels. What the clip removes beyond this
 * reach is all but transparent (alpha of a few levels of 255), so keeping the whole spread,
 * 3 · enlargement + 1 pixels, out of every gap would cost film for nothing visible.
 */
export function inkReach(width: number, sourceWidth: number): number {
  const k = width / Math.max(1, sourceWidth);
  return k <= 1 ? 1 : 1 + 1.5 * k;
}

/**
 * Rectangles (in printed pixels, fractional) that cover the footprint: the art's ink grown by
 * `inkReach` (at `art` in the box), and the reserved rectangles.
 */
function footprintRects(d: ShapeDesign): [number, number, number, number][] {
  const art = d.art ?? { x: 0, y: 0, w: d.w, h: d.h };
  const rects = inkRects({ w: art.w, h: art.h, sourceWidth: d.sourceWidth, mask: d.mask });
  if (!d.art && !d.reserved?.length) return rects;
  const out: [number, number, number, number][] = rects.map(([x0, y0, x1, y1]) => [x0 + art.x, y0 + art.y, x1 + art.x, y1 + art.y]);
  for (const r of d.reserved ?? []) out.push([r.x, r.y, r.x + r.w, r.y + r.h]);
  return out;
}

/** Rectangles (in printed pixels, fractional) that cover the art's ink grown by `inkReach`. */
function inkRects(d: ShapeDesign): [number, number, number, number][] {
  if (!d.mask) return [[0, 0, d.w, d.h]];
  const cells = unpackMask(d.mask);
  const mw = d.mask.width;
  const mh = d.mask.height;
  const sx = d.w / mw;
  const sy = d.h / mh;
  const reach = inkReach(d.w, d.sourceWidth);
  const rects: [number, number, number, number][] = [];
  for (let y = 0; y < mh; y++) {
    let x = 0;
    while (x < mw) {
      if (!cells[y * mw + x]) {
        x++;
        continue;
      }
      let e = x;
      while (e < mw && cells[y * mw + e]) e++;
      rects.push([
        Math.max(0, x * sx - reach),
        Math.max(0, y * sy - reach),
        Math.min(d.w, e * sx + reach),
        Math.min(d.h, (y + 1) * sy + reach),
      ]);
      x = e;
    }
  }
  return rects;
}

/**
 * The pixels of a w × h raster of the design (resampled from `sourceWidth` trimmed pixels)
 * that may stay visible: those the footprint grown by `inkReach` touches. Each lies inside a
 * cell the nester marks for the copy (the same rectangles, marked on cells of whole pixels
 * aligned with the copy), so clearing every other pixel keeps the rendered ink within what
 * was nested.
 */
export function inkClip(mask: DesignMask, w: number, h: number, sourceWidth: number): CellMask {
  const m = emptyMask(w, h);
  for (const [x0, y0, x1, y1] of inkRects({ w, h, sourceWidth, mask })) markRect(m, x0, y0, x1, y1);
  return m;
}

/**
 * A rectangle [x0, y0, x1, y1] of the box [0, w] × [0, h] turned `q` quarter turns clockwise,
 * in the turned box (one turn maps (x, y) to (h - y, x)).
 */
export function turnRect([x0, y0, x1, y1]: readonly [number, number, number, number], w: number, h: number, q: number): [number, number, number, number] {
  if (q === 0) return [x0, y0, x1, y1];
  if (q === 1) return [h - y1, x0, h - y0, x1];
  if (q === 2) return [w - x1, h - y1, w - x0, h - y0];
  return [y0, w - x1, y1, w - x0];
}

/** The footprint rectangles turned `q` quarter turns clockwise (box [0, w] × [0, h] → its turned box). */
function turnedRects(d: ShapeDesign, rects: [number, number, number, number][], q: number): [number, number, number, number][] {
  return rects.map((r) => turnRect(r, d.w, d.h, q));
}

/** The cell mask of (turned) footprint rectangles in a W × H pixel box. */
function cellMaskOf(rects: [number, number, number, number][], W: number, H: number, cellPx: number): CellMask {
  const m = emptyMask(Math.ceil(W / cellPx), Math.ceil(H / cellPx));
  for (const r of rects) markRect(m, r[0] / cellPx, r[1] / cellPx, r[2] / cellPx, r[3] / cellPx);
  m.area = countCells(m);
  return m;
}

/**
 * The footprint grown by the gap, as cells: every cell that overlaps a footprint rectangle
 * or comes closer than `gap` pixels (Euclidean) to one. The mask reaches `pad` cells beyond
 * the W × H box on every side (its cell (pad, pad) is the box's cell (0, 0)). A copy whose
 * ink cells avoid these cells keeps the gap from this footprint. The distance is measured
 * from the footprint's pixels, not from its cells, so only the cell rounding of the two
 * copies is paid on top of the gap (growing the ink cells by whole cells would pay about
 * one more cell per contact).
 */
export function grownMask(rects: readonly [number, number, number, number][], W: number, H: number, cellPx: number, gap: number): { mask: CellMask; pad: number } {
  const pad = Math.ceil(gap / cellPx) + 1;
  const m = emptyMask(Math.ceil(W / cellPx) + 2 * pad, Math.ceil(H / cellPx) + 2 * pad);
  const o = pad * cellPx;
  for (const [x0, y0, x1, y1] of rects) {
    if (gap <= 0) {
      markRect(m, (x0 + o) / cellPx, (y0 + o) / cellPx, (x1 + o) / cellPx, (y1 + o) / cellPx);
      continue;
    }
    // with a gap, the cells the rectangle overlaps are among those closer than the gap
    const cy0 = Math.max(0, Math.floor((y0 + o - gap) / cellPx));
    const cy1 = Math.min(m.h, Math.ceil((y1 + o + gap) / cellPx));
    for (let cy = cy0; cy < cy1; cy++) {
      const top = cy * cellPx - o;
      const dy = Math.max(0, y0 - (top + cellPx), top - y1);
      if (dy >= gap) continue;
      const reach = Math.sqrt(gap * gap - dy * dy);
      // cells whose span meets (x0 - reach, x1 + reach)
      const a = Math.max(0, Math.floor((x0 - reach + o) / cellPx));
      const b = Math.min(m.w, Math.ceil((x1 + reach + o) / cellPx));
      setRun(m.bits, m.words, cy, a, b);
    }
  }
  m.area = countCells(m);
  return { mask: m, pad };
}

/** Ink area of one copy in printed pixels² (from its mask), for density figures. */
export function inkArea(d: ShapeDesign): number {
  return d.mask ? maskCoverage(d.mask) * d.w * d.h : d.w * d.h;
}

/** Memory the nester may spend on the designs' prepared masks (32 bit shifts of each row). */
export const MASK_MEMORY_BYTES = 96 << 20;

/**
 * The cell size to use: the requested one, made coarser (×1.25 steps) while the prepared
 * masks of all designs would take more than MASK_MEMORY_BYTES. A prepared orientation holds
 * its rows shifted by each of 32 bit offsets: rows × (words + 1) × 32 × 4 bytes. Only orders
 * of many very large designs are affected.
 */
export function boundedCell(designs: readonly ShapeDesign[], cellPx: number, orientations: number): number {
  const prepared = (w: number, h: number) => h * (Math.ceil(w / 32) + 1) * 32 * 4;
  const bytes = (c: number) =>
    designs.reduce((a, d) => {
      const w = Math.ceil(d.w / c);
      const h = Math.ceil(d.h / c);
      let sum = 0;
      for (let q = 0; q < orientations; q++) sum += q % 2 ? prepared(h, w) : prepared(w, h);
      return a + sum;
    }, 0);
  let cell = cellPx;
  while (bytes(cell) > MASK_MEMORY_BYTES) cell = Math.ceil(cell * 1.25);
  return cell;
}

/** Thrown for a copy that fits no empty sheet; `copy` indexes the copies array. */
export { NestPieceTooLargeError };

/**
 * How the product's shape layouts split their time (docs/gangsheet.md, "Compacting the far
 * end"): half for the bottom-left search, half for overlap minimisation of the last sheet,
 * shrinking it by 0.2 % at a time at cuts within its last 2 %, where a bottom-left layout is
 * loose. That gives shorter sheets than spending the whole time on the search.
 */
export const SHAPE_COMPACTION = { compactShare: 0.5, compactFirstStep: 0.002, compactCutTail: 0.02 } as const;

export function nestShapes(
  designs: readonly ShapeDesign[],
  copies: readonly number[],
  cfg: ShapeConfig,
  opts: { timeLimitMs: number; maxEvaluations?: number; seed?: number; rules?: readonly PlacementRule[]; compactMoves?: number; threads?: number; converge?: boolean },
  fixed: readonly ShapeFixed[] = [],
  startAt: readonly ShapeFixed[] = [],
): ShapeLayout {
  const start = performance.now();
  if (!Number.isInteger(cfg.cellPx) || cfg.cellPx < 1) throw new Error('cell size must be a positive whole number of pixels');
  const turns = cfg.rotate ? [0, 1, 2, 3] : [0];
  const cell = boundedCell(designs, cfg.cellPx, turns.length);
  const cols = Math.floor((cfg.width - 2 * cfg.margin) / cell);
  const maxRows = Number.isFinite(cfg.maxLength) ? Math.floor((cfg.maxLength - 2 * cfg.margin) / cell) : Infinity;
  if (cols <= 0) throw new Error('the margins leave no printable width');
  if (maxRows <= 0) throw new Error('the margins leave no printable length');
  const footprints = designs.map(footprintRects);
  const types: NestType[] = designs.map((d, di) => {
    const rects = footprints[di];
    return {
      orientations: turns.map((q) => {
        const r = turnedRects(d, rects, q);
        const W = q % 2 ? d.h : d.w;
        const H = q % 2 ? d.w : d.h;
        const mask = cellMaskOf(r, W, H, cell);
        const g = grownMask(r, W, H, cell, cfg.gap);
        return { rotation: q * 90, mask, dil: g.mask, pad: g.pad };
      }),
    };
  });
  const { movable, nestFixed } = fixedTypes(designs, footprints, copies, cfg, cell, types, fixed);
  // the time limit covers turning the masks into cells too
  // the product's layouts stop once they have converged (the time limit is the upper bound)
  let res: ReturnType<typeof nestSheets>;
  try {
    res = nestSheets(types, movable.map((i) => copies[i]), {
      fixed: nestFixed,
      start: startCells(startAt, movable, copies, types, cfg, cell),
      width: cols,
      maxRows,
      ...SHAPE_COMPACTION,
      ...opts,
      converge: opts.converge ?? true,
      timeLimitMs: Math.max(1, opts.timeLimitMs - (performance.now() - start)),
    });
  } catch (e) {
    // the nester numbers the copies it nests; the caller's numbers include the fixed ones
    if (e instanceof NestPieceTooLargeError) throw new NestPieceTooLargeError(movable[e.copy], e.reason);
    throw e;
  }
  const sheets = res.sheets.map((s) => {
    let bottom = 0;
    const placements = s.placements.map((p): ShapePlacement => {
      if (p.copy >= movable.length) {
        // a fixed copy stays exactly where it was given (its cells were only its obstacle)
        const f = fixed[p.copy - movable.length];
        const d = designs[copies[f.copy]];
        const odd = f.rotation % 180 !== 0;
        const pl: ShapePlacement = { copy: f.copy, x: f.x, y: f.y, w: odd ? d.h : d.w, h: odd ? d.w : d.h, rotation: f.rotation };
        bottom = Math.max(bottom, pl.y + pl.h);
        return pl;
      }
      const copy = movable[p.copy];
      const d = designs[copies[copy]];
      const rotation = types[copies[copy]].orientations[p.orientation].rotation as Rotation;
      const odd = rotation % 180 !== 0;
      const pl: ShapePlacement = {
        copy,
        x: cfg.margin + p.x * cell,
        y: cfg.margin + p.y * cell,
        w: odd ? d.h : d.w,
        h: odd ? d.w : d.h,
        rotation,
      };
      bottom = Math.max(bottom, pl.y + pl.h);
      return pl;
    });
    return { length: bottom + cfg.margin, placements };
  });
  return { sheets, converged: res.converged, elapsedMs: performance.now() - start };
}

/**
 * A starting layout's copies (`nestShapes`' `start`: pixels, like fixed copies) on the
 * nester's cells: each at the nearest cell (an edited copy need not lie on the grid), in its
 * type's orientation of that turn, numbered among the copies to nest. Fixed copies, and turns
 * the type does not have (rotation off), are left out; the nester repairs the rest.
 */
function startCells(start: readonly ShapeFixed[], movable: readonly number[], copies: readonly number[], types: readonly NestType[], cfg: ShapeConfig, cell: number): NestStart[] {
  if (!start.length) return [];
  const index = new Map(movable.map((c, i) => [c, i]));
  return start.flatMap((q) => {
    const i = index.get(q.copy);
    const orientation = types[copies[q.copy]].orientations.findIndex((o) => o.rotation === q.rotation);
    if (i === undefined || orientation < 0) return [];
    return [{ copy: i, sheet: q.sheet, orientation, x: Math.round((q.x - cfg.margin) / cell), y: Math.round((q.y - cfg.margin) / cell) }];
  });
}

/**
 * The fixed copies as obstacles of the nester: each its own type of one orientation, its
 * footprint shifted by the copy's offset within its cell (a fixed copy need not sit on the
 * cell grid), so its cells cover exactly where it is. A copy on the grid (as the engine's own
 * layouts place them) is its design's orientation itself, the same object: its cells and its
 * preparation for the fill are made once for the design, not again for each fixed copy (they
 * cost the quick preview a share of its time). Checks that each lies within the
 * printable area and that no two come closer than the gap (on their cells); returns the
 * copies to nest (indexes into `copies`) and the obstacles. Adds the obstacles' types to `types`.
 */
function fixedTypes(
  designs: readonly ShapeDesign[],
  footprints: readonly [number, number, number, number][][],
  copies: readonly number[],
  cfg: ShapeConfig,
  cell: number,
  types: NestType[],
  fixed: readonly ShapeFixed[],
): { movable: number[]; nestFixed: NestFixed[] } {
  const isFixed = new Set(fixed.map((f) => f.copy));
  const movable = copies.flatMap((_, i) => (isFixed.has(i) ? [] : [i]));
  const nestFixed = fixed.map((f): NestFixed => {
    const d = designs[copies[f.copy]];
    const q = f.rotation / 90;
    const W = q % 2 ? d.h : d.w;
    const H = q % 2 ? d.w : d.h;
    const ox = f.x - cfg.margin;
    const oy = f.y - cfg.margin;
    if (ox < 0 || oy < 0 || f.x + W > cfg.width - cfg.margin || f.y + H > cfg.maxLength - cfg.margin) throw new UnitFixedError(f.copy, f.sheet, 'outside');
    const cx = Math.floor(ox / cell);
    const cy = Math.floor(oy / cell);
    const dx = ox - cx * cell;
    const dy = oy - cy * cell;
    const own = dx === 0 && dy === 0 ? types[copies[f.copy]].orientations.find((o) => o.rotation === f.rotation) : undefined;
    if (own) {
      types.push({ orientations: [own] });
      return { type: types.length - 1, sheet: f.sheet, x: cx, y: cy };
    }
    const r = turnedRects(d, footprints[copies[f.copy]], q).map(([x0, y0, x1, y1]): [number, number, number, number] => [x0 + dx, y0 + dy, x1 + dx, y1 + dy]);
    const g = grownMask(r, W + dx, H + dy, cell, cfg.gap);
    types.push({ orientations: [{ rotation: f.rotation, mask: cellMaskOf(r, W + dx, H + dy, cell), dil: g.mask, pad: g.pad }] });
    return { type: types.length - 1, sheet: f.sheet, x: cx, y: cy };
  });
  nestFixed.forEach((a, i) => {
    const sa = toCompactShape(prepare(types[a.type].orientations[0]));
    for (let j = 0; j < i; j++) {
      const b = nestFixed[j];
      if (b.sheet !== a.sheet) continue;
      const sb = toCompactShape(prepare(types[b.type].orientations[0]));
      if (gapOverlap(sa, a.x, a.y, sb, b.x, b.y)) throw new UnitFixedError(fixed[i].copy, a.sheet, 'overlap', fixed[j].copy);
    }
  });
  return { movable, nestFixed };
}
