// The gap check by ink, in the browser, as the engine makes it (docs/frontend.md "Layout
// editor"): the server sends each design's footprint and ink mask (POST …/layout/shapes), and
// this module turns them into the engine's cells exactly as the engine does for fixed copies
// (a port of backend/src/gangsheet/shape/shape-layout.ts inkRects / footprintRects /
// cellMaskOf / grownMask / boundedCell and cell-overlap.ts gapOverlap, with the same
// floating-point steps), so a dragged copy turns red on the same decision the server makes.
// Two copies collide when their boxes come closer than the gap and, for "shape" prints, each
// one's ink cells fall on the other's gap-grown cells on the grid anchored at the margin.
import type { components } from "../../../api/schema";
import type { Rotation } from "../../../api/types";

export type LayoutShapes = components["schemas"]["LayoutShapesDto"];
export type LayoutShapeDesign = components["schemas"]["LayoutShapeDesignDto"];

/** Where a copy is: its item, sheet, art's top-left in inches and turn. */
export interface ShapeCopy {
  key: string;
  itemId: string;
  sheet: number;
  x: number;
  y: number;
  rotation: Rotation;
}

type R4 = [number, number, number, number];

/** A cell mask, one byte per cell. */
interface Cells {
  w: number;
  h: number;
  bits: Uint8Array;
}

function emptyCells(w: number, h: number): Cells {
  return { w, h, bits: new Uint8Array(Math.max(0, w * h)) };
}

function markRect(m: Cells, x0: number, y0: number, x1: number, y1: number) {
  const cx0 = Math.max(0, Math.floor(x0));
  const cy0 = Math.max(0, Math.floor(y0));
  const cx1 = Math.min(m.w, Math.ceil(x1));
  const cy1 = Math.min(m.h, Math.ceil(y1));
  for (let y = cy0; y < cy1; y++) m.bits.fill(1, y * m.w + cx0, y * m.w + Math.max(cx0, cx1));
}

function unpackMask(mask: NonNullable<LayoutShapeDesign["mask"]>): Uint8Array {
  const rowBytes = (mask.width + 7) >> 3;
  const raw = atob(mask.data);
  const cells = new Uint8Array(mask.width * mask.height);
  for (let y = 0; y < mask.height; y++)
    for (let x = 0; x < mask.width; x++) cells[y * mask.width + x] = (raw.charCodeAt(y * rowBytes + (x >> 3)) >> (x & 7)) & 1;
  return cells;
}

/** The art's ink grown by the renderer's reach, as rectangles in printed pixels (the engine's inkRects). */
function inkRects(d: LayoutShapeDesign): R4[] {
  const w = d.art.w;
  const h = d.art.h;
  if (!d.mask) return [[0, 0, w, h]];
  const cells = unpackMask(d.mask);
  const mw = d.mask.width;
  const mh = d.mask.height;
  const sx = w / mw;
  const sy = h / mh;
  const reach = d.reach;
  const rects: R4[] = [];
  for (let y = 0; y < mh; y++) {
    let x = 0;
    while (x < mw) {
      if (!cells[y * mw + x]) {
        x++;
        continue;
      }
      let e = x;
      while (e < mw && cells[y * mw + e]) e++;
      rects.push([Math.max(0, x * sx - reach), Math.max(0, y * sy - reach), Math.min(w, e * sx + reach), Math.min(h, (y + 1) * sy + reach)]);
      x = e;
    }
  }
  return rects;
}

/** The footprint's rectangles, upright, in the footprint box (the engine's footprintRects). */
export function footprintRects(d: LayoutShapeDesign): R4[] {
  const rects = inkRects(d);
  if (!d.label) return rects;
  const out: R4[] = rects.map(([x0, y0, x1, y1]) => [x0 + d.art.x, y0 + d.art.y, x1 + d.art.x, y1 + d.art.y]);
  out.push([d.label.x, d.label.y, d.label.x + d.label.w, d.label.y + d.label.h]);
  return out;
}

/** A rectangle of the box [0, w] × [0, h] turned q quarter turns clockwise. */
export function turnRect([x0, y0, x1, y1]: readonly [number, number, number, number], w: number, h: number, q: number): R4 {
  if (q === 0) return [x0, y0, x1, y1];
  if (q === 1) return [h - y1, x0, h - y0, x1];
  if (q === 2) return [w - x1, h - y1, w - x0, h - y0];
  return [y0, w - x1, y1, w - x0];
}

function cellMaskOf(rects: readonly R4[], W: number, H: number, cell: number): Cells {
  const m = emptyCells(Math.ceil(W / cell), Math.ceil(H / cell));
  for (const r of rects) markRect(m, r[0] / cell, r[1] / cell, r[2] / cell, r[3] / cell);
  return m;
}

