/**
 * Independent check of a layout: every piece placed once, inside the container, no two
 * pieces overlapping. Used by the property tests and the benchmarks, so a packer bug
 * cannot hide behind a good-looking number.
 */
export interface PlacedRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Returns a list of problems (empty when the layout is valid). O(n log n + overlaps). */
export function findLayoutProblems(rects: readonly PlacedRect[], width: number, height = Infinity): string[] {
  const problems: string[] = [];
  rects.forEach((r, i) => {
    if (r.x < 0 || r.y < 0 || r.x + r.w > width || r.y + r.h > height) problems.push(`piece ${i} leaves the container`);
  });
  const order = [...rects.keys()].sort((a, b) => rects[a].x - rects[b].x);
  // sweep over x: only pieces whose x-range is still open can overlap the next one
  const open: number[] = [];
  for (const i of order) {
    const a = rects[i];
    for (let k = open.length - 1; k >= 0; k--) {
      const b = rects[open[k]];
      if (b.x + b.w <= a.x) {
        open.splice(k, 1);
        continue;
      }
      if (a.y < b.y + b.h && b.y < a.y + a.h) problems.push(`pieces ${open[k]} and ${i} overlap`);
    }
    open.push(i);
    if (problems.length > 20) break;
  }
  return problems;
}
