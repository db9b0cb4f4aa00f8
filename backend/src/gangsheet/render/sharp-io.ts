/**
 * The only file of the engine that imports sharp. Everything that decodes or encodes an
 * image goes through here, with pixel limits and strict failure on corrupt data.
 */
import { promises as fsp } from 'fs';
import { pipeline } from 'stream/promises';
import sharp from 'sharp';
import { ByteSink } from './byte-sink';

// libvips' operation cache keeps decoded images around between calls; a render touches
// each source once, so caching only costs memory.
sharp.cache(false);

/** Limits for decoding untrusted uploads. */
export interface DecodeLimits {
  /** Maximum pixels (width x height) of a source image. Default 268 million (16384²). */
  maxPixels?: number;
}

export const DEFAULT_MAX_PIXELS = 16384 * 16384;
/** SVGs are measured and trimmed on a raster at this density (dots per inch of the SVG's own units). */
export const SVG_INSPECT_DENSITY = 300;

/** A file that sharp cannot decode, or that breaks a decode limit. */
export class DesignDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DesignDecodeError';
  }
}

function explain(e: unknown, file: string): DesignDecodeError {
  const msg = e instanceof Error ? e.message : String(e);
  if (/pixel limit/i.test(msg)) return new DesignDecodeError(`${file}: image is larger than the allowed pixel limit`);
  return new DesignDecodeError(`${file}: not a readable image (${msg.split('\n')[0]})`);
}

function open(file: string, limits: DecodeLimits, density?: number) {
  return sharp(file, {
    limitInputPixels: limits.maxPixels ?? DEFAULT_MAX_PIXELS,
    failOn: 'warning',
    density,
    sequentialRead: true,
  }).autoOrient();
}

export interface DecodedAlpha {
  format: string;
  width: number;
  height: number;
  hasAlpha: boolean;
  /** SVG only: density the raster was produced at. */
  density?: number;
  /** One byte per pixel (alpha), or null when the image has no alpha channel. */
  alpha: Buffer | null;
}

/**
 * Decodes a design fully (so a truncated or corrupt file fails here, at upload time) and
 * returns its alpha channel for trimming.
 */
export async function decodeForInspection(file: string, limits: DecodeLimits, label: string): Promise<DecodedAlpha> {
  try {
    const meta = await sharp(file, { limitInputPixels: limits.maxPixels ?? DEFAULT_MAX_PIXELS }).metadata();
    if (!meta.format || !meta.width || !meta.height) throw new Error('unknown format');
    const density = meta.format === 'svg' ? SVG_INSPECT_DENSITY : undefined;
    const img = open(file, limits, density);
    if (meta.hasAlpha) {
      const { data, info } = await img.extractChannel(3).raw().toBuffer({ resolveWithObject: true });
      return { format: meta.format, width: info.width, height: info.height, hasAlpha: true, density, alpha: data };
    }
    // no alpha: still decode every pixel to prove the file is intact
    const { info } = await img.raw().toBuffer({ resolveWithObject: true });
    return { format: meta.format, width: info.width, height: info.height, hasAlpha: false, density, alpha: null };
  } catch (e) {
    throw explain(e, label);
  }
}

export interface ResampleRequest {
  file: string;
  label: string;
  limits: DecodeLimits;
  /** Trim box in the inspection raster's pixels. */
  trim: { left: number; top: number; width: number; height: number };
  /** Inspection raster size, to know whether the trim is the whole image. */
  sourceWidth: number;
  sourceHeight: number;
  /** SVG: density the trim box refers to. */
  density?: number;
  width: number;
  height: number;
}

/** Byte offset of the pixels in a libvips ".v" file (its fixed header). */
export const VIPS_HEADER_BYTES = 64;
/** libvips' magic for little-endian pixel data, stored as these four bytes in this order. */
const VIPS_MAGIC_INTEL = 0xb6a6f208;

/**
 * Writes the design, trimmed and resampled once with lanczos3 to exactly width x height,
 * converted to sRGB RGBA 8-bit, to `outPath` as a libvips ".v" file: a 64-byte header, then
 * the raw RGBA rows top to bottom (then libvips' metadata, which we ignore). libvips streams
 * it to disk in strips, so memory stays flat however large the raster. Sharp's raw output,
 * used before, is one buffer of the whole raster: 3.5 GB for a 60 x 40 in design at 600 DPI,
 * past what one fs write takes (2^31 - 1 bytes) and, from 4 GiB, past a Node Buffer.
 * The pixels are byte-identical to that raw output (raster-cache.spec.ts). Returns the
 * byte offset of the first pixel. `outPath` must end in ".v" (sharp picks the format by it).
 */
