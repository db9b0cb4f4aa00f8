/**
 * Maximal-rectangles placement at a fixed container height (after Jylänki's MaxRects).
 *
 * The free space of a W x H container is kept as the list of all maximal free rectangles
 * (they may overlap). Pieces are placed in sequence order, each at the free rectangle and
 * orientation with the best score; the rectangles it covers are split into their maximal
 * remainders, and rectangles contained in others are dropped.
 *
 * It complements the skyline heuristic, which always fills its lowest segment: maximal
 * rectangles may put a piece into any free area, and the best-area rule keeps the large
 * free areas whole. With the same sequence search it beats the skyline search on some
 * orders of few designs and loses on others, so `search.ts` runs it after the skyline
 * search, looking only below the skyline's result, on orders of a few sizes in many copies.
 */
import { EvalResult, PieceSize } from './skyline';

/**
 * Scores: 0 = best short side fit, 1 = bottom-left (lowest top edge, then leftmost),
 * 2 = best area fit (then short side).
 */
export type MaxRectsRule = 0 | 1 | 2;

export class MaxRectsEvaluator {
  readonly n: number;
  readonly totalArea: number;
  // free rectangles, grown on demand
  private fx = new Int32Array(64);
  private fy = new Int32Array(64);
  private fw = new Int32Array(64);
  private fh = new Int32Array(64);
  private f = 0;
  private dead = new Uint8Array(64);
  /** Occupied rectangles of the container (fixed copies), taken before any piece. */
  private obstacles: readonly { x: number; y: number; w: number; h: number }[] = [];
  // recorded placements (by piece index) of the last evaluation with record = true
  readonly px: Int32Array;
  readonly py: Int32Array;
  readonly prot: Uint8Array;
  readonly placed: Uint8Array;

  constructor(
    private readonly pieces: readonly PieceSize[],
    private readonly width: number,
    private readonly rotate: boolean,
  ) {
    this.n = pieces.length;
    this.totalArea = pieces.reduce((a, p) => a + p.w * p.h, 0);
    this.px = new Int32Array(this.n);
    this.py = new Int32Array(this.n);
    this.prot = new Uint8Array(this.n);
    this.placed = new Uint8Array(this.n);
  }

  /** Rectangles of the container that are taken before any piece (a fixed container only, not `grow`). */
  setObstacles(rects: readonly { x: number; y: number; w: number; h: number }[]): void {
    this.obstacles = rects;
  }

  /**
   * Places the pieces of `seq` in order into width x H. With `stopAtFirstMiss` it stops at
   * the first piece that finds no place (the strip search only asks whether all fit).
   *
   * With `grow`, the free space starts empty and the used region (a rectangle at the origin)
   * grows only when a piece finds no place in it: to the right while it is taller than
   * wide, else downwards (then the other way), by just enough for that piece. Pieces then
   * settle into a compact block instead of spreading over the whole container, which is
   * what makes maximal rectangles good at strip packing.
   */
  evaluate(seq: Int32Array, H: number, rule: MaxRectsRule, record: boolean, stopAtFirstMiss = false, grow = false): EvalResult {
    this.f = 0;
    let regionW = 0;
    let regionH = 0;
    if (!grow) {
      this.push(0, 0, this.width, H);
      for (const o of this.obstacles) this.occupy(o.x, o.y, o.w, o.h);
    }
    if (record) this.placed.fill(0);
    let packedArea = 0;
    let packedCount = 0;
    let height = 0;
    for (let k = 0; k < seq.length; k++) {
      const i = seq[k];
      const p = this.pieces[i];
      let node = this.findNode(p, rule);
      if (node < 0 && grow) {
        const fitsW = (w: number, h: number) => regionW + w <= this.width && h <= H;
        const fitsH = (w: number, h: number) => w <= this.width && regionH + h <= H;
        // the smaller new region of the two orientations, right or down first
        let grown = false;
        for (const down of regionW > regionH ? [true, false] : [false, true]) {
          let bw = -1;
          let bh = -1;
          for (let r = 0; r < 2; r++) {
            if (r === 1 && (!this.rotate || p.w === p.h)) break;
            const w = r ? p.h : p.w;
            const h = r ? p.w : p.h;
            if (down ? !fitsH(w, h) : !fitsW(w, h)) continue;
            const nw = down ? Math.max(regionW, w) : regionW + w;
            const nh = down ? regionH + h : Math.max(regionH, h);
            if (bw < 0 || nw * nh < bw * bh) {
              bw = nw;
              bh = nh;
            }
          }
          if (bw >= 0) {
            this.expand(regionW, regionH, bw, bh);
            regionW = bw;
            regionH = bh;
            grown = true;
            break;
          }
        }
        if (grown) node = this.findNode(p, rule);
      }
      if (node < 0) {
        if (stopAtFirstMiss) break;
        continue;
      }
      const rot = node & 1;
      const j = node >> 1;
      const w = rot ? p.h : p.w;
      const h = rot ? p.w : p.h;
      const x = this.fx[j];
      const y = this.fy[j];
      this.occupy(x, y, w, h);
      if (record) {
        this.px[i] = x;
        this.py[i] = y;
        this.prot[i] = rot;
        this.placed[i] = 1;
      }
      packedArea += w * h;
      packedCount++;
      if (y + h > height) height = y + h;
    }
    return { packedArea, packedCount, height };
  }

