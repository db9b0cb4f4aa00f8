/**
 * Overlap-minimisation compaction (overlap.ts) of a nested sheet: the glue between the
 * bottom-left fill's sheets and `compactStrip`, and the exact check of its result.
 */
import { Rng } from '../pack/rng';
import { NestType, prepare, Prepared } from './grid';
import type { NestPlacement, NestSheet } from './nest';
import { CompactPiece, CompactShape, gapOverlap, rowSpans, shiftRows } from './cell-overlap';
import { compactStrip, CompactOptions, OverlapMeasure } from './overlap';
import { SharedStrip } from './race';
import { Poles, polesOf } from './poles';

/** Compaction shapes by preparation, made once per object (see `prepare`). */
const compactOf = new WeakMap<Prepared, CompactShape>();

/**
 * Overlap-minimisation compaction of one feasible sheet on its own (the types' masks may be
 * finer than those it was nested on: `nestEsicup` refines on a grid of half the cell).
 * Returns the shorter checked sheet, or null when none was found before `deadline`.
 * `cfg.race`: other threads compacting the same strip (race.ts); they get this sheet as their
 * start, and the shortest strip any of them found comes back (checked like this thread's).
 */
export function compactSheet(
  types: readonly NestType[],
  copies: readonly number[],
  sheet: NestSheet,
  cfg: { width: number; seed?: number; compactMoves?: number; firstStep?: number; overlap?: OverlapMeasure; race?: SharedStrip },
  deadline: number,
): NestSheet | null {
  const prepared = types.map((t) => t.orientations.map(prepare));
  return compactLast(prepared, copies, sheet, { width: cfg.width, maxRows: Infinity, compactMoves: cfg.compactMoves, overlap: cfg.overlap }, new Rng((cfg.seed ?? 1) + 11), deadline, cfg.firstStep, undefined, cfg.race);
}

export function toCompactShape(p: Prepared): CompactShape {
  let c = compactOf.get(p);
  if (!c) compactOf.set(p, (c = compactShapeOf(p)));
  return c;
}

function compactShapeOf(p: Prepared): CompactShape {
  const o = p.src;
  const d = o.dil === o.mask || o.pad === 0 ? null : shiftRows(o.dil.bits, o.dil.words, o.dil.h);
  const spans = rowSpans(o.mask.bits, o.mask.words, o.mask.h);
  const dspans = d ? rowSpans(o.dil.bits, o.dil.words, o.dil.h) : spans;
  let poles: Poles | undefined;
  return {
    w: p.w,
    h: p.h,
    sw: p.sw,
    shifted: p.shifted,
    lo: p.lo,
    hi: p.hi,
    pad: o.pad,
    dw: d ? o.dil.w : p.w,
    dh: d ? o.dil.h : p.h,
    dsw: d ? d.sw : p.sw,
    dshifted: d ? d.shifted : p.shifted,
    dlo: d ? d.lo : p.lo,
    dhi: d ? d.hi : p.hi,
    x0: spans.x0,
    x1: spans.x1,
    dx0: dspans.x0,
    dx1: dspans.x1,
    poles: () => (poles ??= polesOf(o.mask, o.aspect ?? 1)),
    ux: o.aspect ?? 1,
    gap: Math.max(0, o.pad - 1),
  };
}

/**
 * Overlap-minimisation compaction of one sheet (overlap.ts). The result is checked again on
 * a fresh grid with the bottom-left fill's own fit test; null when nothing shorter was found.
 * `patience`: stop once converged (`CompactOptions.converge`). Placements of copies from
 * `fixedFrom` on are fixed: they never move. `reseat`: a layout of the same copies that need
 * not be feasible, separated first (`CompactOptions.reseat`).
 */
export function compactLast(
  prepared: readonly (readonly Prepared[])[],
  copies: readonly number[],
  sheet: NestSheet,
  cfg: { width: number; maxRows: number; compactMoves?: number; overlap?: OverlapMeasure },
  rng: Rng,
  deadline: number,
  firstStep?: number,
  cutTail?: number,
  race?: SharedStrip,
  patience?: CompactOptions['converge'],
  fixedFrom = Infinity,
  reseat?: { placements: readonly NestPlacement[]; rows: number; until: number },
): NestSheet | null {
  if (sheet.placements.length < 2) return null;
  const used = [...new Set(sheet.placements.map((p) => copies[p.copy]))];
  const shapes: CompactShape[][] = [];
  for (const t of used) shapes[t] = prepared[t].map(toCompactShape);
  // racing threads share layouts piece by piece, so the pieces go in the order of the copies
  const order = race ? [...sheet.placements].sort((a, b) => a.copy - b.copy) : sheet.placements;
  const start = order.map((p) => ({ type: copies[p.copy], orientation: p.orientation, x: p.x, y: p.y }));
  race?.publish(start, sheet.rows);
  const fixed = order.some((p) => p.copy >= fixedFrom) ? order.map((p) => p.copy >= fixedFrom) : undefined;
  let over: { pieces: CompactPiece[]; rows: number; until: number } | undefined;
  if (reseat) {
    const at = new Map(reseat.placements.map((p) => [p.copy, p]));
    const pieces = order.flatMap((p) => {
      const q = at.get(p.copy);
      return q ? [{ type: copies[p.copy], orientation: q.orientation, x: q.x, y: q.y }] : [];
    });
    if (pieces.length === order.length) over = { pieces, rows: reseat.rows, until: reseat.until };
  }
  let res = compactStrip(shapes, start, { width: cfg.width, deadline, maxMoves: cfg.compactMoves, rng, firstStep, cutTail, race, converge: patience, fixed, overlap: cfg.overlap, reseat: over });
  if (race) {
    // a helper may have found a shorter strip after this thread's last look
    race.stop();
    const theirs = race.best();
    if (theirs && theirs.rows < res.rows && theirs.pieces.length === start.length && theirs.pieces.every((p, i) => p.type === start[i].type))
      res = { ...res, pieces: theirs.pieces, rows: theirs.rows };
  }
  if (res.rows >= sheet.rows) return null;
  const placements = order.map((p, i) => ({ copy: p.copy, orientation: res.pieces[i].orientation, x: res.pieces[i].x, y: res.pieces[i].y }));
  return checkedSheet(prepared, copies, placements, cfg) ? { rows: res.rows, placements } : null;
}

/**
 * Whether every placement lies within the sheet and every two keep the gap: one copy's ink
 * cells miss the other's grown cells, in either direction (`gapOverlap`).
 */
function checkedSheet(prepared: readonly (readonly Prepared[])[], copies: readonly number[], placements: readonly NestPlacement[], cfg: { width: number; maxRows: number }): boolean {
  const shapes = placements.map((p) => toCompactShape(prepared[copies[p.copy]][p.orientation]));
  for (const [i, p] of placements.entries()) {
    const s = shapes[i];
    if (p.x < 0 || p.y < 0 || p.x + s.w > cfg.width || p.y + s.h > cfg.maxRows) return false;
    for (let j = 0; j < i; j++) if (gapOverlap(s, p.x, p.y, shapes[j], placements[j].x, placements[j].y)) return false;
  }
  return true;
}
