/**
 * Independent checkers for true-shape layouts, used by the tests and benchmarks. They share
 * no code with the nester (which works on a cell grid): polygons are checked with exact
 * polygon clipping (polygon-clipping), rendered sheets on their decoded pixels.
 */
import polygonClipping from 'polygon-clipping';
import { DesignMask, unpackMask } from '../src/gangsheet/shape/design-mask';
import type { EsicupInstance, EsicupSolution } from '../src/gangsheet/shape/esicup';
import type { LayoutResult } from '../src/gangsheet/pack/layout';

type Pt = [number, number];

function area(ring: Pt[]): number {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) a += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  return Math.abs(a) / 2;
}

function placed(ring: Pt[], x: number, y: number, deg: number): Pt[] {
  const a = (deg * Math.PI) / 180;
  const c = Math.round(Math.cos(a) * 1e12) / 1e12;
  const s = Math.round(Math.sin(a) * 1e12) / 1e12;
  return ring.map(([px, py]) => [px * c - py * s + x, px * s + py * c + y]);
}

export interface PolygonCheck {
  ok: boolean;
  errors: string[];
  /** Item area / (strip height × length). */
  density: number;
  /** Largest pairwise overlap area found (0 when none). */
  maxOverlap: number;
}

/**
 * Checks an ESICUP solution: every demanded copy placed once with an allowed rotation,
 * inside [0, length] × [0, strip_height], no two polygons overlapping (intersection area
 * above `tol` × the smaller area; touching is allowed), length as claimed.
 */
export function checkEsicupSolution(inst: EsicupInstance, sol: EsicupSolution, tol = 1e-7): PolygonCheck {
  const errors: string[] = [];
  const byId = new Map(inst.items.map((it) => [it.id, it]));
  const count = new Map<number, number>();
  const polys: { ring: Pt[]; box: [number, number, number, number]; area: number; k: number }[] = [];
  const eps = 1e-6 * Math.max(inst.strip_height, sol.length);
  let maxX = 0;
  let itemArea = 0;
  sol.placements.forEach((p, k) => {
    const it = byId.get(p.item);
    if (!it) return void errors.push(`placement ${k}: unknown item ${p.item}`);
    count.set(p.item, (count.get(p.item) ?? 0) + 1);
    const allowed = it.allowed_orientations?.length ? it.allowed_orientations : [0];
    if (!allowed.some((r) => Math.abs(r - p.rotation) < 1e-9)) errors.push(`placement ${k}: rotation ${p.rotation} not allowed for item ${p.item}`);
    const ring = placed(it.shape.data.slice(0, -1) as Pt[], p.x, p.y, p.rotation);
    const xs = ring.map((q) => q[0]);
    const ys = ring.map((q) => q[1]);
    const box: [number, number, number, number] = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    if (box[0] < -eps || box[1] < -eps || box[3] > inst.strip_height + eps || box[2] > sol.length + eps)
      errors.push(`placement ${k} (item ${p.item}) leaves the strip: x ${box[0]}..${box[2]}, y ${box[1]}..${box[3]}`);
    maxX = Math.max(maxX, box[2]);
    const a = area(ring);
    itemArea += a;
    polys.push({ ring, box, area: a, k });
  });
  for (const it of inst.items)
    if ((count.get(it.id) ?? 0) !== it.demand) errors.push(`item ${it.id}: ${count.get(it.id) ?? 0} copies placed, ${it.demand} demanded`);
  if (Math.abs(maxX - sol.length) > eps) errors.push(`claimed length ${sol.length} but the copies end at ${maxX}`);
  let maxOverlap = 0;
  for (let i = 0; i < polys.length; i++)
    for (let j = i + 1; j < polys.length; j++) {
      const a = polys[i];
      const b = polys[j];
      if (a.box[2] <= b.box[0] || b.box[2] <= a.box[0] || a.box[3] <= b.box[1] || b.box[3] <= a.box[1]) continue;
      const inter = polygonClipping.intersection([a.ring], [b.ring]);
      let ov = 0;
      for (const poly of inter) {
        ov += area(poly[0] as Pt[]);
        for (const hole of poly.slice(1)) ov -= area(hole as Pt[]);
      }
      maxOverlap = Math.max(maxOverlap, ov);
      if (ov > tol * Math.min(a.area, b.area)) errors.push(`placements ${a.k} and ${b.k} overlap by area ${ov}`);
    }
  return { ok: errors.length === 0, errors, density: sol.length > 0 ? itemArea / (inst.strip_height * sol.length) : 0, maxOverlap };
}

