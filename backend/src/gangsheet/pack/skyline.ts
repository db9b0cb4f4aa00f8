/**
 * Fixed-height skyline heuristic on integer units.
 *
 * Given a sequence of pieces and a container W x H, `evaluate` fills the container the way
 * the skyline heuristics of Wei et al. (2011, 2017) do: always work on the lowest skyline
 * segment, pick the piece (and orientation) that fits that segment best, ties broken by the
 * piece's position in the sequence. The sequence is what the search in `search.ts` changes.
 *
 * All coordinates are integers (pixels for gang sheets, file units for benchmarks), which
 * keeps "exact fit" tests meaningful and placements free of rounding drift.
 */

export interface PieceSize {
  w: number;
  h: number;
}

/** Result of one evaluation: how much area got in, and where (when recorded). */
export interface EvalResult {
  packedArea: number;
  packedCount: number;
  /** Highest top edge of any placed piece. */
  height: number;
}

const INF = 0x3fffffff;

/**
 * Distinct piece sizes in order of first appearance: with rotation allowed, (w, h) and
 * (h, w) are the same piece. `first[t]` is the first piece of type t.
 */
export function pieceTypes(pieces: readonly PieceSize[], rotate: boolean): { typeOf: Int32Array; first: number[] } {
  const key = new Map<string, number>();
  const first: number[] = [];
  const typeOf = new Int32Array(pieces.length);
  pieces.forEach((p, i) => {
    const k = rotate ? `${Math.max(p.w, p.h)}x${Math.min(p.w, p.h)}` : `${p.w}x${p.h}`;
    let t = key.get(k);
    if (t === undefined) {
      t = first.length;
      key.set(k, t);
      first.push(i);
    }
    typeOf[i] = t;
  });
  return { typeOf, first };
}

export class SkylineEvaluator {
  readonly n: number;
  readonly width: number;
  readonly rotate: boolean;
  /** Distinct piece sizes: identical pieces are interchangeable, so scanning types is enough. */
  readonly typeW: Int32Array;
  readonly typeH: Int32Array;
  readonly typeOf: Int32Array;
  readonly typeCount: Int32Array;
  private readonly typeStart: Int32Array;
  readonly totalArea: number;
  readonly pieces: readonly PieceSize[];

  // scratch state, reused between evaluations to keep the hot loop allocation-free
  private segX: Int32Array;
  private segY: Int32Array;
  private segW: Int32Array;
  private m = 0;
  private queue: Int32Array; // per type, sequence positions of its pieces in order
  private head: Int32Array; // per type, index of next unpacked entry in queue
  private active: Int32Array; // types with pieces left
  private activeCount = 0;
  /** Types sorted by their smallest usable dimension, for the "unusable gap" test. */
  private byMinDim: Int32Array;
  private minDimOf: Int32Array;
  private fill: Int32Array;

  // recorded placements (by piece index) of the last evaluation with record=true
  readonly px: Int32Array;
  readonly py: Int32Array;
  readonly prot: Uint8Array;
  readonly placed: Uint8Array;

  constructor(pieces: readonly PieceSize[], width: number, rotate: boolean) {
    this.pieces = pieces;
    this.n = pieces.length;
    this.width = width;
    this.rotate = rotate;
    const types = pieceTypes(pieces, rotate);
    this.typeOf = types.typeOf;
    const tw = types.first.map((i) => pieces[i].w);
    const th = types.first.map((i) => pieces[i].h);
    this.totalArea = pieces.reduce((a, p) => a + p.w * p.h, 0);
    const T = tw.length;
    this.typeW = Int32Array.from(tw);
    this.typeH = Int32Array.from(th);
    this.typeCount = new Int32Array(T);
    for (let i = 0; i < this.n; i++) this.typeCount[this.typeOf[i]]++;
    this.typeStart = new Int32Array(T + 1);
    for (let t = 0; t < T; t++) this.typeStart[t + 1] = this.typeStart[t] + this.typeCount[t];
    this.segX = new Int32Array(this.n + 2);
    this.segY = new Int32Array(this.n + 2);
    this.segW = new Int32Array(this.n + 2);
    this.queue = new Int32Array(this.n);
    this.head = new Int32Array(T);
    this.active = new Int32Array(T);
    this.minDimOf = new Int32Array(T);
    this.fill = new Int32Array(T);
    for (let t = 0; t < T; t++) {
      const fitsUp = this.typeW[t] <= width;
      const fitsRot = rotate && this.typeH[t] <= width;
      this.minDimOf[t] = fitsUp && fitsRot ? Math.min(this.typeW[t], this.typeH[t]) : fitsUp ? this.typeW[t] : this.typeH[t];
    }
    this.byMinDim = Int32Array.from([...Array(T).keys()].sort((a, b) => this.minDimOf[a] - this.minDimOf[b]));
    this.px = new Int32Array(this.n);
    this.py = new Int32Array(this.n);
    this.prot = new Uint8Array(this.n);
    this.placed = new Uint8Array(this.n);
  }

