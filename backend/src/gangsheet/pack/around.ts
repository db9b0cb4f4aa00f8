/**
 * Packing around fixed pieces (copies the seller pinned): the other pieces are laid out in
 * the free space the fixed ones leave, in the same search, never stacked below them.
 *
 * Maximal rectangles (maxrects.ts) model that free space exactly: the fixed pieces' boxes,
 * grown by the gap like every piece (sheets.ts), are taken from the container before any
 * piece is placed. The same sequence search as the strip (search.ts) drives it: on the last
 * sheet the iterative-doubling search on the height looks for shorter containers that still
 * hold every piece; on a sheet that cannot hold them all, swaps look for the sequence that
 * packs the most area. Gravity compaction (compact.ts) then tidies the sheet without moving
 * a fixed piece.
 */
import { compact } from './compact';
import { MaxRectsEvaluator, MaxRectsRule } from './maxrects';
import { Rng } from './rng';
import { Budget, heightLowerBound, improveAtHeight, initialOrders, PackedLayout, SearchOptions, searchBelow, Stage } from './search';
import type { FixedUnit, UnitPlacement, UnitSheet, UnitSheetConfig } from './sheets';
import { UnitFixedError } from './sheets';
import { PieceSize, SkylineEvaluator } from './skyline';

type Rect = { x: number; y: number; w: number; h: number };

/** Bottom-left first (the strip's natural rule), then best area and best short side. */
const RULES: readonly MaxRectsRule[] = [1, 2, 0];

/** The maximal-rectangles rule of `rule` as a stage of the sequence search, around `obstacles`. */
function stageOf(mr: MaxRectsEvaluator, rule: MaxRectsRule): Stage {
  return {
    packedArea: (seq, H) => mr.evaluate(seq, H, rule, false).packedArea,
    layout: (seq, H) => {
      const r = mr.evaluate(seq, H, rule, true);
      return { height: r.height, x: mr.px.slice(), y: mr.py.slice(), rotated: mr.prot.slice(), placed: mr.placed.slice(), evaluations: 0 };
    },
    insertShare: 0,
  };
}

/** The starting order and rule that pack the most area into width × H (ties: the lower layout). */
function bestStart(mr: MaxRectsEvaluator, pieces: readonly PieceSize[], H: number, budget: Budget): { rule: MaxRectsRule; seq: Int32Array; area: number; height: number } {
  let best = { rule: RULES[0], seq: initialOrders(pieces)[0], area: -1, height: Infinity };
  for (const rule of RULES)
    for (const seq of initialOrders(pieces)) {
      const r = mr.evaluate(seq, H, rule, false);
      budget.evaluations++;
      if (r.packedArea > best.area || (r.packedArea === best.area && r.height < best.height)) best = { rule, seq, area: r.packedArea, height: r.height };
    }
  return best;
}

/**
 * The shortest layout of all `pieces` around `obstacles` in a strip of `width` at most
 * `maxHeight` long; null when they do not all fit.
 */
function stripAround(pieces: readonly PieceSize[], width: number, rotate: boolean, obstacles: readonly Rect[], maxHeight: number, opts: SearchOptions): PackedLayout | null {
  const mr = new MaxRectsEvaluator(pieces, width, rotate);
  mr.setObstacles(obstacles);
  const ev = new SkylineEvaluator(pieces, width, rotate);
  const budget = new Budget(opts);
  const below = obstacles.reduce((m, o) => Math.max(m, o.y + o.h), 0);
  // tall enough for every piece stacked below the fixed ones
  const H = Number.isFinite(maxHeight) ? maxHeight : below + pieces.reduce((a, p) => a + Math.max(p.w, p.h), 0);
  const start = bestStart(mr, pieces, H, budget);
  if (start.area < ev.totalArea) return null;
  const stage = stageOf(mr, start.rule);
  const first = stage.layout(start.seq, H);
  // a strip shorter than the fixed pieces' far edge saves no film
  const lb = Math.max(heightLowerBound(pieces, width, rotate), below);
  const lay = searchBelow(stage, start.seq, first, lb, ev, new Rng(opts.seed ?? 1), budget).layout;
  lay.evaluations = budget.evaluations;
  return lay;
}

/** As much area of `pieces` as fits width × height around `obstacles`; pieces left out have placed[i] = 0. */
function fillAround(pieces: readonly PieceSize[], width: number, height: number, rotate: boolean, obstacles: readonly Rect[], opts: SearchOptions): PackedLayout {
  const mr = new MaxRectsEvaluator(pieces, width, rotate);
  mr.setObstacles(obstacles);
  const ev = new SkylineEvaluator(pieces, width, rotate);
  const budget = new Budget(opts);
  const start = bestStart(mr, pieces, height, budget);
  const stage = stageOf(mr, start.rule);
  const seq = start.seq.slice();
  if (start.area < ev.totalArea) improveAtHeight(stage, ev.typeOf, seq, height, Infinity, new Rng(opts.seed ?? 1), budget, ev.totalArea);
  return { ...stage.layout(seq, height), evaluations: budget.evaluations };
}

