/**
 * ESICUP irregular strip packing in the jagua-rs/sparrow JSON: polygons, a fixed
 * `strip_height` along y, the length minimised along x. The polygons are turned into cell
 * masks (conservatively, so disjoint cells mean disjoint polygons) and nested on the grid.
 */
import { CellMask, emptyMask, countCells, setRun } from './cells';
import { compactSheet, toCompactShape } from './compact-sheet';
import { NestType, prepare } from './grid';
import { NestFixed, nestSheets, RACE_MIN_MS } from './nest';
import { startRace } from './race-helper';
import { gapOverlap } from './cell-overlap';
import type { PlacementRule } from './placement';
import type { OverlapMeasure } from './overlap';

export type Point = [number, number];

export interface EsicupItem {
  id: number;
  demand: number;
  allowed_orientations?: number[];
  shape: { type: string; data: Point[] };
}

export interface EsicupInstance {
  name?: string;
  strip_height: number;
  items: EsicupItem[];
  /**
   * Copies already placed (this engine's extension of the format, in the solution's own
   * placement form): each takes one of its item's demand, stays exactly there, and the
   * others are nested around it.
   */
  fixed?: EsicupPlacement[];
}

export interface EsicupPlacement {
  item: number;
  x: number;
  y: number;
  /** Degrees counter-clockwise about the item's own origin, applied before (x, y). */
  rotation: number;
}

export interface EsicupSolution {
  length: number;
  placements: EsicupPlacement[];
}

export function parseEsicup(text: string): EsicupInstance {
  const inst = JSON.parse(text) as EsicupInstance;
  if (!inst || !(inst.strip_height > 0) || !Array.isArray(inst.items) || inst.items.length === 0)
    throw new Error('not an ESICUP instance: needs strip_height > 0 and a non-empty items array');
  for (const it of inst.items) {
    if (!it.shape || it.shape.type !== 'simple_polygon' || !Array.isArray(it.shape.data) || it.shape.data.length < 3)
      throw new Error(`item ${it.id}: only simple_polygon shapes are supported`);
    if (!Number.isInteger(it.demand) || it.demand < 0) throw new Error(`item ${it.id}: demand must be a whole number`);
  }
  if (inst.fixed !== undefined && !Array.isArray(inst.fixed)) throw new Error('"fixed" must be a list of placements { item, x, y, rotation }');
  return inst;
}

export function rotatePoint([x, y]: Point, degrees: number): Point {
  const a = (degrees * Math.PI) / 180;
  // exact for quarter turns, so axis-aligned edges stay axis-aligned
  const q = ((degrees % 360) + 360) % 360;
  const c = q === 0 ? 1 : q === 90 ? 0 : q === 180 ? -1 : q === 270 ? 0 : Math.cos(a);
  const s = q === 0 ? 0 : q === 90 ? 1 : q === 180 ? 0 : q === 270 ? -1 : Math.sin(a);
  return [x * c - y * s, x * s + y * c];
}

/** Absolute area of a polygon ring (shoelace). */
export function polygonArea(pts: readonly Point[]): number {
  let a = 0;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) a += pts[j][0] * pts[i][1] - pts[i][0] * pts[j][1];
  return Math.abs(a) / 2;
}

/**
 * Every cell of size 1 whose inside the polygon's inside meets (the polygon is already in cell
 * units, inside [0, w] × [0, h]): cells whose centre is inside (even-odd rule) plus every cell
 * an edge passes through the inside of. A cell the polygon only partly covers has the
 * boundary running through its inside, so this is every cell the polygon covers any area of.
 * An edge that runs along a cell border marks nothing: ESICUP polygons may touch, and on a
 * grid aligned with whole coordinates (`alignedCells`) the axis-parallel edges of shapes0 and
 * jakobs1 all lie on borders, so those copies cost no cells beyond their area.
 */
