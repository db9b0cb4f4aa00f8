/**
 * Column patterns for real orders (few sizes, many copies each, on a long strip).
 *
 * Such strips are best filled periodically: a *pattern* is a set of columns across the
 * width, each column one piece type in one orientation stacked along the strip (column width
 * = piece width, pitch = piece height; pieces are gap-inflated already). Running a pattern
 * for a length L yields about L / pitch copies per column. Which patterns to run, and for
 * how long, is the linear program
 *
 *     minimise Σ L_p   subject to   Σ_p L_p · (copies of type t per unit length in p) ≥ d_t,
 *
 * the strip-packing analogue of Gilmore–Gomory cutting stock. It is solved by column
 * generation: a revised simplex over at most 16 rows, and an unbounded knapsack over the
 * (type, orientation) widths prices out the next pattern. The LP value is what such
 * periodic layouts can reach; the sequence search cannot see it, because it decides one
 * piece at a time and never plans a whole column.
 *
 * `initialPlan` turns the LP solution into whole copies per column (each pattern a phase),
 * `buildColumns` lays a plan out (every column drops onto the profile of the phases below
 * it; the copies a plan leaves out are the caller's to pack on top), and `mutatePlan` is the
 * move of the plan search in `search.ts`, which scores plans by their real length.
 */
import { PieceSize, pieceTypes } from './skyline';

/** One piece type in one orientation: a possible column. */
export interface ColumnItem {
  type: number;
  /** Column width (the piece's width as placed). */
  w: number;
  /** Height of one copy as placed: the column's period along the strip. */
  pitch: number;
}

export interface LpPattern {
  /** Columns per item (index into the items array). */
  counts: Int32Array;
  /** Length the pattern runs for (fractional). */
  length: number;
}

export interface PatternLpResult {
  patterns: LpPattern[];
  /** Σ length: a lower bound on any layout made of such phases. */
  value: number;
  /**
   * A lower bound on the length of *every* layout of these pieces, not only of column
   * layouts: a horizontal line through any layout crosses copies whose widths sum to at most
   * the width, a pattern, and each copy is crossed over its own height; so any layout is a
   * solution of this LP whose Σ L_p is its length. From the duals y of the last basis priced
   * (Farley's bound: Σ d_t·y_t⁺ / the best pattern's price), so it holds when the solve stops
   * early; equal to `value` once the LP is optimal. 0 when no basis was priced.
   */
  bound: number;
}

const EPS = 1e-9;
const MAX_ITERATIONS = 400;
/** 22 in at 300 DPI is 6675 units with the gap: exact there, coarser only beyond 60 in. */
const MAX_KNAPSACK_WIDTH = 20000;

/**
 * Best pattern for the dual prices: unbounded knapsack over the item widths (capacity
 * `width`), an item worth price[type] / pitch. Returns the counts and the pattern's value.
 */
export function pricePattern(items: readonly ColumnItem[], price: ArrayLike<number>, fullWidth: number): { counts: Int32Array; value: number } {
  const K = items.length;
  // in coarser units on very wide strips (widths rounded up, so every pattern still fits):
  // the table has one entry per unit of width
  const unit = Math.max(1, Math.ceil(fullWidth / MAX_KNAPSACK_WIDTH));
  const width = Math.floor(fullWidth / unit);
  const widthOf = items.map((it) => Math.ceil(it.w / unit));
  const best = new Float64Array(width + 1);
  const choice = new Int32Array(width + 1).fill(-1);
  const values = items.map((it) => Math.max(0, price[it.type]) / it.pitch);
  for (let c = 1; c <= width; c++) {
    // leaving a unit of width empty is always allowed
    best[c] = best[c - 1];
    choice[c] = -1;
    for (let k = 0; k < K; k++) {
      const w = widthOf[k];
      if (w <= c && values[k] > 0) {
        const v = best[c - w] + values[k];
        if (v > best[c] + EPS) {
          best[c] = v;
          choice[c] = k;
        }
      }
    }
  }
  const counts = new Int32Array(K);
  let c = width;
  while (c > 0) {
    const k = choice[c];
    if (k < 0) c--;
    else {
      counts[k]++;
      c -= widthOf[k];
    }
  }
  return { counts, value: best[width] };
}

/** Copies of each type per unit length that a pattern yields. */
function yieldOf(items: readonly ColumnItem[], counts: Int32Array, types: number): Float64Array {
  const a = new Float64Array(types);
  counts.forEach((c, k) => {
    if (c > 0) a[items[k].type] += c / items[k].pitch;
  });
  return a;
}