export async function resampleToFile(req: ResampleRequest, outPath: string): Promise<number> {
  if (!outPath.endsWith('.v')) throw new Error(`resampleToFile writes a .v file, not ${outPath}`);
  try {
    let img: ReturnType<typeof sharp>;
    let { left, top, width, height } = req.trim;
    if (req.density !== undefined) {
      // rasterise the vector at the density that makes the trimmed art (at least) the target size,
      // so text and edges are drawn sharp instead of being upscaled
      const scale = req.width / req.trim.width;
      const density = Math.min(req.density * scale * 1.01, 100000);
      const f = density / req.density;
      img = open(req.file, req.limits, density);
      const meta = await sharp(req.file, { density, limitInputPixels: req.limits.maxPixels ?? DEFAULT_MAX_PIXELS }).metadata();
      left = Math.min(Math.floor(left * f), meta.width! - 1);
      top = Math.min(Math.floor(top * f), meta.height! - 1);
      width = Math.max(1, Math.min(Math.round(width * f), meta.width! - left));
      height = Math.max(1, Math.min(Math.round(height * f), meta.height! - top));
      if (!(left === 0 && top === 0 && width === meta.width && height === meta.height)) img = img.extract({ left, top, width, height });
    } else {
      img = open(req.file, req.limits);
      if (!(left === 0 && top === 0 && width === req.sourceWidth && height === req.sourceHeight)) img = img.extract({ left, top, width, height });
    }
    await img
      .resize(req.width, req.height, { fit: 'fill', kernel: 'lanczos3' })
      .toColourspace('srgb')
      .ensureAlpha()
      .toFile(outPath);
  } catch (e) {
    throw explain(e, req.label);
  }
  await checkVipsHeader(outPath, req.width, req.height);
  return VIPS_HEADER_BYTES;
}

/** The ".v" file holds what the raster code reads: width x height pixels of 4 uchar bands. */
async function checkVipsHeader(file: string, width: number, height: number): Promise<void> {
  const fh = await fsp.open(file, 'r');
  try {
    const h = Buffer.alloc(VIPS_HEADER_BYTES);
    await fh.read(h, 0, h.length, 0);
    const magic = h.readUInt32BE(0);
    const [w, ht, bands, format, coding] = [4, 8, 12, 20, 24].map((o) => h.readInt32LE(o));
    // format 0: uchar; coding 0: plain pixels
    if (magic !== VIPS_MAGIC_INTEL || w !== width || ht !== height || bands !== 4 || format !== 0 || coding !== 0)
      throw new Error(`resampled raster has an unexpected layout (${w}x${ht}, ${bands} bands, format ${format}, coding ${coding})`);
  } finally {
    await fh.close();
  }
}

/**
 * What libvips' "over" composite does to a pixel placed on a transparent background,
 * as a lookup table lut[alpha * 256 + value] for the colour channels (alpha is unchanged).
 * It is not the identity (premultiply/unpremultiply truncates), so we measure it once from
 * the linked libvips and apply it when copying, which keeps our sheets byte-identical to a
 * single sharp composite of the same copies.
 */
let overLut: Promise<Uint8Array> | null = null;
export function compositeOverTransparentLut(): Promise<Uint8Array> {
  if (!overLut) {
    overLut = (async () => {
      const probe = Buffer.alloc(256 * 256 * 4);
      for (let a = 0; a < 256; a++)
        for (let v = 0; v < 256; v++) {
          const i = (a * 256 + v) * 4;
          probe[i] = v;
          probe[i + 1] = v;
          probe[i + 2] = v;
          probe[i + 3] = a;
        }
      const out = await sharp({ create: { width: 256, height: 256, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
        .composite([{ input: probe, raw: { width: 256, height: 256, channels: 4 } }])
        .raw()
        .toBuffer();
      const lut = new Uint8Array(65536);
      for (let i = 0; i < 65536; i++) lut[i] = out[i * 4];
      return lut;
    })();
  }
  return overLut;
}

/** Encodes an RGBA preview buffer as WebP. */
export async function writePreview(rgba: Buffer, width: number, height: number, out: string | ByteSink): Promise<void> {
  const image = sharp(rgba, { raw: { width, height, channels: 4 } }).webp({ quality: 80, alphaQuality: 90 });
  if (typeof out === 'string') {
    await image.toFile(out);
    return;
  }
  // a preview is small (its longest side about 1000 px)
  try {
    await out.write(await image.toBuffer());
  } catch (e) {
    await out.abort();
    throw e;
  }
  await out.finish();
}

/** Reads back the metadata we care about in tests and reports. */
export async function readImageInfo(file: string) {
  const m = await sharp(file, { limitInputPixels: false }).metadata();
  return { format: m.format, width: m.width, height: m.height, channels: m.channels, space: m.space, density: m.density, hasAlpha: m.hasAlpha };
}

/** Decodes an image to raw RGBA (tests and benchmarks; small images only). */
export async function decodeRaw(file: string): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(file, { limitInputPixels: false }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Streams the decoded RGBA pixels of an image of any size into `sink` (benchmark identity checks). */
export async function streamRaw(file: string, sink: NodeJS.WritableStream): Promise<void> {
  await pipeline(sharp(file, { limitInputPixels: false, sequentialRead: true }).ensureAlpha().raw(), sink);
}
