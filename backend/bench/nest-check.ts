/**
 * Independent checkers for true-shape layouts, used by the tests and benchmarks. They share
 * no code with the nester (which works on a cell grid): polygons are checked with exact
 * polygon clipping (polygon-clipping), rendered sheets on their decoded pixels.
 */
import polygonClipping from 'polygon-clipping';
import type { EsicupInstance, EsicupSolution } from '../src/gangsheet/shape/esicup';

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