/** Inverse of a small dense matrix (Gauss–Jordan, partial pivoting); null when singular. */
function invert(m: Float64Array[], n: number): Float64Array[] | null {
  const a = m.map((row) => Float64Array.from(row));
  const inv = Array.from({ length: n }, (_, i) => {
    const r = new Float64Array(n);
    r[i] = 1;
    return r;
  });
  for (let col = 0; col < n; col++) {
    let piv = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r][col]) > Math.abs(a[piv][col])) piv = r;
    if (Math.abs(a[piv][col]) < 1e-14) return null;
    [a[col], a[piv]] = [a[piv], a[col]];
    [inv[col], inv[piv]] = [inv[piv], inv[col]];
    const d = a[col][col];
    for (let j = 0; j < n; j++) {
      a[col][j] /= d;
      inv[col][j] /= d;
    }
    for (let r = 0; r < n; r++) {
      if (r === col || a[r][col] === 0) continue;
      const f = a[r][col];
      for (let j = 0; j < n; j++) {
        a[r][j] -= f * a[col][j];
        inv[r][j] -= f * inv[col][j];
      }
    }
  }
  return inv;
}

/**
 * Solves the pattern LP for `demand[t]` copies of each type (types 0..demand.length-1; every
 * type with demand needs at least one item narrower than `width`). Deterministic. `stop` is
 * asked with the value of each basis (they only fall) and ends the solve early.
 */
export function solvePatternLp(items: readonly ColumnItem[], demand: readonly number[], width: number, stop: (value: number) => boolean = () => false): PatternLpResult {
  const T = demand.length;
  // basis columns: a pattern (counts) or the surplus of a type (counts = null)
  type Col = { counts: Int32Array | null; surplus: number; a: Float64Array; cost: number };
  const basis: Col[] = [];
  for (let t = 0; t < T; t++) {
    // start: each type alone, in its orientation with the most copies per unit length
    let bestK = -1;
    let bestRate = 0;
    items.forEach((it, k) => {
      if (it.type !== t || it.w > width) return;
      const rate = Math.floor(width / it.w) / it.pitch;
      if (rate > bestRate) {
        bestRate = rate;
        bestK = k;
      }
    });
    if (bestK < 0) throw new Error(`pattern LP: type ${t} fits no column`);
    const counts = new Int32Array(items.length);
    counts[bestK] = Math.floor(width / items[bestK].w);
    basis.push({ counts, surplus: -1, a: yieldOf(items, counts, T), cost: 1 });
  }
  let xB = new Float64Array(T);
  // the basis xB belongs to (the loop may stop after a pivot, before computing the next)
  let solved: Col[] = [];
  let bound = 0;
  // every basis is feasible (primal simplex), so stopping early leaves a valid, longer plan
  for (let iter = 0; ; iter++) {
    // B[row][col] = basis[col].a[row]
    const B = Array.from({ length: T }, (_, r) => Float64Array.from(basis, (c) => c.a[r]));
    const inv = invert(B, T);
    if (!inv) break;
    xB = new Float64Array(T);
    for (let r = 0; r < T; r++) for (let j = 0; j < T; j++) xB[r] += inv[r][j] * demand[j];
    solved = basis.slice();
    let value = 0;
    for (let r = 0; r < T; r++) value += basis[r].cost * xB[r];
    if (iter >= MAX_ITERATIONS || stop(value)) break;
    // dual prices y = c_B · B⁻¹
    const y = new Float64Array(T);
    for (let j = 0; j < T; j++) for (let r = 0; r < T; r++) y[j] += basis[r].cost * inv[r][j];
    let entering: Col | null = null;
    for (let t = 0; t < T && !entering; t++) {
      if (y[t] < -1e-9 && !basis.some((c) => c.surplus === t)) {
        const a = new Float64Array(T);
        a[t] = -1;
        entering = { counts: null, surplus: t, a, cost: 0 };
      }
    }
    if (!entering) {
      const priced = pricePattern(items, y, width);
      // y⁺ / max(1, best price) is dual feasible: every pattern's yield is worth at most 1
      let dy = 0;
      for (let t = 0; t < T; t++) dy += demand[t] * Math.max(0, y[t]);
      bound = Math.max(bound, dy / Math.max(1, priced.value));
      if (priced.value <= 1 + 1e-9) break; // no pattern has negative reduced cost: optimal
      entering = { counts: priced.counts, surplus: -1, a: yieldOf(items, priced.counts, T), cost: 1 };
    }
    // ratio test on u = B⁻¹ a
    const u = new Float64Array(T);
    for (let r = 0; r < T; r++) for (let j = 0; j < T; j++) u[r] += inv[r][j] * entering.a[j];
    let leave = -1;
    let bestRatio = Infinity;
    for (let r = 0; r < T; r++) {
      if (u[r] > 1e-12) {
        const ratio = Math.max(0, xB[r]) / u[r];
        if (ratio < bestRatio - 1e-12) {
          bestRatio = ratio;
          leave = r;
        }
      }
    }
    if (leave < 0) break;
    basis[leave] = entering;
  }
  const patterns: LpPattern[] = [];
  let value = 0;
  solved.forEach((c, r) => {
    if (c.counts && xB[r] > EPS) {
      patterns.push({ counts: c.counts, length: xB[r] });
      value += xB[r];
    }
  });
  return { patterns, value, bound: Math.min(bound, value) };
}