  /** Best free rectangle and orientation for the piece: 2 × index + rotated, or -1. */
  private findNode(p: PieceSize, rule: MaxRectsRule): number {
    let bestF = -1;
    let bestRot = 0;
    let best1 = Infinity;
    let best2 = Infinity;
    for (let r = 0; r < 2; r++) {
      if (r === 1 && (!this.rotate || p.w === p.h)) break;
      const w = r ? p.h : p.w;
      const h = r ? p.w : p.h;
      for (let j = 0; j < this.f; j++) {
        const lw = this.fw[j] - w;
        const lh = this.fh[j] - h;
        if (lw < 0 || lh < 0) continue;
        let s1: number;
        let s2: number;
        if (rule === 0) {
          s1 = lw < lh ? lw : lh;
          s2 = lw < lh ? lh : lw;
        } else if (rule === 1) {
          s1 = this.fy[j] + h;
          s2 = this.fx[j];
        } else {
          s1 = this.fw[j] * this.fh[j] - w * h;
          s2 = lw < lh ? lw : lh;
        }
        if (s1 < best1 || (s1 === best1 && s2 < best2)) {
          best1 = s1;
          best2 = s2;
          bestF = j;
          bestRot = r;
        }
      }
    }
    return bestF < 0 ? -1 : 2 * bestF + bestRot;
  }

  /** Grows the used region from ow x oh to nw x nh: free rectangles on its edges extend. */
  private expand(ow: number, oh: number, nw: number, nh: number): void {
    for (let j = 0; j < this.f; j++) {
      if (this.fx[j] + this.fw[j] >= ow) this.fw[j] = nw - this.fx[j];
      if (this.fy[j] + this.fh[j] >= oh) this.fh[j] = nh - this.fy[j];
    }
    if (nw > ow) this.push(ow, 0, nw - ow, nh);
    if (nh > oh) this.push(0, oh, nw, nh - oh);
    this.prune();
  }

  private push(x: number, y: number, w: number, h: number): void {
    if (this.f === this.fx.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.fx = grow(this.fx);
      this.fy = grow(this.fy);
      this.fw = grow(this.fw);
      this.fh = grow(this.fh);
    }
    this.fx[this.f] = x;
    this.fy[this.f] = y;
    this.fw[this.f] = w;
    this.fh[this.f] = h;
    this.f++;
  }

  /** Splits every free rectangle the piece overlaps into its maximal remainders, then prunes. */
  private occupy(x: number, y: number, w: number, h: number): void {
    const x1 = x + w;
    const y1 = y + h;
    const count = this.f;
    let keep = 0;
    for (let j = 0; j < count; j++) {
      const rx = this.fx[j];
      const ry = this.fy[j];
      const rw = this.fw[j];
      const rh = this.fh[j];
      const rx1 = rx + rw;
      const ry1 = ry + rh;
      if (x >= rx1 || x1 <= rx || y >= ry1 || y1 <= ry) {
        // untouched: compact in place
        this.fx[keep] = rx;
        this.fy[keep] = ry;
        this.fw[keep] = rw;
        this.fh[keep] = rh;
        keep++;
        continue;
      }
      // remainders are appended after `count` and moved down once the scan is done
      if (x > rx) this.push(rx, ry, x - rx, rh);
      if (x1 < rx1) this.push(x1, ry, rx1 - x1, rh);
      if (y > ry) this.push(rx, ry, rw, y - ry);
      if (y1 < ry1) this.push(rx, y1, rw, ry1 - y1);
    }
    const untouched = keep;
    for (let j = count; j < this.f; j++) {
      this.fx[keep] = this.fx[j];
      this.fy[keep] = this.fy[j];
      this.fw[keep] = this.fw[j];
      this.fh[keep] = this.fh[j];
      keep++;
    }
    this.f = keep;
    this.prune(untouched);
  }

  /**
   * Drops free rectangles contained in another (of two equal ones, one stays). Only those
   * from `from` on can be: after a split the untouched ones were maximal before, and each new
   * one lies inside a rectangle that was split, so none of them can contain an untouched
   * one. Checking only the new ones gives the same list as checking all (`from` = 0), in
   * O(new × F) instead of O(F²).
   */
  private prune(from = 0): void {
    const { fx, fy, fw, fh } = this;
    const f = this.f;
    if (this.dead.length < f) this.dead = new Uint8Array(this.fx.length);
    const dead = this.dead;
    dead.fill(0, 0, f);
    for (let i = from; i < f; i++)
      for (let j = 0; j < f; j++) {
        if (i === j || dead[j]) continue;
        if (fx[i] >= fx[j] && fy[i] >= fy[j] && fx[i] + fw[i] <= fx[j] + fw[j] && fy[i] + fh[i] <= fy[j] + fh[j]) {
          dead[i] = 1;
          break;
        }
      }
    let keep = 0;
    for (let i = 0; i < f; i++) {
      if (dead[i]) continue;
      fx[keep] = fx[i];
      fy[keep] = fy[i];
      fw[keep] = fw[i];
      fh[keep] = fh[i];
      keep++;
    }
    this.f = keep;
  }
}
