/**
 * The bottom-left fill of true-shape nesting and its placement rules.
 *
 * Copies go to the lowest row, then the leftmost column, where they fit (`Grid.firstFit`),
 * over every allowed orientation, with the orientation chosen by a placement rule (lowest
 * ink centroid, far edge or top edge, or per-design lattices). Copies are placed in a
 * sequence, or (the "fill" rule) the design whose copy sits lowest among the next few in
 * the sequence goes next, so designs mix across the width. Copies that do not fit a sheet
 * of the maximum length go to the next sheet. The search over sequences is nest.ts.
 */
import { CellMask } from './cells';
import { Grid, Prepared } from './grid';
import type { NestFixed, NestPlacement, NestSheet } from './nest';

/** Placement rules of the bottom-left fill. */
export type PlacementRule = 'far' | 'top' | 'centre' | 'lattice' | 'fill';

/**
 * In the order they are tried (a short budget, like the quick preview, may get only the
 * first layout): the fill rule's starting layout is usually the shortest, then the centre
 * rule's.
 */
export const RULES: readonly PlacementRule[] = ['fill', 'centre', 'far', 'top', 'lattice'];

/**
 * The "fill" rule's parameters: how many designs, next in the sequence, compete for the
 * lowest spot (`window`), how much higher a bigger design's copy may sit than the lowest one
 * and still go first (`tolerance`, in sides of a typical copy), and what "bigger" means
 * (`prefer`: the grown area, or the width as placed).
 */
export interface FillParams {
  window: number;
  tolerance: number;
  prefer: 'area' | 'width';
}

/** The fill rule of the starting layouts: 4 designs compete, bigger ones within a fifth of a typical copy's side. */
export const FILL_START: FillParams = { window: 4, tolerance: 0.2, prefer: 'area' };

/**
 * How much higher (in row steps of its lattice) a copy's next lattice spot may lie than the
 * lowest free spot and still be taken ("lattice" rule): the row-end spot a disc finds
 * against the wall is about a quarter of a row step lower than the next row's first spot.
 */
const LATTICE_SLACK = 0.5;

/** Added to the "lattice" rule's score of a spot off every lattice (above any height × width; the scores stay whole numbers). */
const OFF_LATTICE = 2 ** 50;

/** Copies at x + i·a in every row; rows b apart, every other one shifted by s (cells). */
interface Lattice {
  a: number;
  s: number;
  b: number;
}

/**
 * The densest simple lattice of one orientation's copies, on a scratch grid: `a` the
 * shortest step across the strip at which two copies side by side keep the gap, then the
 * row step (s, b), s 0 or a/2, with the smallest b at which a row shifted by s clears the
 * row below (and the row two below). The bottom-left fill breaks such patterns at a row's
 * end, where a copy finds a lower spot against the wall than the next row's first lattice
 * spot (discs: 6 then 5 across, or worse, where 6 and 6 fit).
 */
function latticeOf(p: Prepared): Lattice | null {
  const pad = p.src.pad;
  const span = p.w + 2 * pad + 2;
  const maxWords = Math.max(p.src.mask.words, p.src.dil.words) + 1;
  const width = 9 * span + 2 * pad;
  const grid = new Grid(width, Infinity, maxWords, 4 * (p.h + pad) + 8);
  const x0 = 4 * span;
  const y0 = p.h + 2 * pad + 2;
  grid.place(p, x0, y0);
  let a = 0;
  for (let dx = 1; dx <= span; dx++)
    if (grid.fits(p, x0 + dx, y0)) {
      a = dx;
      break;
    }
  if (!a) return null;
  for (let i = -3; i <= 3; i++) if (i) grid.place(p, x0 + i * a, y0);
  let best: Lattice | null = null;
  for (const s of [0, Math.floor(a / 2)]) {
    for (let b = 1; b <= p.h + 2 * pad + 1; b++) {
      if (!grid.fits(p, x0 + s, y0 + b)) continue;
      // rows alternate between shifts 0 and s: the row two up must clear row 0 too
      if (!grid.fits(p, x0, y0 + 2 * b)) continue;
      if (!best || b < best.b) best = { a, s, b };
      break;
    }
  }
  return best;
}