/**
 * Clears, in place, the pixels of an upright w × h RGBA raster (resampled from `sourceWidth`
 * trimmed pixels) that lie beyond reach of every ink cell of the mask at the printed size:
 * what the renderer promises for sheets nested by shape. The reach is 1 pixel, or 1 + 1.5 ×
 * the enlargement; a pixel stays when it overlaps a cell's rectangle grown by the reach.
 * Written apart from the engine's own clip (inkClip), so the checks stay independent.
 */
export function clipToMask(rgba: Buffer, mask: DesignMask, w: number, h: number, sourceWidth: number): Buffer {
  const r = w <= sourceWidth ? 1 : 1 + (1.5 * w) / sourceWidth;
  const cells = unpackMask(mask);
  const kept = new Uint8Array(w * h);
  for (let my = 0; my < mask.height; my++)
    for (let mx = 0; mx < mask.width; mx++) {
      if (!cells[my * mask.width + mx]) continue;
      const x0 = Math.max(0, Math.floor((mx * w) / mask.width - r));
      const x1 = Math.min(w, Math.ceil(((mx + 1) * w) / mask.width + r));
      const y0 = Math.max(0, Math.floor((my * h) / mask.height - r));
      const y1 = Math.min(h, Math.ceil(((my + 1) * h) / mask.height + r));
      for (let y = y0; y < y1; y++) kept.fill(1, y * w + x0, y * w + x1);
    }
  for (let i = 0; i < w * h; i++) if (!kept[i]) rgba.writeUInt32LE(0, 4 * i);
  return rgba;
}

export interface PixelCheckCopy {
  /** Independent raster of the copy as placed: RGBA, `w` x `h`. */
  rgba: Buffer;
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Checks a rendered sheet on its pixels. Each ink pixel of the sheet (alpha > threshold)
 * must be ink of exactly one copy's own raster at that spot; no ink of one copy may be
 * closer than `gap` pixels (Euclidean, pixel centres) to ink of another, nor closer than
 * `margin` pixels to the sheet edge. Returns the problems found (empty when fine).
 */
export function checkRenderedPixels(
  sheet: { data: Buffer; width: number; height: number },
  copies: readonly PixelCheckCopy[],
  gap: number,
  margin: number,
  threshold: number,
): string[] {
  const { width: W, height: H } = sheet;
  const errors: string[] = [];
  const owner = new Int32Array(W * H).fill(-1);
  copies.forEach((c, k) => {
    for (let y = 0; y < c.h; y++)
      for (let x = 0; x < c.w; x++) {
        if (c.rgba[(y * c.w + x) * 4 + 3] <= threshold) continue;
        const sx = c.x + x;
        const sy = c.y + y;
        if (sx < 0 || sy < 0 || sx >= W || sy >= H) {
          errors.push(`copy ${k}: ink outside the sheet at ${sx},${sy}`);
          return;
        }
        const i = sy * W + sx;
        if (owner[i] >= 0) {
          errors.push(`copies ${owner[i]} and ${k}: ink overlaps at ${sx},${sy}`);
          return;
        }
        owner[i] = k;
      }
  });
  let stray = 0;
  for (let i = 0; i < W * H; i++) if (sheet.data[i * 4 + 3] > threshold && owner[i] < 0) stray++;
  if (stray) errors.push(`${stray} ink pixels of the sheet belong to no copy`);
  // and every copy's ink is on the sheet, with the copy's own opacity
  let missing = 0;
  copies.forEach((c) => {
    for (let y = 0; y < c.h; y++)
      for (let x = 0; x < c.w; x++) {
        const a = c.rgba[(y * c.w + x) * 4 + 3];
        const sx = c.x + x;
        const sy = c.y + y;
        if (a > threshold && sx < W && sy < H && sheet.data[(sy * W + sx) * 4 + 3] !== a) missing++;
      }
  });
  if (missing) errors.push(`${missing} ink pixels of the copies are missing or changed on the sheet`);
  // gap: from every ink pixel on a copy's boundary, look for another copy's ink in the disk
  const r = Math.ceil(gap);
  const disk: [number, number][] = [];
  for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) if (dx * dx + dy * dy < gap * gap) disk.push([dx, dy]);
  let gapHits = 0;
  let marginHits = 0;
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const k = owner[y * W + x];
      if (k < 0) continue;
      if (x < margin || y < margin || x >= W - margin || y >= H - margin) marginHits++;
      const inner =
        x > 0 && y > 0 && x < W - 1 && y < H - 1 && owner[y * W + x - 1] === k && owner[y * W + x + 1] === k && owner[(y - 1) * W + x] === k && owner[(y + 1) * W + x] === k;
      if (inner) continue;
      for (const [dx, dy] of disk) {
        const xx = x + dx;
        const yy = y + dy;
        if (xx < 0 || yy < 0 || xx >= W || yy >= H) continue;
        const o = owner[yy * W + xx];
        if (o >= 0 && o !== k) {
          gapHits++;
          break;
        }
      }
    }
  if (gapHits) errors.push(`${gapHits} ink pixels are closer than ${gap} px to another copy's ink`);
  if (marginHits) errors.push(`${marginHits} ink pixels lie within the ${margin} px margin`);
  return errors;
}

