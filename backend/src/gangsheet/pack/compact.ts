/**
 * Gravity compaction of a finished layout: every piece slides up as far as it can, then
 * left, repeated until nothing moves. Pieces only ever move up or left into free space, so
 * the layout stays valid and its height can only shrink; what it buys is a tidy sheet
 * (even gaps, rows flush to the left edge) that is easier to cut, instead of the odd piece
 * the skyline left standing against the right edge.
 *
 * Sliding pieces in order of their top (or left) edge is safe: a piece moves only past
 * pieces already handled, and one not handled yet lies wholly below (or right of) it on
 * every column (row) they share.
 */
export interface CompactRect {
  x: number;
  y: number;
  readonly w: number;
  readonly h: number;
  /** Never moves (a fixed copy): the others slide up to it like to any piece. */
  readonly fixed?: boolean;
}

const MAX_ROUNDS = 8;

export function compact(rects: CompactRect[]): void {
  const n = rects.length;
  if (n < 2) return;
  // Typed arrays and one loop per axis: keyed property access is many times slower here.
  const x = Float64Array.from(rects, (r) => r.x);
  const y = Float64Array.from(rects, (r) => r.y);
  const w = Float64Array.from(rects, (r) => r.w);
  const h = Float64Array.from(rects, (r) => r.h);
  const fixed = rects.some((r) => r.fixed) ? Uint8Array.from(rects, (r) => (r.fixed ? 1 : 0)) : undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const movedUp = slide(y, h, x, w, fixed);
    const movedLeft = slide(x, w, y, h, fixed);
    if (!movedUp && !movedLeft) break;
  }
  rects.forEach((r, i) => {
    r.x = x[i];
    r.y = y[i];
  });
}

/**
 * Slides every rectangle towards 0 along one axis (`pos`/`len`); `cross`/`span` are the
 * other axis. True when any of them moved. Rectangles already handled are kept in buckets
 * along the cross axis, so each one is checked only against its neighbours there.
 */
function slide(pos: Float64Array, len: Float64Array, cross: Float64Array, span: Float64Array, fixed?: Uint8Array): boolean {
  const n = pos.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => pos[a] - pos[b] || cross[a] - cross[b]);
  let extent = 0;
  for (let i = 0; i < n; i++) extent = Math.max(extent, cross[i] + span[i]);
  const count = Math.max(1, Math.ceil(Math.sqrt(n)));
  const size = extent / count || 1;
  const buckets: number[][] = Array.from({ length: count }, () => []);
  const first = (i: number) => Math.min(count - 1, Math.floor(cross[i] / size));
  // Inclusive of the bucket the far edge falls in: one bucket too many costs nothing, one
  // too few (a rounding at a boundary) would miss a neighbour.
  const last = (i: number) => Math.min(count - 1, Math.floor((cross[i] + span[i]) / size));
  let moved = false;
  for (const r of order) {
    const lo = cross[r];
    const hi = lo + span[r];
    const b0 = first(r);
    const b1 = last(r);
    let to = 0;
    for (let b = b0; b <= b1; b++) {
      for (const o of buckets[b]) {
        // o blocks r when their extents across the sliding direction overlap
        if (cross[o] < hi && lo < cross[o] + span[o]) {
          const end = pos[o] + len[o];
          if (end > to) to = end;
        }
      }
    }
    if (to < pos[r] && !fixed?.[r]) {
      pos[r] = to;
      moved = true;
    }
    for (let b = b0; b <= b1; b++) buckets[b].push(r);
  }
  return moved;
}