  /**
   * Packs pieces in `seq` order into width x `H`. With `abortOnWaste`, stops as soon as the
   * wasted area proves that not everything can fit (much faster on tight targets; the packed
   * area at that point is still a deterministic function of the sequence, which is all the
   * local search needs).
   */
  /**
   * Tie-break among equally good fits: 0 = sequence order only (what the sequence search
   * steers), 1 = widest piece first, then sequence (best-fit; better when an order has only
   * a few distinct sizes and the sequence gives the search little to work with).
   */
  tieBreak: 0 | 1 = 0;

  // starting skyline (segments left to right); empty = the flat floor y = 0
  private floorX = new Int32Array(0);
  private floorY = new Int32Array(0);
  private floorW = new Int32Array(0);
  /** Area under the starting skyline: not available to the pieces. */
  floorArea = 0;
  /** Highest point of the starting skyline. */
  floorTop = 0;

  /**
   * Packs on top of an existing profile (height per x, length `width`) instead of the flat
   * floor: the column stage of `columns.ts` leaves one, and the copies it did not place
   * are packed onto it.
   */
  setFloor(profile: Int32Array): void {
    const xs: number[] = [];
    const ys: number[] = [];
    const ws: number[] = [];
    let area = 0;
    let top = 0;
    for (let x = 0; x < this.width; x++) {
      const h = profile[x];
      area += h;
      if (h > top) top = h;
      if (ys.length && ys[ys.length - 1] === h) ws[ws.length - 1]++;
      else {
        xs.push(x);
        ys.push(h);
        ws.push(1);
      }
    }
    this.floorX = Int32Array.from(xs);
    this.floorY = Int32Array.from(ys);
    this.floorW = Int32Array.from(ws);
    this.floorArea = area;
    this.floorTop = top;
    if (this.segX.length < this.n + 2 + xs.length) {
      this.segX = new Int32Array(this.n + 2 + xs.length);
      this.segY = new Int32Array(this.n + 2 + xs.length);
      this.segW = new Int32Array(this.n + 2 + xs.length);
    }
  }