export function rasterizePolygon(pts: readonly Point[], w: number, h: number): CellMask {
  const m = emptyMask(w, h);
  const n = pts.length;
  // interior: row centres
  for (let row = 0; row < h; row++) {
    const yc = row + 0.5;
    const xs: number[] = [];
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const [x1, y1] = pts[j];
      const [x2, y2] = pts[i];
      if (y1 > yc !== y2 > yc) xs.push(x1 + ((yc - y1) * (x2 - x1)) / (y2 - y1));
    }
    xs.sort((a, b) => a - b);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      // cells whose centre c + 0.5 lies in [xs[k], xs[k+1]]
      const a = Math.max(0, Math.ceil(xs[k] - 0.5));
      const b = Math.min(w, Math.floor(xs[k + 1] - 0.5) + 1);
      setRun(m.bits, m.words, row, a, b);
    }
  }
  // boundary: every cell whose open inside an edge crosses
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const [x1, y1] = pts[j];
    const [x2, y2] = pts[i];
    const ylo = Math.min(y1, y2);
    const yhi = Math.max(y1, y2);
    if (yhi === ylo) {
      // horizontal: inside a row only when it is not on a row border
      if (Number.isInteger(ylo) || ylo < 0 || ylo >= h) continue;
      openSpan(m, Math.floor(ylo), Math.min(x1, x2), Math.max(x1, x2), w);
      continue;
    }
    const r0 = Math.max(0, Math.floor(ylo));
    const r1 = Math.min(h - 1, Math.ceil(yhi) - 1);
    for (let row = r0; row <= r1; row++) {
      const sa = Math.max(ylo, row);
      const sb = Math.min(yhi, row + 1);
      if (sb <= sa) continue;
      const at = (yy: number) => x1 + ((yy - y1) * (x2 - x1)) / (y2 - y1);
      const xa = x1 === x2 ? x1 : Math.min(at(sa), at(sb));
      const xb = x1 === x2 ? x1 : Math.max(at(sa), at(sb));
      openSpan(m, row, xa, xb, w);
    }
  }
  m.area = countCells(m);
  return m;
}

/** Marks the cells of `row` whose open inside the span [xa, xb] (a point when equal) meets. */
function openSpan(m: CellMask, row: number, xa: number, xb: number, w: number): void {
  let c0: number;
  let c1: number;
  if (xa === xb) {
    // a vertical piece of edge: on a column border it touches no cell's inside
    if (Number.isInteger(xa)) return;
    c0 = Math.floor(xa);
    c1 = c0 + 1;
  } else {
    c0 = Math.floor(xa);
    c1 = Math.ceil(xb);
  }
  setRun(m.bits, m.words, row, Math.max(0, c0), Math.min(w, c1));
}

/**
 * Cells across the strip for the search: 160 when their masks cover the polygons within
 * COARSE_OVERHEAD of their area, else 320. A coarse grid makes every overlap count four times
 * cheaper, so the separator gets four times the moves; what its cells add beyond the polygons
 * the refinements on finer grids take back. An instance whose coarse masks lie further than
 * that above its polygons' area stays at 320.
 */
export function searchCells(inst: EsicupInstance): number {
  const { across, scale } = alignedCells(inst, 160);
  const { types } = esicupTypes(inst, scale, scale);
  const cells = inst.items.reduce((a, it, t) => a + it.demand * types[t].orientations[0].mask.area, 0) / (scale * scale);
  return across > 0 && cells <= itemArea(inst) * (1 + COARSE_OVERHEAD) ? 160 : 320;
}

const COARSE_OVERHEAD = 0.02;

/**
 * Cell size for `cells` cells across a strip of height H: when every coordinate is a whole
 * number (shapes0, jakobs1, albano), a cell of 1/k (k whole) puts every vertex and every
 * axis-parallel edge on cell borders, so rasterising adds nothing there; the strip then holds
 * floor(H·k) cells and the rest of H (at most one cell) stays unused. For large coordinates
 * (albano, 4900 across) no such cell exists and the cell is H / cells.
 */
export function alignedCells(inst: EsicupInstance, cells: number): { across: number; scale: number } {
  const whole = inst.items.every((it) => it.shape.data.every(([x, y]) => Number.isInteger(x) && Number.isInteger(y)));
  const k = Math.round(cells / inst.strip_height);
  if (!whole || k < 1) return { across: cells, scale: cells / inst.strip_height };
  return { across: Math.floor(inst.strip_height * k + 1e-9), scale: k };
}

/** Share of the time limit for overlap-minimisation compaction of the ESICUP strip. */
export const ESICUP_COMPACT_SHARE = 0.9;

/** The bottom-left fill's placement rules on ESICUP instances: all but "fill" (see nestEsicup). */
const ESICUP_RULES: readonly PlacementRule[] = ['centre', 'far', 'top', 'lattice'];