/**
 * `packSheets` with fixed pieces: each sheet holds its fixed pieces where they were given
 * and as many of the others as fit around them; sheets up to the last one with a fixed
 * piece always exist, and the last sheet is as short as the search finds.
 */
export function packAround(pieces: readonly { w: number; h: number }[], cfg: UnitSheetConfig, opts: SearchOptions, fixed: readonly FixedUnit[]): UnitSheet[] {
  const W = cfg.width - 2 * cfg.margin + cfg.gap;
  const printableL = cfg.maxLength - 2 * cfg.margin;
  const Hmax = Number.isFinite(printableL) ? printableL + cfg.gap : Infinity;
  const inflated = pieces.map((p) => ({ w: p.w + cfg.gap, h: p.h + cfg.gap }));
  // the fixed pieces as obstacles: grown by the gap, in the printable area's frame
  const boxes = fixed.map((f): Rect => {
    const p = inflated[f.index];
    return { x: f.x - cfg.margin, y: f.y - cfg.margin, w: f.rotated ? p.h : p.w, h: f.rotated ? p.w : p.h };
  });
  fixed.forEach((f, i) => {
    const b = boxes[i];
    if (b.x < 0 || b.y < 0 || b.x + b.w > W || b.y + b.h > Hmax) throw new UnitFixedError(f.index, f.sheet, 'outside');
    for (let j = 0; j < i; j++) {
      const o = boxes[j];
      if (fixed[j].sheet === f.sheet && b.x < o.x + o.w && o.x < b.x + b.w && b.y < o.y + o.h && o.y < b.y + b.h)
        throw new UnitFixedError(f.index, f.sheet, 'overlap', fixed[j].index);
    }
  });
  const isFixed = new Set(fixed.map((f) => f.index));
  const lastFixedSheet = Math.max(...fixed.map((f) => f.sheet));
  let remaining = [...pieces.keys()].filter((i) => !isFixed.has(i));
  const start = performance.now();
  const left = () => Math.max(1, opts.timeLimitMs - (performance.now() - start));
  const sheets: UnitSheet[] = [];
  for (let s = 0; remaining.length || s <= lastFixedSheet; s++) {
    const here = fixed.flatMap((f, k) => (f.sheet === s ? [k] : []));
    const obstacles = here.map((k) => boxes[k]);
    const sub = remaining.map((i) => inflated[i]);
    let lay: PackedLayout | null = null;
    if (sub.length && s >= lastFixedSheet) lay = stripAround(sub, W, cfg.rotate, obstacles, Hmax, { ...opts, timeLimitMs: Number.isFinite(Hmax) ? left() / 2 : left() });
    if (sub.length && !lay) {
      const area = sub.reduce((a, p) => a + p.w * p.h, 0);
      const sheetsLeft = Math.max(lastFixedSheet - s + 1, Number.isFinite(Hmax) ? Math.ceil(area / (W * Hmax)) : 1);
      lay = fillAround(sub, W, Hmax, cfg.rotate, obstacles, { ...opts, timeLimitMs: left() / sheetsLeft });
    }
    const onSheet = lay ? remaining.flatMap((id, k) => (lay.placed[k] ? [{ id, k }] : [])) : [];
    if (onSheet.length === 0 && here.length === 0) throw new Error('internal: a sheet was filled with nothing');
    // compacted as inflated pieces, so the gap between every pair survives; fixed ones stay
    const rects = [
      ...onSheet.map(({ id, k }) => {
        const p = inflated[id];
        const r = lay!.rotated[k] === 1;
        return { x: lay!.x[k], y: lay!.y[k], w: r ? p.h : p.w, h: r ? p.w : p.h };
      }),
      ...obstacles.map((b) => ({ ...b, fixed: true })),
    ];
    compact(rects);
    const placements: UnitPlacement[] = [
      ...onSheet.map(({ id, k }, n): UnitPlacement => {
        const p = pieces[id];
        const rotated = lay!.rotated[k] === 1;
        return { index: id, x: rects[n].x + cfg.margin, y: rects[n].y + cfg.margin, w: rotated ? p.h : p.w, h: rotated ? p.w : p.h, rotated };
      }),
      ...here.map((k): UnitPlacement => {
        const f = fixed[k];
        const p = pieces[f.index];
        return { index: f.index, x: f.x, y: f.y, w: f.rotated ? p.h : p.w, h: f.rotated ? p.w : p.h, rotated: f.rotated, fixed: true };
      }),
    ];
    const bottom = placements.reduce((m, p) => Math.max(m, p.y + p.h), 0);
    sheets.push({ length: placements.length ? bottom + cfg.margin : 0, placements });
    const placedNow = new Set(onSheet.map((o) => o.id));
    remaining = remaining.filter((i) => !placedNow.has(i));
  }
  return sheets;
}
