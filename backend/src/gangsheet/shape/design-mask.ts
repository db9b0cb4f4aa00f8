/**
 * A design's ink as a small, serialisable bit mask, measured once at upload (inspectDesign)
 * and handed to the layout with the design, so layout stays synchronous, plain data in and
 * out, and never decodes images.
 *
 * The mask covers the trimmed art. It is max-pooled: a mask cell is ink when any source
 * pixel in it has alpha above INK_ALPHA_THRESHOLD, so the mask is never smaller than the ink.
 */

/** Alpha above this (of 255) is ink: faint halos and soft shadows count, noise does not. */
export const INK_ALPHA_THRESHOLD = 2;
/** Longest side of a mask in cells (a 12 in design: 0.023 in per cell). */
export const MASK_MAX_SIDE = 512;

export interface DesignMask {
  /** Size in mask cells; the mask spans the trimmed art. */
  width: number;
  height: number;
  /** Base64 of the rows, each ceil(width / 8) bytes, cell x at bit (x & 7) of byte x >> 3. */
  data: string;
}

/**
 * Builds the mask of the trim box [left, left + width) × [top, top + height) of an alpha
 * plane (one byte per pixel, `stride` pixels per row).
 */
export function alphaMask(
  alpha: Uint8Array,
  stride: number,
  trim: { left: number; top: number; width: number; height: number },
  maxSide = MASK_MAX_SIDE,
  threshold = INK_ALPHA_THRESHOLD,
): DesignMask {
  const scale = Math.min(1, maxSide / Math.max(trim.width, trim.height));
  const mw = Math.max(1, Math.ceil(trim.width * scale));
  const mh = Math.max(1, Math.ceil(trim.height * scale));
  const rowBytes = (mw + 7) >> 3;
  const out = Buffer.alloc(rowBytes * mh);
  for (let y = 0; y < trim.height; y++) {
    const my = Math.min(mh - 1, Math.floor((y * mh) / trim.height));
    const src = (trim.top + y) * stride + trim.left;
    for (let x = 0; x < trim.width; x++) {
      if (alpha[src + x] <= threshold) continue;
      const mx = Math.min(mw - 1, Math.floor((x * mw) / trim.width));
      out[my * rowBytes + (mx >> 3)] |= 1 << (mx & 7);
    }
  }
  return { width: mw, height: mh, data: out.toString('base64') };
}

/** Decodes a mask into one byte per cell (1 = ink); validates its size. */
export function unpackMask(m: DesignMask): Uint8Array {
  if (!Number.isInteger(m.width) || !Number.isInteger(m.height) || m.width <= 0 || m.height <= 0 || typeof m.data !== 'string')
    throw new Error('design mask needs a positive integer width and height and base64 data');
  const rowBytes = (m.width + 7) >> 3;
  const buf = Buffer.from(m.data, 'base64');
  if (buf.length !== rowBytes * m.height) throw new Error('design mask data does not match its size');
  const cells = new Uint8Array(m.width * m.height);
  for (let y = 0; y < m.height; y++)
    for (let x = 0; x < m.width; x++) cells[y * m.width + x] = (buf[y * rowBytes + (x >> 3)] >> (x & 7)) & 1;
  return cells;
}

/** Fraction of the mask that is ink (how much of the bounding box the art covers). */
export function maskCoverage(m: DesignMask): number {
  const cells = unpackMask(m);
  let n = 0;
  for (const c of cells) n += c;
  return n / cells.length;
}