/**
 * Rows (cells along the strip) wanted over the area bound's length. The length can only
 * shrink by whole rows, so on a short strip square cells make each row a large step of the
 * length. Rows are made finer than a cell only where the square grid
 * gives fewer than about this many; where it already gives more, finer rows cost time and
 * do not shorten the strip.
 */
const ROWS_ALONG = 240;

interface Orient {
  rotation: number;
  /** Offset that moves the rotated polygon's bounding box to the origin. */
  minX: number;
  minY: number;
  maxX: number;
}

export interface NestEsicupOptions {
  timeLimitMs: number;
  cellsAcross?: number;
  maxEvaluations?: number;
  seed?: number;
  compactShare?: number;
  compactMoves?: number;
  /** Shares of the time for refinements on grids of half, a quarter... of the cell (default ESICUP_REFINE, or ESICUP_REFINE_TWICE where the first refinement grid still costs over REFINE_AGAIN). */
  refine?: number[];
  /** Deterministic effort cap for the refinement (position searches), for tests. */
  refineMoves?: number;
  /** Overlap measure of the compaction and refinement (overlap.ts; default "cells"). */
  overlap?: OverlapMeasure;
  /**
   * Threads racing on one strip (race.ts; default 1): the search's compaction (whose helpers
   * run a bottom-left search of their own first, as in the artwork layouts) and each
   * refinement. Only timed phases of at least RACE_MIN_MS race; counted runs stay alone.
   */
  threads?: number;
}

/**
 * Share of the time for refining the strip on a grid of half the cell (both ways) after the
 * search on the coarse grid: the finer masks lie closer to the polygons (about half as far
 * above their area), so the coarse layout has slack the fine separator can take, while the
 * global search runs at the coarse grid's speed (docs/gangsheet.md, "ESICUP grid").
 */
export const ESICUP_REFINE = [0.4];

/**
 * Shares of the time for the refinements: ESICUP_REFINE, or ESICUP_REFINE_TWICE where the
 * masks on the first refinement's grid still lie more than REFINE_AGAIN above the polygons'
 * area (many short slanted edges, as in swim): the grid twice as fine again takes back half
 * of that.
 */
function refineLevels(inst: EsicupInstance, sx: number, sy: number): number[] {
  const { types } = esicupTypes(inst, 2 * sx, 2 * sy);
  const cells = inst.items.reduce((a, it, t) => a + it.demand * types[t].orientations[0].mask.area, 0) / (4 * sx * sy);
  return cells > itemArea(inst) * (1 + REFINE_AGAIN) ? ESICUP_REFINE_TWICE : ESICUP_REFINE;
}

/** Mask area above the polygons' on the refinement grid beyond which a second refinement follows. */
const REFINE_AGAIN = 0.02;
/** Two refinements (grids of half and a quarter of the search cell): shares of the time. */
export const ESICUP_REFINE_TWICE = [0.25, 0.15];

/** Cell masks of every item in every allowed orientation, sx cells per unit across the strip and sy along it. */
function esicupTypes(inst: EsicupInstance, sx: number, sy: number): { types: NestType[]; orients: Orient[][] } {
  const types: NestType[] = [];
  const orients: Orient[][] = [];
  for (const it of inst.items) {
    const ring = it.shape.data.slice(0, -1).length >= 3 ? it.shape.data.slice(0, -1) : it.shape.data;
    const rots = it.allowed_orientations && it.allowed_orientations.length ? it.allowed_orientations : [0];
    const os: NestType['orientations'] = [];
    const meta: Orient[] = [];
    for (const r of rots) {
      const p = ring.map((q) => rotatePoint(q, r));
      const minX = Math.min(...p.map((q) => q[0]));
      const minY = Math.min(...p.map((q) => q[1]));
      const maxX = Math.max(...p.map((q) => q[0]));
      // grid: columns across the strip (ESICUP y), rows along the length (ESICUP x)
      const g: Point[] = p.map(([x, y]) => [(y - minY) * sx, (x - minX) * sy]);
      const w = Math.max(1, Math.ceil(Math.max(...g.map((q) => q[0])) - 1e-7));
      const h = Math.max(1, Math.ceil(Math.max(...g.map((q) => q[1])) - 1e-7));
      const mask = rasterizePolygon(g, w, h);
      os.push({ rotation: r, mask, dil: mask, pad: 0, aspect: sy / sx });
      meta.push({ rotation: r, minX, minY, maxX });
    }
    types.push({ orientations: os });
    orients.push(meta);
  }
  return { types, orients };
}