  evaluate(seq: Int32Array, H: number, record: boolean, abortOnWaste = false): EvalResult {
    const { typeOf, typeW, typeH, queue, head, active, width, rotate } = this;
    const T = typeW.length;
    // fill per-type queues in sequence order
    const fill = this.fill;
    fill.fill(0);
    for (let p = 0; p < seq.length; p++) {
      const t = typeOf[seq[p]];
      queue[this.typeStart[t] + fill[t]++] = p;
    }
    let ac = 0;
    for (let t = 0; t < T; t++) {
      head[t] = 0;
      if (this.typeCount[t] > 0) active[ac++] = t;
    }
    this.activeCount = ac;
    if (record) this.placed.fill(0);
    const segX = this.segX;
    const segY = this.segY;
    const segW = this.segW;
    let m = 1;
    segX[0] = 0;
    segY[0] = 0;
    segW[0] = width;
    if (this.floorX.length > 0) {
      m = this.floorX.length;
      segX.set(this.floorX);
      segY.set(this.floorY);
      segW.set(this.floorW);
    }
    let packedArea = 0;
    let packedCount = 0;
    let height = this.floorTop;
    let waste = 0;
    const slack = width * H - this.totalArea - this.floorArea;
    let minPtr = 0; // into byMinDim
    const byMinDim = this.byMinDim;

    while (ac > 0) {
      // lowest segment, leftmost on ties
      let s = 0;
      for (let i = 1; i < m; i++) if (segY[i] < segY[s]) s = i;
      const y = segY[s];
      const ws = segW[s];
      const room = H - y;
      if (room <= 0) break;
      let hl = s > 0 ? segY[s - 1] - y : INF;
      let hr = s < m - 1 ? segY[s + 1] - y : INF;
      if (hl > room) hl = room;
      if (hr > room) hr = room;
      const hHi = hl >= hr ? hl : hr;
      const hLo = hl >= hr ? hr : hl;
      while (minPtr < byMinDim.length && head[byMinDim[minPtr]] >= this.typeCount[byMinDim[minPtr]]) minPtr++;
      const minDim = minPtr < byMinDim.length ? this.minDimOf[byMinDim[minPtr]] : 0;

      let bestT = -1;
      let bestRot = 0;
      let bestScore = -100;
      let bestPos = INF;
      let bestW = 0;
      const widest = this.tieBreak === 1;
      for (let k = 0; k < ac; k++) {
        const t = active[k];
        const pos = queue[this.typeStart[t] + head[t]];
        for (let r = 0; r < 2; r++) {
          let w: number;
          let h: number;
          if (r === 0) {
            w = typeW[t];
            h = typeH[t];
          } else {
            if (!rotate || typeW[t] === typeH[t]) break;
            w = typeH[t];
            h = typeW[t];
          }
          if (w > ws || h > room) continue;
          let score: number;
          if (w === ws) {
            score = h === hHi ? 6 : h === hLo ? 5 : 4;
          } else {
            score = h === hHi ? 3 : 2;
            // a leftover strip narrower than any remaining piece is waste for sure
            if (ws - w < minDim) score -= 2;
          }
          if (
            score > bestScore ||
            (score === bestScore && (widest ? w > bestW || (w === bestW && pos < bestPos) : pos < bestPos))
          ) {
            bestScore = score;
            bestPos = pos;
            bestW = w;
            bestT = t;
            bestRot = r;
          }
        }
      }

      if (bestT < 0) {
        // nothing fits: raise the segment to its lower neighbour (the area below is waste)
        const left = s > 0 ? segY[s - 1] : INF;
        const right = s < m - 1 ? segY[s + 1] : INF;
        let ny = left < right ? left : right;
        if (ny >= INF || ny > H) ny = H;
        waste += (ny - y) * ws;
        segY[s] = ny;
        m = this.mergeAround(s, m);
        if (abortOnWaste && waste > slack) break;
        if (ny >= H && m === 1) break;
        continue;
      }

      const w = bestRot ? typeH[bestT] : typeW[bestT];
      const h = bestRot ? typeW[bestT] : typeH[bestT];
      const leftSide = hl >= hr;
      const x = leftSide ? segX[s] : segX[s] + ws - w;
      const piece = seq[queue[this.typeStart[bestT] + head[bestT]]];
      head[bestT]++;
      if (head[bestT] >= this.typeCount[bestT]) {
        // drop exhausted type from the active list
        for (let k = 0; k < ac; k++)
          if (active[k] === bestT) {
            active[k] = active[--ac];
            break;
          }
      }
      if (record) {
        this.px[piece] = x;
        this.py[piece] = y;
        // the type's reference orientation may be the piece's rotated one
        this.prot[piece] = w === this.pieces[piece].w && h === this.pieces[piece].h ? 0 : 1;
        this.placed[piece] = 1;
      }
      packedArea += w * h;
      packedCount++;
      if (y + h > height) height = y + h;

      if (w === ws) {
        segY[s] = y + h;
        m = this.mergeAround(s, m);
      } else {
        // split: new segment for the piece, the rest stays at y
        for (let i = m; i > s; i--) {
          segX[i] = segX[i - 1];
          segY[i] = segY[i - 1];
          segW[i] = segW[i - 1];
        }
        m++;
        if (leftSide) {
          segX[s] = x;
          segY[s] = y + h;
          segW[s] = w;
          segX[s + 1] = x + w;
          segW[s + 1] = ws - w;
          segY[s + 1] = y;
          m = this.mergeAround(s, m);
        } else {
          segW[s] = ws - w;
          segY[s] = y;
          segX[s + 1] = x;
          segY[s + 1] = y + h;
          segW[s + 1] = w;
          m = this.mergeAround(s + 1, m);
        }
      }
    }
    this.m = m;
    this.activeCount = ac;
    return { packedArea, packedCount, height };
  }

  /** Merges segment s with equal-height neighbours; returns the new segment count. */
  private mergeAround(s: number, m: number): number {
    const segX = this.segX;
    const segY = this.segY;
    const segW = this.segW;
    if (s < m - 1 && segY[s + 1] === segY[s]) {
      segW[s] += segW[s + 1];
      for (let i = s + 1; i < m - 1; i++) {
        segX[i] = segX[i + 1];
        segY[i] = segY[i + 1];
        segW[i] = segW[i + 1];
      }
      m--;
    }
    if (s > 0 && segY[s - 1] === segY[s]) {
      segW[s - 1] += segW[s];
      for (let i = s; i < m - 1; i++) {
        segX[i] = segX[i + 1];
        segY[i] = segY[i + 1];
        segW[i] = segW[i + 1];
      }
      m--;
    }
    return m;
  }
}
