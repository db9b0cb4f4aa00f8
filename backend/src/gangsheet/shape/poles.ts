/**
 * Poles of a cell mask: circles inside the ink, the first at the pole of inaccessibility (the
 * point farthest from the outline), each next one farthest from the outline and from the
 * circles before it, until they cover most of the ink. Two copies' poles give a measure of
 * how deeply they overlap (`poleOverlap`) that keeps growing as one copy moves deeper into
 * the other, where a count of shared cells stays flat once the smaller copy lies wholly
 * inside (the overlap proxy of sparrow's collision quantification, on a raster).
 */
import { CellMask } from './cells';

export interface Poles {
  n: number;
  /** Centres and radii, in row units (a column is `ux` rows wide), from the mask's (0, 0). */
  x: Float64Array;
  y: Float64Array;
  r: Float64Array;
  /** Longest side of the mask, in row units. */
  diameter: number;
  /** Square root of the ink area (row units squared): the measure's scale per copy. */
  size: number;
}

/**
 * Pole counts: stop at `n` poles once they cover `cover` of the ink (the first that applies).
 * The measure costs a product of two copies' pole counts per colliding pair.
 */
const POLE_LIMITS: readonly [number, number][] = [
  [4, 0.85],
  [8, 0],
];

const INF = 1e20;

/** One-dimensional squared distance transform (Felzenszwalb & Huttenlocher), spacing `u`. */
function dt1(f: Float64Array, n: number, u: number, d: Float64Array, v: Int32Array, z: Float64Array): void {
  let k = 0;
  v[0] = 0;
  z[0] = -INF;
  z[1] = INF;
  const u2 = u * u;
  for (let q = 1; q < n; q++) {
    if (f[q] >= INF) continue;
    if (f[v[0]] >= INF) {
      v[0] = q;
      continue;
    }
    let s = (f[q] + u2 * q * q - (f[v[k]] + u2 * v[k] * v[k])) / (2 * u2 * (q - v[k]));
    while (s <= z[k]) {
      k--;
      s = (f[q] + u2 * q * q - (f[v[k]] + u2 * v[k] * v[k])) / (2 * u2 * (q - v[k]));
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = INF;
  }
  if (f[v[0]] >= INF) {
    for (let q = 0; q < n; q++) d[q] = INF;
    return;
  }
  k = 0;
  for (let q = 0; q < n; q++) {
    while (z[k + 1] < q) k++;
    const t = q - v[k];
    d[q] = u2 * t * t + f[v[k]];
  }
}

/**
 * The poles of `m`, whose columns are `ux` rows wide (1: square cells). The distance of an ink
 * cell's centre to the outline is taken as its distance to the nearest centre of a cell
 * without ink (cells beyond the mask have none), less half a cell.
 */
export function polesOf(m: CellMask, ux = 1): Poles {
  // the mask with a border of empty cells
  const W = m.w + 2;
  const H = m.h + 2;
  const g = new Float64Array(W * H);
  let ink = 0;
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const mx = x - 1;
      const my = y - 1;
      const set = mx >= 0 && my >= 0 && mx < m.w && my < m.h && ((m.bits[my * m.words + (mx >>> 5)] >>> (mx & 31)) & 1) === 1;
      g[y * W + x] = set ? INF : 0;
      if (set) ink++;
    }
  const L = Math.max(W, H);
  const f = new Float64Array(L);
  const d = new Float64Array(L);
  const v = new Int32Array(L);
  const z = new Float64Array(L + 1);
  // columns (rows apart: spacing 1), then rows (columns apart: spacing ux)
  for (let x = 0; x < W; x++) {
    for (let y = 0; y < H; y++) f[y] = g[y * W + x];
    dt1(f, H, 1, d, v, z);
    for (let y = 0; y < H; y++) g[y * W + x] = d[y];
  }
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) f[x] = g[y * W + x];
    dt1(f, W, ux, d, v, z);
    for (let x = 0; x < W; x++) g[y * W + x] = d[x];
  }
  const half = 0.5 * Math.min(1, ux);
  // D: how large a circle at each ink cell can be, given the outline and the poles so far
  const D = new Float64Array(W * H).fill(-INF);
  const covered = new Uint8Array(W * H);
  for (let i = 0; i < W * H; i++) if (g[i] > 0) D[i] = Math.max(half, Math.sqrt(g[i]) - half);
  const xs: number[] = [];
  const ys: number[] = [];
  const rs: number[] = [];
  let cov = 0;
  const maxPoles = POLE_LIMITS[POLE_LIMITS.length - 1][0];
  while (xs.length < maxPoles && ink > 0) {
    const n = xs.length;
    if (POLE_LIMITS.some(([k, c]) => n >= k && cov >= c * ink)) break;
    let best = -1;
    let bd = 0;
    for (let i = 0; i < W * H; i++)
      if (D[i] > bd) {
        bd = D[i];
        best = i;
      }
    // nothing left that a circle of a quarter cell could add
    if (best < 0 || bd < 0.25 * Math.min(1, ux)) break;
    const cx = best % W;
    const cy = (best - cx) / W;
    xs.push((cx - 1 + 0.5) * ux);
    ys.push(cy - 1 + 0.5);
    rs.push(bd);
    // only cells within bd + (the largest D, at most bd) of the centre can change
    const reach = 2 * bd;
    const x0 = Math.max(0, Math.floor(cx - reach / ux) - 1);
    const x1 = Math.min(W - 1, Math.ceil(cx + reach / ux) + 1);
    const y0 = Math.max(0, Math.floor(cy - reach) - 1);
    const y1 = Math.min(H - 1, Math.ceil(cy + reach) + 1);
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        const i = y * W + x;
        if (D[i] === -INF) continue;
        const dist = Math.hypot((x - cx) * ux, y - cy);
        const left = dist - bd;
        if (left < D[i]) D[i] = left;
        if (dist < bd && !covered[i]) {
          covered[i] = 1;
          cov++;
        }
      }
  }
  return {
    n: xs.length,
    x: Float64Array.from(xs),
    y: Float64Array.from(ys),
    r: Float64Array.from(rs),
    diameter: Math.max(m.w * ux, m.h),
    size: Math.sqrt(Math.max(1, ink) * ux),
  };
}