/** Distinct piece sizes (rotation collapses (w,h) and (h,w)) and the columns they allow. */
function columnItems(pieces: readonly PieceSize[], width: number, rotate: boolean): { typeOf: Int32Array; demand: number[]; items: ColumnItem[] } {
  const { typeOf, first } = pieceTypes(pieces, rotate);
  const typeW = first.map((i) => (rotate ? Math.max(pieces[i].w, pieces[i].h) : pieces[i].w));
  const typeH = first.map((i) => (rotate ? Math.min(pieces[i].w, pieces[i].h) : pieces[i].h));
  const demand = first.map(() => 0);
  for (let i = 0; i < typeOf.length; i++) demand[typeOf[i]]++;
  const items: ColumnItem[] = [];
  typeW.forEach((a, t) => {
    const b = typeH[t];
    if (a <= width) items.push({ type: t, w: a, pitch: b });
    if (rotate && a !== b && b <= width) items.push({ type: t, w: b, pitch: a });
  });
  return { typeOf, demand, items };
}

export interface ColumnLayout {
  x: Int32Array;
  y: Int32Array;
  rotated: Uint8Array;
  /** 1 for the pieces placed in columns; the others are left for the caller. */
  placed: Uint8Array;
  /** Height of the columns at every x (0..width-1) after placing them. */
  profile: Int32Array;
}

/** One phase of a plan: its columns left to right (item indexes) and copies in each. */
export interface Phase {
  cols: Int32Array;
  copies: Int32Array;
}

/** Everything the plans of one order share. */
export interface ColumnProblem {
  pieces: readonly PieceSize[];
  width: number;
  items: ColumnItem[];
  typeOf: Int32Array;
  demand: number[];
  lp: PatternLpResult;
}

export function columnProblem(pieces: readonly PieceSize[], width: number, rotate: boolean, stop?: (value: number) => boolean): ColumnProblem {
  const { typeOf, demand, items } = columnItems(pieces, width, rotate);
  return { pieces, width, items, typeOf, demand, lp: solvePatternLp(items, demand, width, stop) };
}

/**
 * The LP's phases as integers, longest phase first, widest columns first (they leave the
 * most regular profile for the next phase). Copies per column are rounded down, capped by
 * what the type still needs; then columns shorter than their phase get one more copy while
 * that stays within the phase. What is still missing is left to the caller.
 */
export function initialPlan(prob: ColumnProblem): Phase[] {
  const { items } = prob;
  const left = prob.demand.slice();
  const plan: Phase[] = [];
  for (const ph of prob.lp.patterns.slice().sort((a, b) => b.length - a.length)) {
    const cols: number[] = [];
    ph.counts.forEach((c, k) => {
      for (let j = 0; j < c; j++) cols.push(k);
    });
    cols.sort((a, b) => items[b].w - items[a].w || a - b);
    const copies = new Int32Array(cols.length);
    cols.forEach((k, j) => {
      const it = items[k];
      copies[j] = Math.min(Math.floor(ph.length / it.pitch + 1e-6), left[it.type]);
      left[it.type] -= copies[j];
    });
    const phaseH = Math.max(0, ...cols.map((k, j) => copies[j] * items[k].pitch));
    cols.forEach((k, j) => {
      const it = items[k];
      while (left[it.type] > 0 && (copies[j] + 1) * it.pitch <= phaseH) {
        copies[j]++;
        left[it.type]--;
      }
    });
    plan.push({ cols: Int32Array.from(cols), copies });
  }
  return plan;
}