/**
 * Nests an ESICUP instance. `cellsAcross` is the grid resolution across the strip: finer
 * grids waste less at the edges of each polygon but make every test slower, so the search
 * runs on it and the result is then refined on grids twice as fine (`refine`).
 */
export function nestEsicup(inst: EsicupInstance, opts: NestEsicupOptions): EsicupSolution {
  const t0 = performance.now();
  const H = inst.strip_height;
  // sx cells per unit across the strip, sy along it: a strip much shorter than it is high
  // (jakobs1: about 80 rows of a cell at its area bound) gets finer rows, see ROWS_ALONG
  const { across: n, scale: sx } = alignedCells(inst, opts.cellsAcross ?? searchCells(inst));
  const sy = sx * Math.max(1, Math.round(ROWS_ALONG / ((itemArea(inst) / H) * sx)));
  const { types, orients } = esicupTypes(inst, sx, sy);
  const fixed = esicupFixed(inst, types, orients, sx, sy, n);
  const demand = inst.items.map((it) => it.demand);
  for (const f of fixed) demand[f.t]--;
  const copies: number[] = [];
  demand.forEach((d, t) => {
    for (let k = 0; k < d; k++) copies.push(t);
  });
  if (copies.length === 0 && fixed.length === 0) return { length: 0, placements: [] };
  const counted = opts.maxEvaluations !== undefined;
  // a counted search (tests) refines only with counted moves; fixed copies are not refined
  // (the refinement compacts, which would move them)
  const levels = fixed.length ? [] : counted ? (opts.refineMoves !== undefined ? [0] : []) : (opts.refine ?? refineLevels(inst, sx, sy));
  const refineShare = levels.reduce((a, b) => a + b, 0);
  const res = nestSheets(types, copies, {
    width: n,
    maxRows: Infinity,
    timeLimitMs: opts.timeLimitMs * (1 - refineShare),
    maxEvaluations: opts.maxEvaluations,
    // the fill rule mixes many copies of a few designs across a sheet's width; on these
    // instances overlap minimisation does the work, and the strip is shorter without it
    rules: ESICUP_RULES,
    seed: opts.seed,
    // most of the time goes to overlap minimisation: it beats the bottom-left search alone
    // on every instance (docs/gangsheet.md); a counted search (tests) leaves it off
    compactShare: opts.compactShare ?? (counted ? 0 : ESICUP_COMPACT_SHARE),
    compactMoves: opts.compactMoves,
    overlap: opts.overlap,
    fixed: fixed.map((f) => f.obstacle),
    threads: opts.threads,
  });
  let sheet = res.sheets[0];
  let scale = 1;
  let fine = orients;
  let until = t0 + opts.timeLimitMs * (1 - refineShare);
  for (const share of levels) {
    // a fine cell lies inside one coarse cell, and a polygon meets its inside only if it
    // meets that coarse cell's: the coarse layout, doubled, is feasible on the fine grid
    scale *= 2;
    until += opts.timeLimitMs * share;
    const f = esicupTypes(inst, scale * sx, scale * sy);
    const placements = sheet.placements.map((p) => ({ ...p, x: p.x * 2, y: p.y * 2 }));
    const rows = Math.max(...placements.map((p) => p.y + f.types[copies[p.copy]].orientations[p.orientation].mask.h));
    // racing helpers on the refinement grid: no search of their own, they compact the strip
    // this thread publishes (its seed differs from the search's helpers')
    const now = performance.now();
    const racing = (opts.threads ?? 1) > 1 && opts.refineMoves === undefined && until - now >= RACE_MIN_MS;
    const race = racing ? startRace(f.types, copies, { width: scale * n, maxRows: Infinity, timeLimitMs: until - now, seed: (opts.seed ?? 1) + 11 * scale, threads: opts.threads, compactFirstStep: REFINE_FIRST_STEP }, now, until) : undefined;
    const refined = compactSheet(f.types, copies, { rows, placements }, { width: scale * n, seed: opts.seed, compactMoves: opts.refineMoves, firstStep: REFINE_FIRST_STEP, overlap: opts.overlap, race }, until);
    sheet = refined ?? { rows, placements };
    fine = f.orients;
  }
  const scaleX = scale * sx;
  const scaleY = scale * sy;
  let length = 0;
  const placements: EsicupPlacement[] = sheet.placements.map((p) => {
    if (p.copy >= copies.length) {
      // a fixed copy, exactly as given
      const f = fixed[p.copy - copies.length];
      length = Math.max(length, f.placement.x + orients[f.t][f.o].maxX);
      return { ...f.placement };
    }
    const t = copies[p.copy];
    const o = fine[t][p.orientation];
    const x = p.y / scaleY - o.minX;
    const y = p.x / scaleX - o.minY;
    length = Math.max(length, x + o.maxX);
    return { item: inst.items[t].id, x, y, rotation: o.rotation };
  });
  placements.sort((a, b) => a.item - b.item);
  return { length, placements };
}