/**
 * How deeply two copies overlap (a and b with their masks' (0, 0) at (ax, ay) and (bx, by), in
 * row units), for copies whose cells do collide: over every pair of poles, the depth by which
 * the two circles (each grown by half of `reach`) overlap, weighted by the smaller radius; a
 * pair apart by less than a small epsilon still counts a little, so the measure is positive
 * and smooth. Scaled by the copies' sizes so that large and small copies weigh alike per
 * unit of depth.
 */
export function poleOverlap(a: Poles, ax: number, ay: number, b: Poles, bx: number, by: number, reach: number): number {
  const eps = 0.01 * Math.max(a.diameter, b.diameter);
  const eps2 = eps * eps;
  const dx = ax - bx;
  const dy = ay - by;
  let total = 0;
  const an = a.n;
  const bn = b.n;
  const axs = a.x;
  const ays = a.y;
  const ars = a.r;
  const bxs = b.x;
  const bys = b.y;
  const brs = b.r;
  for (let i = 0; i < an; i++) {
    const px = axs[i] + dx;
    const py = ays[i] + dy;
    const pr = ars[i] + reach;
    for (let j = 0; j < bn; j++) {
      const ex = px - bxs[j];
      const ey = py - bys[j];
      const pd = pr + brs[j] - Math.sqrt(ex * ex + ey * ey);
      const decay = pd >= eps ? pd : eps2 / (2 * eps - pd);
      total += decay * (ars[i] < brs[j] ? ars[i] : brs[j]);
    }
  }
  return Math.sqrt(Math.PI * total + eps2) * Math.sqrt(a.size * b.size);
}