function grownMask(rects: readonly R4[], W: number, H: number, cell: number, gap: number): { mask: Cells; pad: number } {
  const pad = Math.ceil(gap / cell) + 1;
  const m = emptyCells(Math.ceil(W / cell) + 2 * pad, Math.ceil(H / cell) + 2 * pad);
  const o = pad * cell;
  for (const [x0, y0, x1, y1] of rects) {
    if (gap <= 0) {
      markRect(m, (x0 + o) / cell, (y0 + o) / cell, (x1 + o) / cell, (y1 + o) / cell);
      continue;
    }
    const cy0 = Math.max(0, Math.floor((y0 + o - gap) / cell));
    const cy1 = Math.min(m.h, Math.ceil((y1 + o + gap) / cell));
    for (let cy = cy0; cy < cy1; cy++) {
      const top = cy * cell - o;
      const dy = Math.max(0, y0 - (top + cell), top - y1);
      if (dy >= gap) continue;
      const reach = Math.sqrt(gap * gap - dy * dy);
      const a = Math.max(0, Math.floor((x0 - reach + o) / cell));
      const b = Math.min(m.w, Math.ceil((x1 + reach + o) / cell));
      if (b > a) m.bits.fill(1, cy * m.w + a, cy * m.w + b);
    }
  }
  return { mask: m, pad };
}

/** The engine's grid cell for these designs: coarser (×1.25 steps) while their prepared masks would pass its memory bound. */
export function boundedCell(designs: readonly { w: number; h: number }[], cellPx: number, orientations: number): number {
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
  while (bytes(cell) > 96 * 2 ** 20) cell = Math.ceil(cell * 1.25);
  return cell;
}

/** A copy's footprint on the sheet in whole pixels (turned), as the engine fixes it. */
export interface PlacedBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface PreparedCopy {
  c: ShapeCopy;
  b: PlacedBox;
}

/** A fixed copy's cells: ink at (cx, cy), gap-grown cells at (cx - pad, cy - pad). */
interface FixedCells {
  cx: number;
  cy: number;
  ink: Cells;
  grown: Cells;
  pad: number;
}

/** Ink cells of `a` on grown cells of `b` (any). */
function hits(a: FixedCells, b: FixedCells): boolean {
  const bx = b.cx - b.pad;
  const by = b.cy - b.pad;
  const x0 = Math.max(a.cx, bx);
  const x1 = Math.min(a.cx + a.ink.w, bx + b.grown.w);
  const y0 = Math.max(a.cy, by);
  const y1 = Math.min(a.cy + a.ink.h, by + b.grown.h);
  if (x0 >= x1 || y0 >= y1) return false;
  const ai = a.ink.bits;
  const bg = b.grown.bits;
  for (let y = y0; y < y1; y++) {
    const ra = (y - a.cy) * a.ink.w - a.cx;
    const rb = (y - by) * b.grown.w - bx;
    for (let x = x0; x < x1; x++) if (ai[ra + x] & bg[rb + x]) return true;
  }
  return false;
}

/**
 * The engine's decisions on copies placed by the seller, for one print's designs and sheet
 * settings. Caches each design's rectangles and each (design, turn, sub-cell offset, cell)'s
 * cells, and each pair's verdict by position, so a drag or a drop rechecks only what moved.
 */
export class ShapeChecker {
  private readonly byId: Map<string, LayoutShapeDesign>;
  private readonly rects = new Map<string, R4[]>();
  private readonly cells = new Map<string, { ink: Cells; grown: Cells; pad: number }>();
  private readonly verdicts = new Map<string, boolean>();
  readonly shape: boolean;

  constructor(
    readonly shapes: LayoutShapes,
    nesting: "box" | "shape",
  ) {
    this.byId = new Map(shapes.designs.map((d) => [d.itemId, d]));
    this.shape = nesting === "shape";
  }

  design(itemId: string) {
    return this.byId.get(itemId);
  }

  /** Upright footprint rectangles of a design (cached). */
  rectsOf(itemId: string): R4[] {
    let r = this.rects.get(itemId);
    if (!r) {
      const d = this.byId.get(itemId);
      r = d ? footprintRects(d) : [];
      this.rects.set(itemId, r);
    }
    return r;
  }

  /** The copy's footprint box on its sheet, whole pixels (the art's top-left rounded, as the server normalizes it). */
  box(c: Pick<ShapeCopy, "itemId" | "x" | "y" | "rotation">): PlacedBox | null {
    const d = this.byId.get(c.itemId);
    if (!d) return null;
    const dpi = this.shapes.dpi;
    const q = c.rotation / 90;
    const [ax0, ay0] = turnRect([d.art.x, d.art.y, d.art.x + d.art.w, d.art.y + d.art.h], d.w, d.h, q);
    const odd = q % 2 === 1;
    return { x: Math.round(c.x * dpi) - ax0, y: Math.round(c.y * dpi) - ay0, w: odd ? d.h : d.w, h: odd ? d.w : d.h };
  }