/**
 * The instance's fixed copies as obstacles of the nester: each its own type of one
 * orientation, its polygon rasterised at its offset within its cell (cells it touches count,
 * so movable copies keep off it). Checks that each lies within the strip and that no two
 * share a cell (on cells: two fixed polygons that touch exactly are refused too).
 */
function esicupFixed(inst: EsicupInstance, types: NestType[], orients: Orient[][], sx: number, sy: number, n: number): { t: number; o: number; placement: EsicupPlacement; obstacle: NestFixed }[] {
  const left = inst.items.map((it) => it.demand);
  const out = (inst.fixed ?? []).map((f, k) => {
    const t = inst.items.findIndex((it) => it.id === f.item);
    if (t < 0) throw new Error(`fixed placement ${k}: no item ${f.item}`);
    if (--left[t] < 0) throw new Error(`fixed placement ${k}: more fixed copies of item ${f.item} than its demand`);
    const o = orients[t].findIndex((m) => m.rotation === (f.rotation ?? 0));
    if (o < 0) throw new Error(`fixed placement ${k}: item ${f.item} may not be turned by ${f.rotation}°`);
    const it = inst.items[t];
    const m = orients[t][o];
    const ring = it.shape.data.slice(0, -1).length >= 3 ? it.shape.data.slice(0, -1) : it.shape.data;
    const pts = ring.map((q) => rotatePoint(q, m.rotation));
    const maxY = Math.max(...pts.map((q) => q[1]));
    if (!(f.x + m.minX >= -1e-9) || !(f.y + m.minY >= -1e-9) || !(f.y + maxY <= inst.strip_height + 1e-9)) throw new Error(`fixed placement ${k} (item ${f.item}) lies outside the strip`);
    // grid: columns across the strip (ESICUP y), rows along it (ESICUP x); the polygon's
    // cell of origin and its offset within that cell
    const gx = Math.max(0, (f.y + m.minY) * sx);
    const gy = Math.max(0, (f.x + m.minX) * sy);
    const cx = Math.floor(gx);
    const cy = Math.floor(gy);
    const g: Point[] = pts.map(([x, y]) => [(y - m.minY) * sx + (gx - cx), (x - m.minX) * sy + (gy - cy)]);
    const w = Math.min(n - cx, Math.max(1, Math.ceil(Math.max(...g.map((q) => q[0])) - 1e-7)));
    const h = Math.max(1, Math.ceil(Math.max(...g.map((q) => q[1])) - 1e-7));
    const mask = rasterizePolygon(g, w, h);
    types.push({ orientations: [{ rotation: m.rotation, mask, dil: mask, pad: 0 }] });
    return { t, o, placement: { item: f.item, x: f.x, y: f.y, rotation: m.rotation }, obstacle: { type: types.length - 1, sheet: 0, x: cx, y: cy } };
  });
  out.forEach((a, i) => {
    const sa = toCompactShape(prepare(types[a.obstacle.type].orientations[0]));
    for (let j = 0; j < i; j++) {
      const b = out[j].obstacle;
      if (gapOverlap(sa, a.obstacle.x, a.obstacle.y, toCompactShape(prepare(types[b.type].orientations[0])), b.x, b.y))
        throw new Error(`fixed placements ${j} and ${i} overlap (on the search grid's cells)`);
    }
  });
  return out;
}

/**
 * First shrink step of the refinement: the coarse layout is already tight, so the slack the
 * finer masks free is a small share of the length.
 */
const REFINE_FIRST_STEP = 0.01;

/** Total polygon area of all copies. */
export function itemArea(inst: EsicupInstance): number {
  return inst.items.reduce((a, it) => a + it.demand * polygonArea(it.shape.data), 0);
}
