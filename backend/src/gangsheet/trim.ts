/**
 * Trimming and inspection of uploaded designs. A design's printed width is the width of
 * its visible art, so transparent borders are measured here and cut before sizing.
 */
import { resolveInsideRoot } from './render/safe-path';
import { decodeForInspection, DecodeLimits } from './render/sharp-io';
import { alphaMask, DesignMask } from './shape/design-mask';

export interface TrimBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface DesignInfo {
  /** Decoded size (after EXIF orientation; SVG: rasterised at `density`). */
  widthPx: number;
  heightPx: number;
  /** Bounding box of the visible pixels (alpha > 0); the whole image when it has no alpha. */
  trim: TrimBox;
  format: string;
  hasAlpha: boolean;
  /** SVG only: the density (DPI of the SVG's own units) the pixel sizes refer to. */
  density?: number;
  /** True for vector formats, which have no effective-DPI limit. */
  vector: boolean;
  /**
   * Ink of the trimmed art as a small bit mask, for true-shape nesting (pass it on as
   * `LayoutDesign.mask`). Absent for images without alpha: their shape is the rectangle.
   */
  mask?: DesignMask;
}

/** Bounding box of alpha > 0 in a one-byte-per-pixel alpha plane; null when fully transparent. */
export function alphaBoundingBox(alpha: Uint8Array, width: number, height: number): TrimBox | null {
  let top = -1;
  let bottom = -1;
  let left = width;
  let right = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let first = -1;
    for (let x = 0; x < width; x++)
      if (alpha[row + x] !== 0) {
        first = x;
        break;
      }
    if (first < 0) continue;
    if (top < 0) top = y;
    bottom = y;
    if (first < left) left = first;
    // scan from the right only as far as the current right edge
    for (let x = width - 1; x > right; x--)
      if (alpha[row + x] !== 0) {
        right = x;
        break;
      }
  }
  if (top < 0) return null;
  return { left, top, width: right - left + 1, height: bottom - top + 1 };
}

/** A design's trim: the bounds of its visible art and, when it has transparency, its ink over them. */
export interface TrimResult {
  trim: TrimBox;
  /** null when no pixel is transparent: the design's shape is its rectangle. */
  mask: DesignMask | null;
}

/**
 * The one trim rule, from an alpha plane (one byte per pixel): the bounds of alpha > 0 and
 * the ink mask over them; null when fully transparent. `source` is for a plane rasterised
 * at `scale` times the design's own pixels (an SVG measured large): the bounds are mapped
 * back to the design's pixels rounding outwards, so no art is lost, and the mask spans the
 * same region of the plane.
 */
export function trimAlpha(
  alpha: Uint8Array,
  width: number,
  height: number,
  source: { width: number; height: number; scale: number } = { width, height, scale: 1 },
): TrimResult | null {
  const box = alphaBoundingBox(alpha, width, height);
  if (!box) return null;
  const opaque = box.width === width && box.height === height && !alpha.some((a) => a === 0);
  if (opaque) return { trim: { left: 0, top: 0, width: source.width, height: source.height }, mask: null };
  const { scale } = source;
  if (scale === 1) return { trim: box, mask: alphaMask(alpha, width, box) };
  const l = Math.floor(box.left / scale);
  const t = Math.floor(box.top / scale);
  const trim = {
    left: l,
    top: t,
    width: Math.min(source.width - l, Math.ceil((box.left + box.width) / scale) - l),
    height: Math.min(source.height - t, Math.ceil((box.top + box.height) / scale) - t),
  };
  const left = Math.floor(trim.left * scale);
  const top = Math.floor(trim.top * scale);
  const region = {
    left,
    top,
    width: Math.max(1, Math.min(width, Math.ceil((trim.left + trim.width) * scale)) - left),
    height: Math.max(1, Math.min(height, Math.ceil((trim.top + trim.height) * scale)) - top),
  };
  return { trim, mask: alphaMask(alpha, width, region) };
}

export interface InspectOptions {
  /** Storage root; the path must resolve inside it. */
  root: string;
  limits?: DecodeLimits;
}

/**
 * Decodes a design (rejecting corrupt files and anything over the pixel limit) and measures
 * its visible area. Throws UnsafePathError, DesignDecodeError, or an Error for a fully
 * transparent image.
 */
export async function inspectDesign(file: string, opts: InspectOptions): Promise<DesignInfo> {
  const real = await resolveInsideRoot(opts.root, file);
  const d = await decodeForInspection(real, opts.limits ?? {}, file);
  let trim: TrimBox = { left: 0, top: 0, width: d.width, height: d.height };
  let mask: DesignMask | undefined;
  if (d.alpha) {
    const t = trimAlpha(d.alpha, d.width, d.height);
    if (!t) throw new Error(`${file}: the image is fully transparent`);
    trim = t.trim;
    mask = t.mask ?? undefined;
  }
  return {
    widthPx: d.width,
    heightPx: d.height,
    trim,
    format: d.format,
    hasAlpha: d.hasAlpha,
    density: d.density,
    vector: d.format === 'svg',
    mask,
  };
}
