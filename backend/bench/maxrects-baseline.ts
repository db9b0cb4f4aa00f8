/**
 * Baseline: maxrects-packer (a devDependency, never used by the engine). Strip packing is
 * emulated with one bin of the strip width and a practically unlimited height; the used
 * height is the lowest bottom edge. We take the best of its sizing/sorting options so
 * the baseline is not handicapped by a poor default.
 */
import type { MaxRectsPacker as MaxRectsPackerType } from 'maxrects-packer';

// PACKING_LOGIC is a const enum in the typings (erased under transpile-only): 0 = MAX_AREA, 1 = MAX_EDGE
const LOGICS = [0, 1];
import { findLayoutProblems } from '../src/gangsheet/pack/validate';

// The package is "type": "module" with a UMD main, so require() yields an empty module;
// load its ES build with a real dynamic import (kept out of TypeScript's CommonJS rewrite).
let MaxRectsPacker: typeof MaxRectsPackerType;
export async function loadMaxrects(): Promise<void> {
  const mod = await (new Function('s', 'return import(s)') as (s: string) => Promise<any>)('maxrects-packer/dist/maxrects-packer.mjs');
  MaxRectsPacker = mod.MaxRectsPacker;
}

export function maxrectsHeight(pieces: readonly { w: number; h: number }[], width: number, rotate: boolean, padding = 0): number {
  const total = pieces.reduce((a, p) => a + Math.max(p.w, p.h) + padding, 0);
  let best = Infinity;
  for (const smart of [true, false])
    for (const logic of LOGICS) {
      // the gap is given to the packer as inflated pieces (the same trick our engine uses):
      // its own padding option does not keep a consistent gap at the bin edges
      const packer = new MaxRectsPacker(width + padding, total + padding, 0, { smart, pot: false, square: false, allowRotation: rotate, logic: logic as any });
      packer.addArray(pieces.map((p, i) => ({ width: p.w + padding, height: p.h + padding, data: i }) as any));
      if (packer.bins.length !== 1) continue;
      const rects = packer.bins[0].rects;
      if (rects.length !== pieces.length) continue;
      // plain input objects keep their original width/height; `rot` means "turned 90°"
      const placed = rects.map((r) => {
        const [w, h] = r.rot ? [r.height, r.width] : [r.width, r.height];
        return { x: r.x, y: r.y, w, h };
      });
      if (findLayoutProblems(placed, width + padding).length) throw new Error('maxrects-packer produced an invalid layout');
      const h = placed.reduce((m, r) => Math.max(m, r.y + r.h - padding), 0);
      best = Math.min(best, h);
    }
  return best;
}

/**
 * A stronger baseline: maxrects-packer in a bin of the strip width and height H, with H
 * bisected (integers) to the smallest height at which some option set fits every piece in
 * one bin. Returns the used height of that packing (the lowest bottom edge).
 */
export function maxrectsBisected(pieces: readonly { w: number; h: number }[], width: number, rotate: boolean, padding = 0): number {
  const tryHeight = (H: number): number => {
    let best = Infinity;
    for (const smart of [true, false])
      for (const logic of LOGICS) {
        const packer = new MaxRectsPacker(width + padding, H + padding, 0, { smart, pot: false, square: false, allowRotation: rotate, logic: logic as any });
        packer.addArray(pieces.map((p, i) => ({ width: p.w + padding, height: p.h + padding, data: i }) as any));
        if (packer.bins.length !== 1 || packer.bins[0].rects.length !== pieces.length) continue;
        const placed = packer.bins[0].rects.map((r) => {
          const [w, h] = r.rot ? [r.height, r.width] : [r.width, r.height];
          return { x: r.x, y: r.y, w, h };
        });
        if (findLayoutProblems(placed, width + padding).length) throw new Error('maxrects-packer produced an invalid layout');
        best = Math.min(best, placed.reduce((m, r) => Math.max(m, r.y + r.h - padding), 0));
      }
    return best;
  };
  let hi = maxrectsHeight(pieces, width, rotate, padding);
  const area = pieces.reduce((a, p) => a + (p.w + padding) * (p.h + padding), 0);
  let lo = Math.max(1, Math.floor(area / (width + padding)) - padding - 1);
  let best = hi;
  // invariant: nothing fitted at lo (or lo is the area bound), something fits at hi
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const h = tryHeight(mid);
    if (Number.isFinite(h)) {
      hi = mid;
      best = Math.min(best, h);
    } else lo = mid;
  }
  return best;
}
