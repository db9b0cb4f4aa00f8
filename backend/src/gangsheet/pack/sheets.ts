/**
 * Sheets from pieces, in integer units (pixels for gang sheets, file units in the CLI).
 *
 * Gap and margin are handled by the usual inflation trick: every piece grows by the gap on
 * its right and bottom side and the printable width grows by one gap, then the pieces are
 * packed with no gap at all. Two inflated pieces that touch are therefore exactly `gap`
 * apart, and the last column/row's extra gap falls into the space that was added.
 */
import { packAround } from './around';
import { compact } from './compact';
import { fillContainer } from './container';
import { heightLowerBound, packStrip, PackedLayout, SearchOptions } from './search';

export interface UnitSheetConfig {
  width: number;
  gap: number;
  margin: number;
  /** Maximum sheet length; Infinity for a single sheet of any length. */
  maxLength: number;
  rotate: boolean;
}

export interface UnitPlacement {
  /** Index of the piece in the input array. */
  index: number;
  x: number;
  y: number;
  /** As placed (swapped when rotated). */
  w: number;
  h: number;
  rotated: boolean;
  /** Given as a fixed copy: exactly where it was given. */
  fixed?: true;
}

/** A piece already placed: the others are packed around it. */
export interface FixedUnit {
  /** Index of the piece in the input array. */
  index: number;
  sheet: number;
  /** Top-left of the piece as placed, margins included (like `UnitPlacement`). */
  x: number;
  y: number;
  rotated: boolean;
}

/** A fixed piece outside the printable area, or two fixed pieces closer than the gap. */
export class UnitFixedError extends Error {
  constructor(
    readonly index: number,
    readonly sheet: number,
    readonly reason: 'outside' | 'overlap',
    /** The other piece of an overlap. */
    readonly other?: number,
  ) {
    super(reason === 'outside' ? `fixed piece ${index} lies outside the printable area of sheet ${sheet}` : `fixed pieces ${index} and ${other} overlap or are closer than the gap on sheet ${sheet}`);
    this.name = 'UnitFixedError';
  }
}

export interface UnitSheet {
  /** Used length including both margins (0 for an empty sheet). */
  length: number;
  placements: UnitPlacement[];
}

/** Thrown when a piece cannot fit a sheet in any allowed orientation. */
export class PieceTooLargeError extends Error {
  constructor(
    readonly index: number,
    readonly reason: 'width' | 'length',
    message: string,
  ) {
    super(message);
    this.name = 'PieceTooLargeError';
  }
}

export function packSheets(
  pieces: readonly { w: number; h: number }[],
  cfg: UnitSheetConfig,
  opts: SearchOptions,
  fixed: readonly FixedUnit[] = [],
): UnitSheet[] {
  for (const v of [cfg.width, cfg.gap, cfg.margin])
    if (!Number.isInteger(v) || v < 0) throw new Error('sheet width, gap and margin must be non-negative integers in packing units');
  const printableW = cfg.width - 2 * cfg.margin;
  const printableL = cfg.maxLength - 2 * cfg.margin;
  if (printableW <= 0) throw new Error('the margins leave no printable width');
  if (printableL <= 0) throw new Error('the margins leave no printable length');
  pieces.forEach((p, i) => {
    if (!Number.isInteger(p.w) || !Number.isInteger(p.h) || p.w <= 0 || p.h <= 0)
      throw new Error(`piece ${i}: size must be positive integers in packing units`);
    const up = p.w <= printableW && p.h <= printableL;
    const rot = cfg.rotate && p.h <= printableW && p.w <= printableL;
    if (!up && !rot) {
      const wide = p.w > printableW && (!cfg.rotate || p.h > printableW);
      throw new PieceTooLargeError(
        i,
        wide ? 'width' : 'length',
        wide
          ? `piece ${i} (${p.w} x ${p.h}) is wider than the printable width ${printableW}${cfg.rotate ? ' even when rotated' : ''}`
          : `piece ${i} (${p.w} x ${p.h}) does not fit the maximum printable length ${printableL}`,
      );
    }
  });
  const W = printableW + cfg.gap;
  const Hmax = Number.isFinite(printableL) ? printableL + cfg.gap : Infinity;
  const inflated = pieces.map((p) => ({ w: p.w + cfg.gap, h: p.h + cfg.gap }));
  const toSheet = (ids: number[], lay: PackedLayout): UnitSheet => {
    // Compacted as inflated pieces, so the gap between every pair survives.
    const boxes = ids.map((index, k) => {
      const rotated = lay.rotated[k] === 1;
      const p = inflated[index];
      return { x: lay.x[k], y: lay.y[k], w: rotated ? p.h : p.w, h: rotated ? p.w : p.h };
    });
    compact(boxes);
    const placements: UnitPlacement[] = ids.map((index, k) => {
      const p = pieces[index];
      const rotated = lay.rotated[k] === 1;
      return {
        index,
        x: boxes[k].x + cfg.margin,
        y: boxes[k].y + cfg.margin,
        w: rotated ? p.h : p.w,
        h: rotated ? p.w : p.h,
        rotated,
      };
    });
    const bottom = placements.reduce((m, p) => Math.max(m, p.y + p.h), 0);
    return { length: placements.length ? bottom + cfg.margin : 0, placements };
  };

  if (fixed.length) return packAround(pieces, cfg, opts, fixed);
  if (pieces.length === 0) return [];
  const start = performance.now();
  const left = () => Math.max(1, opts.timeLimitMs - (performance.now() - start));
  const sheets: UnitSheet[] = [];
  let remaining = [...pieces.keys()];
  const areaOf = (ids: number[]) => ids.reduce((a, i) => a + inflated[i].w * inflated[i].h, 0);
  while (remaining.length > 0) {
    const sub = remaining.map((i) => inflated[i]);
    const needed = Number.isFinite(Hmax) ? Math.ceil(areaOf(remaining) / (W * Hmax)) : 1;
    const fitsLength = (lay: PackedLayout) => lay.height <= Hmax;
    if (needed <= 1 && heightLowerBound(sub, W, cfg.rotate) <= Hmax) {
      // probably the last sheet: minimise its length
      const lay = packStrip(sub, W, cfg.rotate, { ...opts, timeLimitMs: Number.isFinite(Hmax) ? left() / 2 : left() });
      if (fitsLength(lay)) {
        sheets.push(toSheet(remaining, lay));
        break;
      }
    }
    // fill a whole sheet, leave the rest for the next ones
    const share = left() / Math.max(1, needed);
    const lay = fillContainer(sub, W, Hmax, cfg.rotate, { ...opts, timeLimitMs: share });
    const onSheet: number[] = [];
    const rest: number[] = [];
    const keep: number[] = [];
    remaining.forEach((id, k) => {
      if (lay.placed[k]) {
        onSheet.push(id);
        keep.push(k);
      } else rest.push(id);
    });
    const picked: PackedLayout = {
      ...lay,
      x: Int32Array.from(keep, (k) => lay.x[k]),
      y: Int32Array.from(keep, (k) => lay.y[k]),
      rotated: Uint8Array.from(keep, (k) => lay.rotated[k]),
    };
    if (onSheet.length === 0) throw new Error('internal: a sheet was filled with nothing');
    sheets.push(toSheet(onSheet, picked));
    remaining = rest;
  }
  return sheets;
}