/**
 * Places a plan: phases in order, each column left to right, dropping onto the highest
 * point of the profile under it (a short column of one phase lets the next phase's column
 * start lower). A column gets at most the copies its type still has.
 */
export function buildColumns(prob: ColumnProblem, plan: readonly Phase[]): ColumnLayout {
  const { pieces, items, typeOf, width } = prob;
  const n = pieces.length;
  const x = new Int32Array(n);
  const y = new Int32Array(n);
  const rotated = new Uint8Array(n);
  const placed = new Uint8Array(n);
  // the profile as segments left to right: [segX[s], segX[s+1]) at height segY[s]
  let segX = [0, width];
  let segY = [0];
  // pieces of each type still unplaced, lowest index first (deterministic)
  const pool: number[][] = prob.demand.map(() => []);
  for (let i = n - 1; i >= 0; i--) pool[typeOf[i]].push(i);
  for (const ph of plan) {
    let cx = 0;
    for (let j = 0; j < ph.cols.length; j++) {
      const it = items[ph.cols[j]];
      const c = Math.min(ph.copies[j], pool[it.type].length);
      if (c <= 0) continue;
      const at = cx;
      let base = 0;
      for (let s = 0; s < segY.length; s++) if (segX[s] < at + it.w && segX[s + 1] > at && segY[s] > base) base = segY[s];
      for (let k = 0; k < c; k++) {
        const i = pool[it.type].pop()!;
        const p = pieces[i];
        x[i] = at;
        y[i] = base + k * it.pitch;
        rotated[i] = p.w === it.w && p.h === it.pitch ? 0 : 1;
        placed[i] = 1;
      }
      // replace the covered range by one segment
      const top = base + c * it.pitch;
      const nx: number[] = [];
      const ny: number[] = [];
      for (let s = 0; s < segY.length; s++) {
        if (segX[s] < at) {
          nx.push(segX[s]);
          ny.push(segY[s]);
        }
        if (segX[s] < at + it.w && segX[s + 1] > at && !(nx.length && nx[nx.length - 1] === at)) {
          nx.push(at);
          ny.push(top);
        }
        if (segX[s + 1] > at + it.w) {
          const from = Math.max(segX[s], at + it.w);
          nx.push(from);
          ny.push(segY[s]);
        }
      }
      // merge equal neighbours
      const mx: number[] = [];
      const my: number[] = [];
      for (let s = 0; s < ny.length; s++) {
        if (my.length && my[my.length - 1] === ny[s]) continue;
        mx.push(nx[s]);
        my.push(ny[s]);
      }
      mx.push(width);
      segX = mx;
      segY = my;
      cx = at + it.w;
    }
  }
  const profile = new Int32Array(width);
  for (let s = 0; s < segY.length; s++) profile.fill(segY[s], segX[s], segX[s + 1]);
  return { x, y, rotated, placed, profile };
}

/**
 * A random change to a plan, in place; returns a function that undoes it. Moves: one copy
 * more or less in a column, a copy moved between two columns of the same type, two columns
 * of a phase swapped.
 */
export function mutatePlan(prob: ColumnProblem, plan: Phase[], rng: { int(n: number): number }): () => void {
  const kind = rng.int(4);
  const ph = plan[rng.int(plan.length)];
  const m = ph.cols.length;
  const j = rng.int(m);
  if (kind === 3 && m > 1) {
    const k = rng.int(m);
    const swap = () => {
      [ph.cols[j], ph.cols[k]] = [ph.cols[k], ph.cols[j]];
      [ph.copies[j], ph.copies[k]] = [ph.copies[k], ph.copies[j]];
    };
    swap();
    return swap;
  }
  if (kind === 1) {
    // a copy from another column of the same type
    const t = prob.items[ph.cols[j]].type;
    const from: [Phase, number][] = [];
    for (const q of plan) q.cols.forEach((k, i) => (q !== ph || i !== j) && prob.items[k].type === t && q.copies[i] > 0 && from.push([q, i]));
    if (from.length > 0) {
      const [q, i] = from[rng.int(from.length)];
      q.copies[i]--;
      ph.copies[j]++;
      return () => {
        q.copies[i]++;
        ph.copies[j]--;
      };
    }
  }
  // one copy more or less (more than the type has is clamped when the plan is built)
  const d = ph.copies[j] > 0 && rng.int(2) === 0 ? -1 : 1;
  ph.copies[j] += d;
  return () => (ph.copies[j] -= d);
}