  private fixedCells(itemId: string, rotation: Rotation, b: PlacedBox, cell: number): FixedCells {
    const d = this.byId.get(itemId)!;
    const q = rotation / 90;
    const ox = b.x - this.shapes.margin;
    const oy = b.y - this.shapes.margin;
    const cx = Math.floor(ox / cell);
    const cy = Math.floor(oy / cell);
    const dx = ox - cx * cell;
    const dy = oy - cy * cell;
    const key = `${itemId}|${q}|${dx}|${dy}|${cell}`;
    let m = this.cells.get(key);
    if (!m) {
      const W = q % 2 ? d.h : d.w;
      const H = q % 2 ? d.w : d.h;
      const r = this.rectsOf(itemId).map((x) => turnRect(x, d.w, d.h, q)).map(([x0, y0, x1, y1]): R4 => [x0 + dx, y0 + dy, x1 + dx, y1 + dy]);
      const g = grownMask(r, W + dx, H + dy, cell, this.shapes.gap);
      m = { ink: cellMaskOf(r, W + dx, H + dy, cell), grown: g.mask, pad: g.pad };
      // a long session of drags at many offsets: keep the cache bounded
      if (this.cells.size > 4000) this.cells.clear();
      this.cells.set(key, m);
    }
    return { cx, cy, ...m };
  }

  /** Whether two copies' boxes come closer than the gap (the engine's sweep test). */
  boxClose(a: PlacedBox, b: PlacedBox): boolean {
    const gap = this.shapes.gap;
    return !(b.x + b.w + gap <= a.x || a.x + a.w + gap <= b.x || b.y + b.h + gap <= a.y || a.y + a.h + gap <= b.y);
  }

  /** The engine's verdict on two copies on one sheet: closer than the gap (by ink for "shape" prints). */
  tooClose(a: ShapeCopy, b: ShapeCopy): boolean {
    if (a.sheet !== b.sheet) return false;
    const ba = this.box(a);
    const bb = this.box(b);
    if (!ba || !bb || !this.boxClose(ba, bb)) return false;
    if (!this.shape) return true;
    const ka = `${a.itemId}|${ba.x}|${ba.y}|${a.rotation}`;
    const kb = `${b.itemId}|${bb.x}|${bb.y}|${b.rotation}`;
    const key = ka < kb ? `${ka}/${kb}` : `${kb}/${ka}`;
    const known = this.verdicts.get(key);
    if (known !== undefined) return known;
    const da = this.byId.get(a.itemId)!;
    const db = this.byId.get(b.itemId)!;
    const turns = this.shapes.rotate ? 4 : 1;
    const cell = boundedCell(a.itemId === b.itemId ? [da] : [da, db], this.shapes.cellPx, turns);
    const fa = this.fixedCells(a.itemId, a.rotation, ba, cell);
    const fb = this.fixedCells(b.itemId, b.rotation, bb, cell);
    // the engine refuses when neither copy's ink keeps off the other's grown cells
    const v = hits(fa, fb) && hits(fb, fa);
    if (this.verdicts.size > 200_000) this.verdicts.clear();
    this.verdicts.set(key, v);
    return v;
  }

  /** Whether one copy is too close to any of the others. */
  closeToAny(c: ShapeCopy, others: readonly ShapeCopy[]): boolean {
    for (const o of others) if (o.key !== c.key && this.tooClose(c, o)) return true;
    return false;
  }

  /** Copies that stay while others are dragged, with their boxes worked out once. */
  prepare(copies: readonly ShapeCopy[]): PreparedCopy[] {
    return copies.flatMap((c) => {
      const b = this.box(c);
      return b ? [{ c, b }] : [];
    });
  }

  /** Whether a copy is too close to any prepared one (their boxes first, then the ink). */
  closeToPrepared(c: ShapeCopy, others: readonly PreparedCopy[]): boolean {
    const b = this.box(c);
    if (!b) return false;
    for (const o of others) if (o.c.sheet === c.sheet && o.c.key !== c.key && this.boxClose(b, o.b) && this.tooClose(c, o.c)) return true;
    return false;
  }

  /** Every copy too close to another, with the copies it is too close to (a sweep over x per sheet, then the ink). */
  problems(copies: readonly ShapeCopy[]): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    const gap = this.shapes.gap;
    const bySheet = new Map<number, { c: ShapeCopy; b: PlacedBox }[]>();
    for (const c of copies) {
      const b = this.box(c);
      if (!b) continue;
      const list = bySheet.get(c.sheet) ?? [];
      list.push({ c, b });
      bySheet.set(c.sheet, list);
    }
    const add = (a: string, b: string) => {
      const s = out.get(a) ?? new Set<string>();
      s.add(b);
      out.set(a, s);
    };
    for (const list of bySheet.values()) {
      list.sort((p, q) => p.b.x - q.b.x);
      const open: typeof list = [];
      for (const a of list) {
        for (let k = open.length - 1; k >= 0; k--) {
          const o = open[k];
          if (o.b.x + o.b.w + gap <= a.b.x) {
            open.splice(k, 1);
            continue;
          }
          if (this.tooClose(a.c, o.c)) {
            add(a.c.key, o.c.key);
            add(o.c.key, a.c.key);
          }
        }
        open.push(a);
      }
    }
    return out;
  }
}