export type R = { x: number; y: number; w: number; h: number };
/** A copy's art as a rectangle, or as the disc its ink covers (centre and radius). */
type Shape = R | { cx: number; cy: number; r: number };
export const rect = (p: { px: { x: number; y: number; width: number; height: number } }): R => ({ x: p.px.x, y: p.px.y, w: p.px.width, h: p.px.height });

/** Euclidean distance between two shapes (0 when they touch or overlap). */
export function distance(a: Shape, b: Shape): number {
  if ('r' in a && 'r' in b) return Math.max(0, Math.hypot(a.cx - b.cx, a.cy - b.cy) - a.r - b.r);
  if ('r' in a || 'r' in b) {
    const [c, r] = ('r' in a ? [a, b] : [b, a]) as [{ cx: number; cy: number; r: number }, R];
    const dx = Math.max(0, r.x - c.cx, c.cx - (r.x + r.w));
    const dy = Math.max(0, r.y - c.cy, c.cy - (r.y + r.h));
    return Math.max(0, Math.hypot(dx, dy) - c.r);
  }
  const dx = Math.max(0, a.x - (b.x + b.w), b.x - (a.x + a.w));
  const dy = Math.max(0, a.y - (b.y + b.h), b.y - (a.y + a.h));
  return Math.hypot(dx, dy);
}

/**
 * Clearance of a gang-sheet layout, exact on whole pixels: every copy's art and label space
 * lie in the printable area, and those of two different copies are at least the gap apart. The designs are solid
 * rectangles, or discs (`round`): a disc's ink covers the disc inscribed in its box, which
 * the nester keeps the gap from.
 */
export function clearanceProblems(layout: LayoutResult, round: (designId: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const dpi = layout.settings.dpi;
  const margin = Math.round(layout.settings.margin * dpi);
  const gap = Math.round(layout.settings.gap * dpi);
  for (const sheet of layout.sheets) {
    const items = sheet.placements.map((p) => {
      const box = rect(p);
      const art: Shape = round(p.designId) ? { cx: box.x + box.w / 2, cy: box.y + box.h / 2, r: box.w / 2 } : box;
      return { p, box, shapes: p.label ? [art, rect(p.label)] : [art] };
    });
    for (const { p, box, shapes } of items)
      for (const r of [box, ...shapes.slice(1)] as R[]) if (r.x < margin || r.y < margin || r.x + r.w > sheet.widthPx - margin) out.push(`${p.designId}#${p.copy} outside the printable area`);
    for (let i = 0; i < items.length; i++)
      for (let j = 0; j < i; j++)
        for (const x of items[i].shapes)
          for (const y of items[j].shapes)
            if (distance(x, y) < gap) out.push(`${items[i].p.designId}#${items[i].p.copy} and ${items[j].p.designId}#${items[j].p.copy} closer than the gap`);
  }
  return out;
}
