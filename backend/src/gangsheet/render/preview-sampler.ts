/**
 * The sheet's WebP preview, sampled while the sheet is composed: each preview pixel averages
 * PREVIEW_SAMPLES² points of the sheet (premultiplied), taken from the bands as they pass,
 * so the preview costs no second pass over the sheet.
 */

/** Sampled points per axis, per preview pixel. */
const PREVIEW_SAMPLES = 3;

/** Point-sampled, premultiplied box preview accumulated band by band. */
export class PreviewSampler {
  readonly pw: number;
  readonly ph: number;
  private readonly acc: Float64Array;
  /** Sheet rows that are sampled, ascending, with the preview row each feeds. */
  private readonly rows: { y: number; py: number }[] = [];
  private readonly cols: number[] = [];
  private next = 0;

  constructor(
    private readonly W: number,
    H: number,
    maxSide: number,
  ) {
    const s = Math.min(1, maxSide / Math.max(W, H));
    this.pw = Math.max(1, Math.round(W * s));
    this.ph = Math.max(1, Math.round(H * s));
    this.acc = new Float64Array(this.pw * this.ph * 4);
    const k = PREVIEW_SAMPLES;
    for (let py = 0; py < this.ph; py++)
      for (let b = 0; b < k; b++) this.rows.push({ y: Math.min(H - 1, Math.floor(((py + (b + 0.5) / k) * H) / this.ph)), py });
    for (let px = 0; px < this.pw; px++)
      for (let a = 0; a < k; a++) this.cols.push(Math.min(W - 1, Math.floor(((px + (a + 0.5) / k) * W) / this.pw)));
  }

  /** Samples the rows of band [y0, y1) held in `band` (RGBA rows). */
  sampleBand(band: Buffer, y0: number, y1: number): void {
    const stride = this.W * 4;
    const k = PREVIEW_SAMPLES;
    while (this.next < this.rows.length && this.rows[this.next].y < y1) {
      const { y, py } = this.rows[this.next++];
      if (y < y0) continue;
      const rowOff = (y - y0) * stride;
      for (let c = 0; c < this.cols.length; c++) {
        const o = rowOff + this.cols[c] * 4;
        const a = band[o + 3];
        if (a === 0) continue;
        const t = (py * this.pw + Math.floor(c / k)) * 4;
        this.acc[t] += band[o] * a;
        this.acc[t + 1] += band[o + 1] * a;
        this.acc[t + 2] += band[o + 2] * a;
        this.acc[t + 3] += a;
      }
    }
  }

  rgba(): Buffer {
    const out = Buffer.alloc(this.pw * this.ph * 4);
    const n = PREVIEW_SAMPLES * PREVIEW_SAMPLES;
    for (let i = 0; i < this.pw * this.ph; i++) {
      const a = this.acc[i * 4 + 3];
      if (a === 0) continue;
      out[i * 4] = Math.round(this.acc[i * 4] / a);
      out[i * 4 + 1] = Math.round(this.acc[i * 4 + 1] / a);
      out[i * 4 + 2] = Math.round(this.acc[i * 4 + 2] / a);
      out[i * 4 + 3] = Math.round(a / n);
    }
    return out;
  }
}
