/**
 * Settling: the copies of a feasible strip slide towards its start while they keep the gap
 * (docs/gangsheet.md, Algorithm step 8, "Settling"). The overlap compaction (overlap.ts)
 * settles the layout it starts from and every layout it separates.
 */
import { CompactPiece, CompactShape, gapOverlap } from './cell-overlap';

/**
 * Lets every copy of a feasible layout slide towards the start of the strip (straight, or one
 * cell across with each row) while it keeps the gap to all others, nearest copies first, until
 * none moves. Takes slack a finer grid or a separation left behind; keeps the layout feasible.
 */
export function settle(shapes: readonly CompactShape[][], pieces: CompactPiece[], W: number, fixed?: readonly boolean[]): void {
  const n = pieces.length;
  const fits = (i: number, x: number, y: number): boolean => {
    const p = pieces[i];
    const a = shapes[p.type][p.orientation];
    if (x < 0 || y < 0 || x + a.w > W) return false;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const q = pieces[j];
      if (gapOverlap(a, x, y, shapes[q.type][q.orientation], q.x, q.y, 1)) return false;
    }
    return true;
  };
  const order = Array.from({ length: n }, (_, i) => i);
  for (let pass = 0; pass < 8; pass++) {
    order.sort((a, b) => pieces[a].y - pieces[b].y);
    let moved = false;
    for (const i of order) {
      if (fixed?.[i]) continue;
      const p = pieces[i];
      for (;;) {
        if (fits(i, p.x, p.y - 1)) p.y--;
        else if (fits(i, p.x - 1, p.y - 1)) {
          p.x--;
          p.y--;
        } else if (fits(i, p.x + 1, p.y - 1)) {
          p.x++;
          p.y--;
        } else break;
        moved = true;
      }
    }
    if (!moved) break;
  }
}