function sameCells(a: CellMask, b: CellMask): boolean {
  if (a.w !== b.w || a.h !== b.h || a.area !== b.area) return false;
  for (let i = 0; i < a.bits.length; i++) if (a.bits[i] !== b.bits[i]) return false;
  return true;
}

/** A copy of a starting layout kept where it stands (`BottomLeftFill.preset`). */
export interface PresetPlacement extends NestPlacement {
  sheet: number;
}

export interface Evaluated {
  sheets: NestSheet[];
  /** (sheets - 1) * bigM + total used rows: fewer sheets first, then less film. */
  cost: number;
}

/**
 * Bottom-left fill by a placement rule. Which orientation a copy takes: the one whose first
 * free position has the lowest far edge ("far"), the lowest top edge ("top") or the lowest
 * centroid of its ink ("centre", the lowest-gravity-centre rule of the nesting literature),
 * leftmost on ties. Within one orientation all three mean the first free position; they
 * differ in which orientation wins (a heart point-down or on its side). "lattice" is "far"
 * where each (design, orientation) keeps to its own lattice (`latticeOf`, origin at its
 * first copy on the sheet) while the lattice's next free spot is at most LATTICE_SLACK of a
 * row step above the first free spot: rows of identical copies stay interlocked instead of
 * breaking at the wall. "fill" (orders of several designs) also chooses *which design* goes
 * next instead of following the sequence: see the fill branch of `evaluate`. No rule wins
 * everywhere, so the search tries all on the starting sequences and keeps the best one.
 */
export class BottomLeftFill {
  rule: PlacementRule = 'far';
  fill: FillParams = FILL_START;
  /** When a timed search gives up on an evaluation in progress (performance.now(); 0: never); set once there is a layout. */
  abandon = 0;
  evaluations = 0;
  /**
   * Copies already on the sheets (a starting layout's, `NestConfig.start`, where they stand
   * clear of the fixed copies and of each other): every evaluation places them after the fixed
   * copies and before the sequence, which then holds only the others.
   */
  preset: readonly PresetPlacement[] = [];
  /** The orientations worth trying per type: a turn whose cells equal an earlier turn's (a ring's, a badge's, a photo's half turn) finds the same spots. */
  private readonly distinct: number[][];
  private readonly maxWords: number;
  private readonly initialRows: number;
  /** Added to the cost per extra sheet: more than any sheet's rows. */
  private readonly bigM: number;
  /** The side of a typical copy (square root of the mean grown area), in cells. */
  readonly typical: number;
  private readonly lattices = new Map<number, Lattice | null>();

  constructor(
    private readonly prepared: readonly (readonly Prepared[])[],
    private readonly copies: readonly number[],
    private readonly cfg: { readonly width: number; readonly maxRows: number; readonly fixed?: readonly NestFixed[] },
  ) {
    this.distinct = prepared.map((os) => os.flatMap((p, i) => (os.slice(0, i).some((e) => sameCells(e.src.mask, p.src.mask)) ? [] : [i])));
    this.maxWords = Math.max(1, ...prepared.flatMap((os) => os.map((p) => Math.max(p.src.mask.words, p.src.dil.words) + 1)));
    const totalArea = copies.reduce((a, t) => a + this.areaOf(t), 0);
    this.typical = Math.sqrt(totalArea / Math.max(1, copies.length));
    this.initialRows = Math.min(Number.isFinite(cfg.maxRows) ? cfg.maxRows : Infinity, Math.ceil((totalArea / cfg.width) * 1.5) + 64);
    this.bigM = Number.isFinite(cfg.maxRows) ? cfg.maxRows * 4 : 0;
  }

  /** A type's largest grown area, in cells. */
  areaOf(t: number): number {
    return Math.max(...this.prepared[t].map((p) => p.src.dil.area));
  }

  private latticeFor(t: number, o: number): Lattice | null {
    const key = t * 8 + o;
    if (!this.lattices.has(key)) this.lattices.set(key, latticeOf(this.prepared[t][o]));
    return this.lattices.get(key)!;
  }

