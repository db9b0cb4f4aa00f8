/**
 * Everything the image library decodes with sharp: the upload check, the art's bounds and ink and
 * the preview. Plain functions of a file and the pixel limit, run in the CPU workers
 * (src/cpu) so neither the SVG parse nor any decoding runs on the API's event loop;
 * ImageInspectorService is their face inside the app.
 */
import { open, readFile } from 'node:fs/promises';
import sharp, { SharpOptions } from 'sharp';
import { TrimResult, trimAlpha } from '../gangsheet';
import { detectKind, ImageKind, svgProblem, UploadError } from './image-content';

sharp.cache(false);

export type Inspection = { ok: true; kind: ImageKind; width: number; height: number } | { ok: false; error: string };

/** Long side of the WebP preview, in pixels. */
export const PREVIEW_SIZE = 512;
/** SVGs are rasterised so their long side is about this many pixels when measuring the art. */
const SVG_MEASURE_SIZE = 2048;
const HEAD_BYTES = 64 * 1024;

/**
 * Decides what the file is from its content, checks the pixel count from the header
 * before anything is decoded, then decodes it once to prove it is complete.
 */
export async function inspectUpload(path: string, bytes: number, maxPixels: number): Promise<Inspection> {
  if (bytes === 0) return { ok: false, error: UploadError.empty };
  const head = await readHead(path, HEAD_BYTES);
  const detected = detectKind(head);
  if ('error' in detected) return { ok: false, error: detected.error };
  const kind = detected.kind;
  if (kind === 'svg') {
    const problem = svgProblem(await readFile(path, 'utf8'));
    if (problem) return { ok: false, error: problem };
  }
  let width: number;
  let height: number;
  try {
    // Header only: no pixels are decoded here, so a pixel bomb costs nothing.
    const meta = await sharp(path, { limitInputPixels: false, failOn: 'none' }).metadata();
    if (!meta.width || !meta.height) return { ok: false, error: kind === 'svg' ? UploadError.svgNotSvg : UploadError.damaged };
    const swap = (meta.orientation ?? 1) >= 5;
    width = swap ? meta.height : meta.width;
    height = swap ? meta.width : meta.height;
  } catch {
    return { ok: false, error: kind === 'svg' ? UploadError.svgNotSvg : UploadError.damaged };
  }
  if (width * height > maxPixels) return { ok: false, error: UploadError.tooManyPixels(width, height, maxPixels) };
  try {
    // Decoding every pixel is the only proof that the data is not truncated or corrupt.
    await openImage(path, kind, width, height, 64, maxPixels).resize(64, 64, { fit: 'inside' }).raw().toBuffer();
  } catch {
    return { ok: false, error: kind === 'svg' ? UploadError.svgNotSvg : UploadError.damaged };
  }
  return { ok: true, kind, width, height };
}

/**
 * What the layout needs of a design's art: its visible bounds and, with transparency, its
 * ink (null mask: fully opaque, its shape is the rectangle). The engine's trim rule.
 */
export type ArtMeasure = TrimResult;

/**
 * Measures the visible art (null: fully transparent) with the engine's trimAlpha. SVGs are
 * measured rasterised (long side about SVG_MEASURE_SIZE) and the bounds mapped back to the
 * SVG's own pixels.
 */
export async function measureArt(path: string, kind: ImageKind, width: number, height: number, maxPixels: number): Promise<ArtMeasure | null> {
  const scale = kind === 'svg' ? svgScale(width, height, SVG_MEASURE_SIZE) : 1;
  const { data, info } = await openImage(path, kind, width, height, Math.max(width, height) * scale, maxPixels)
    .rotate()
    .ensureAlpha()
    .extractChannel(3)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return trimAlpha(data, info.width, info.height, { width, height, scale });
}

/** A WebP thumbnail (long side PREVIEW_SIZE, transparency kept, sRGB). SVGs become pixels here. */
export async function previewWebp(path: string, kind: ImageKind, width: number, height: number, maxPixels: number): Promise<Buffer> {
  return openImage(path, kind, width, height, PREVIEW_SIZE, maxPixels)
    .rotate()
    .resize(PREVIEW_SIZE, PREVIEW_SIZE, { fit: 'inside', withoutEnlargement: kind !== 'svg' })
    .toColourspace('srgb')
    .webp({ quality: 82, alphaQuality: 90, effort: 3 })
    .toBuffer();
}

/** SVGs are rasterised at a density that makes their long side about `targetLongSide`. */
function openImage(path: string, kind: ImageKind, width: number, height: number, targetLongSide: number, maxPixels: number) {
  const options: SharpOptions = { limitInputPixels: maxPixels, failOn: 'warning' };
  if (kind === 'svg') options.density = Math.min(72 * svgScale(width, height, targetLongSide), 100_000);
  return sharp(path, options);
}

function svgScale(width: number, height: number, targetLongSide: number): number {
  return Math.max(1 / 72, Math.min(16, targetLongSide / Math.max(width, height)));
}

async function readHead(path: string, n: number): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}