  /**
   * Lays out the copies in the order of `seq` by the current rule. Null when the layout was
   * given up: a single sheet grew beyond `bound` rows, or the time ran out (`abandon`).
   */
  evaluate(seq: readonly number[], bound: number): Evaluated | null {
    const { cfg, copies, prepared, distinct, maxWords, initialRows, bigM, typical, rule, fill, abandon } = this;
    const areaOf = (t: number) => this.areaOf(t);
    const latticeFor = (t: number, o: number) => this.latticeFor(t, o);
    this.evaluations++;
    const sheets: NestSheet[] = [];
    let remaining = seq;
    let cost = 0;
    let farSum = 0;
    const fixed = cfg.fixed ?? [];
    const preset = this.preset;
    const lastFixedSheet = Math.max(
      fixed.reduce((m, f) => Math.max(m, f.sheet), -1),
      preset.reduce((m, p) => Math.max(m, p.sheet), -1),
    );
    while (remaining.length || sheets.length <= lastFixedSheet) {
      const grid = new Grid(cfg.width, cfg.maxRows, maxWords, initialRows);
      // first free position found so far per (type, orientation): the grid only fills up,
      // so no earlier position can become free again on this sheet
      const cache = new Map<number, { x: number; y: number } | null>();
      // first copy of each (type, orientation) on this sheet: its lattice's origin
      const origin = new Map<number, { x: number; y: number }>();
      const placements: NestPlacement[] = [];
      const rest: number[] = [];
      let rows = 0;
      // fixed copies first: obstacles the others are placed around
      fixed.forEach((f, k) => {
        if (f.sheet !== sheets.length) return;
        const p = prepared[f.type][0];
        grid.place(p, f.x, f.y);
        placements.push({ copy: copies.length + k, orientation: 0, x: f.x, y: f.y });
        rows = Math.max(rows, f.y + p.h);
      });
      // then the starting layout's copies kept where they stand
      for (const q of preset) {
        if (q.sheet !== sheets.length) continue;
        const p = prepared[copies[q.copy]][q.orientation];
        grid.place(p, q.x, q.y);
        placements.push({ copy: q.copy, orientation: q.orientation, x: q.x, y: q.y });
        rows = Math.max(rows, q.y + p.h);
      }
      // where a copy of type t would go: over its orientations, the best by the rule
      const choose = (t: number): { o: number; x: number; y: number; score: number } | null => {
        const ps = prepared[t];
        let best: { o: number; x: number; y: number; score: number } | null = null;
        for (const o of distinct[t]) {
          const key = t * 8 + o;
          let from = cache.get(key);
          if (from === null) continue;
          from ??= { x: 0, y: 0 };
          const pos = grid.firstFit(ps[o], from.y, from.x);
          cache.set(key, pos);
          if (!pos) continue;
          let px = pos.x;
          let py = pos.y;
          let onLattice = false;
          // a lattice spot counts as low as the first free spot it replaces
          const far = pos.y + ps[o].h;
          const org = rule === 'lattice' ? origin.get(key) : undefined;
          if (org) {
            const L = latticeFor(t, o);
            if (L) {
              // the first free lattice spot at or after the first free spot, unless it lies
              // more than LATTICE_SLACK of a row step higher
              const limit = pos.y + Math.floor(L.b * LATTICE_SLACK);
              let j = Math.ceil((pos.y - org.y) / L.b);
              search: for (let y = org.y + j * L.b; y <= limit; j++, y += L.b) {
                // rows alternate between the origin's offset and the shifted one
                const shift = (((org.x + (j & 1 ? L.s : 0)) % L.a) + L.a) % L.a;
                for (let x = shift; x + ps[o].w <= cfg.width; x += L.a) {
                  if (y === pos.y && x < pos.x) continue;
                  if (y + ps[o].h > cfg.maxRows) break search;
                  grid.ensure(y + ps[o].h);
                  if (grid.fits(ps[o], x, y)) {
                    px = x;
                    py = y;
                    onLattice = true;
                    break search;
                  }
                }
              }
            }
          }
          // "lattice" breaks ties by orientation, not by column: copies of a symmetric design
          // then stay in one orientation and on one lattice, and pack as tightly as rectangles
          // do (breaking ties by column mixes orientations and leaves gaps between rows)
          // "fill" turns each design's copy by the centre rule, then chooses among designs
          const height = rule === 'top' ? py : rule === 'centre' || rule === 'fill' ? py + ps[o].cy : far;
          // a copy that continues its lattice beats an orientation without one: the turned
          // cells of a round design differ a little, so a turned copy's first free spot can lie
          // lower at the wall and break the rows
          const score = (rule === 'lattice' && !onLattice ? OFF_LATTICE : 0) + height * (cfg.width + 1) + (rule === 'lattice' ? o : pos.x);
          if (!best || score < best.score) best = { o, x: px, y: py, score };
        }
        return best;
      };
      const put = (c: number, b: { o: number; x: number; y: number }): boolean => {
        const ps = prepared[copies[c]];
        grid.place(ps[b.o], b.x, b.y);
        const key = copies[c] * 8 + b.o;
        if (!origin.has(key)) origin.set(key, { x: b.x, y: b.y });
        placements.push({ copy: c, orientation: b.o, x: b.x, y: b.y });
        rows = Math.max(rows, b.y + ps[b.o].h);
        farSum += b.y + ps[b.o].h;
        // once there is a layout, a timed search abandons an evaluation at its deadline (one
        // fill layout of a few hundred copies can take a short budget's whole time)
        if (abandon && (placements.length & 15) === 0 && performance.now() >= abandon) return false;
        // a single sheet can only grow: stop as soon as it is worse than the bound
        return Number.isFinite(cfg.maxRows) || rows <= Math.floor(bound);
      };
      if (rule !== 'fill') {
        for (const c of remaining) {
          const b = choose(copies[c]);
          if (!b) rest.push(c);
          else if (!put(c, b)) return null;
        }
      } else {
        // "fill": of the next `fill.window` designs in the sequence, the one whose copy would
        // sit lowest goes next, unless a bigger one would sit at most `fill.tolerance` sides of
        // a typical copy higher (the biggest such one goes). The rectangle packer's skyline fills the lowest
        // gap with the piece that fits it best, and it mixes designs across the width; the
        // plain sequence lays each design as a block.
        const queues = new Map<number, number[]>();
        for (const c of remaining) {
          const t = copies[c];
          if (!queues.has(t)) queues.set(t, []);
          queues.get(t)!.push(c);
        }
        const at = new Map<number, number>();
        remaining.forEach((c, i) => at.set(c, i));
        const head = new Map<number, number>([...queues.keys()].map((t) => [t, 0]));
        let active = [...queues.keys()];
        while (active.length) {
          active.sort((a, b) => at.get(queues.get(a)![head.get(a)!])! - at.get(queues.get(b)![head.get(b)!])!);
          const cands: { t: number; b: { o: number; x: number; y: number; score: number } }[] = [];
          for (const t of active.slice(0, fill.window)) {
            const b = choose(t);
            if (b) cands.push({ t, b });
            else {
              // no room for this design on the sheet: its copies go to the next one
              rest.push(...queues.get(t)!.slice(head.get(t)!));
              head.set(t, queues.get(t)!.length);
            }
          }
          if (cands.length) {
            const reach = Math.min(...cands.map((k) => k.b.y)) + fill.tolerance * typical;
            let pick = cands[0];
            const size = (k: (typeof cands)[number]) => (fill.prefer === 'area' ? areaOf(k.t) : prepared[k.t][k.b.o].w);
            for (const k of cands) if (k.b.y <= reach && (pick.b.y > reach || size(k) > size(pick))) pick = k;
            const q = queues.get(pick.t)!;
            const c = q[head.get(pick.t)!];
            head.set(pick.t, head.get(pick.t)! + 1);
            if (!put(c, pick.b)) return null;
          }
          active = active.filter((t) => head.get(t)! < queues.get(t)!.length);
        }
      }
      if (placements.length === 0) throw new Error('internal: nothing fits an empty sheet');
      sheets.push({ rows, placements });
      cost += (sheets.length > 1 ? bigM : 0) + rows;
      remaining = rest;
    }
    // tie-break (below one row): copies lower on average, so the search can cross the
    // plateaus where many sequences give the same length
    return { sheets, cost: cost + farSum / (Math.max(1, seq.length) * (cost + 1) * 2) };
  }
}
