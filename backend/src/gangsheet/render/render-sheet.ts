/**
 * Sheet rendering in horizontal bands.
 *
 * Copies never overlap (the layout guarantees it on whole pixels), so a band is built by
 * copying raster rows into a transparent buffer; the libvips "over" rounding is applied
 * once per raster (see compositeOverTransparentLut), so the result equals a sharp
 * composite of the same copies byte for byte. Bands go straight into the streaming PNG
 * writer, which deflates them on the thread pool; memory is a few bands plus I/O buffers,
 * whatever the sheet length.
 */
import * as fs from 'fs';
import { SheetLayout } from '../pack/layout';
import { DesignMask } from '../shape/design-mask';
import { TrimBox } from '../trim';
import { OpenSink } from './byte-sink';
import { PdfCopy, PdfImageStore, Turn, writeSheetPdf } from './pdf-sheet';
import { FilterPool, PngFilter, StreamingPngWriter } from './png-writer';
import { PreviewSampler } from './preview-sampler';
import { labelRaster, PageLabel, readingRanks } from './order-labels';
import { Raster, RasterCache, RasterSource } from './raster-cache';
import { resolveInsideRoot } from './safe-path';
import { DecodeLimits, writePreview } from './sharp-io';
import { forEachWatermarkRun, watermarkTile, WatermarkTile } from './watermark';

export interface RenderDesign {
  id: string;
  /** Path of the uploaded file, relative to `root` (or absolute inside it). */
  path: string;
  /** From inspectDesign. */
  trim: TrimBox;
  widthPx: number;
  heightPx: number;
  density?: number;
  /**
   * Ink mask, for sheets nested by shape only: the design's rasters are then cleared outside
   * its ink footprint grown by `inkReach`, which the nester's cells assume.
   */
  mask?: DesignMask;
  /**
   * Order label text of each copy, by the copy's reading-order rank among the design's
   * copies (see readingRanks), printed in the label space its placements report.
   */
  labels?: readonly string[];
}

export interface RenderProgress {
  stage: 'prepare' | 'render' | 'done';
  /** 0..100 over the whole call. */
  percent: number;
  sheet?: number;
}

export interface RenderSheetsOptions {
  sheets: readonly SheetLayout[];
  designs: readonly RenderDesign[];
  dpi: number;
  /** Storage root every design path must resolve into. */
  root: string;
  /**
   * Outputs of sheet `index`: a PNG, a PDF, or both (at least one), and an optional preview;
   * file paths, or the targets `open` takes.
   */
  output: (index: number) => SheetOutput;
  /** Opens an output target (default: as a file path); the print engine streams them into the object store. */
  open?: OpenSink;
  limits?: DecodeLimits;
  onProgress?: (p: RenderProgress) => void;
  /** Folder for temporary rasters (default: the OS temp dir). */
  tmpDir?: string;
  /** zlib level of the PNG (default DEFAULT_PNG_LEVEL). */
  compressionLevel?: number;
  /** PNG row filter (default DEFAULT_PNG_FILTER); only the encoding changes, never the pixels. */
  pngFilter?: PngFilter;
  /** zlib strategy of PNG and PDF image data (default DEFAULT_PNG_STRATEGY). */
  pngStrategy?: number;
  /** Longest side of the preview, default 1000 px. */
  previewMaxSide?: number;
  /** Stops the render (between bands) with the signal's reason; the half-written PNG is removed. */
  signal?: AbortSignal;
  /** Text repeated across every sheet over the art, in PNG, PDF and preview (watermark.ts); none when absent. */
  watermark?: string;
}

export interface SheetOutput {
  png?: string;
  pdf?: string;
  preview?: string;
}

export type PrintFormat = 'png' | 'pdf';

export interface RenderedFile {
  format: PrintFormat;
  path: string;
  bytes: number;
}

export interface RenderedSheet {
  index: number;
  /** The first of `files` (the PNG when one was asked for). */
  path: string;
  previewPath?: string;
  widthPx: number;
  heightPx: number;
  /** Size of `path`. */
  bytes: number;
  /** Every print file of the sheet, PNG first. */
  files: RenderedFile[];
}

const BAND_BYTES = 4 << 20;

/** Clockwise turn of a placement; layouts saved before true-shape nesting only have `rotated`. */
function rotationOf(p: SheetLayout['placements'][number]): number {
  const r = p.rotation ?? (p.rotated ? 90 : 0);
  if ((r % 180 !== 0) !== p.rotated) throw new Error(`copy ${p.copy} of "${p.designId}": rotation ${r} contradicts "rotated"`);
  return r;
}

/**
 * True when some copies' boxes overlap. True-shape layouts do that (only their ink keeps
 * the gap); their transparent corners then have to be blended instead of copied.
 */
function boxesOverlap(jobs: readonly Job[]): boolean {
  const s = [...jobs].sort((a, b) => a.y - b.y);
  for (let i = 0; i < s.length; i++)
    for (let j = i + 1; j < s.length && s[j].y < s[i].y + s[i].h; j++)
      if (s[j].x < s[i].x + s[i].w && s[i].x < s[j].x + s[j].w) return true;
  return false;
}

/**
 * Writes one raster row over a band row with the "over" operator. Where only one of the two
 * has a visible pixel (everywhere, when the nesting kept the ink apart) the pixel is copied,
 * so the result is still what a sharp composite of the same copies gives.
 */
function blendRow(src: Buffer, so: number, dst: Buffer, d0: number, w: number): void {
  for (let i = 0; i < w; i++) {
    const s = so + i * 4;
    const sa = src[s + 3];
    if (sa === 0) continue;
    const d = d0 + i * 4;
    const da = dst[d + 3];
    if (da === 0 || sa === 255) {
      dst[d] = src[s];
      dst[d + 1] = src[s + 1];
      dst[d + 2] = src[s + 2];
      dst[d + 3] = sa;
      continue;
    }
    const fa = sa / 255;
    const fb = (da / 255) * (1 - fa);
    const oa = fa + fb;
    for (let c = 0; c < 3; c++) dst[d + c] = Math.round((src[s + c] * fa + dst[d + c] * fb) / oa);
    dst[d + 3] = Math.round(oa * 255);
  }
}
/** Raw RGBA bytes of the rasters resampled at once (see the prepare loop in renderSheets). */
const RESAMPLE_BUDGET_BYTES = 32 << 20;

interface Job {
  x: number;
  y: number;
  w: number;
  h: number;
  raster: Raster;
}

/** The order labels of every sheet, in pixels on their sheet (empty where no design has label text). */
function sheetLabels(sheets: readonly SheetLayout[], designs: readonly RenderDesign[]): PageLabel[][] {
  const texts = new Map(designs.filter((d) => d.labels?.length).map((d) => [d.id, d.labels!]));
  if (!texts.size) return sheets.map(() => []);
  const ranks = readingRanks(sheets.flatMap((s) => s.placements.filter((p) => p.label && texts.has(p.designId)).map((p) => ({ sheet: s.index, designId: p.designId, copy: p.copy, x: p.px.x, y: p.px.y, height: p.px.height }))));
  return sheets.map((s) =>
    s.placements.flatMap((p) => {
      const text = p.label && texts.get(p.designId)?.[ranks.get(`${p.designId}#${p.copy}`) ?? -1];
      if (!text || !p.label) return [];
      const { x, y, width, height } = p.label.px;
      if (x < 0 || y < 0 || x + width > s.widthPx || y + height > s.lengthPx) throw new Error(`the label of copy ${p.copy} of "${p.designId}" lies outside sheet ${s.index}`);
      return [{ x, y, width, height, turn: rotationOf(p) as Turn, text }];
    }),
  );
}

/** Renders several sheets sharing one raster cache (each design size resampled once for all). */
export async function renderSheets(opts: RenderSheetsOptions): Promise<RenderedSheet[]> {
  const cache = new RasterCache(opts.limits ?? {}, opts.tmpDir);
  const pool = new FilterPool();
  const deflate = { compressionLevel: opts.compressionLevel, strategy: opts.pngStrategy, pool };
  const pdfImages = new PdfImageStore(deflate, opts.tmpDir);
  try {
    const report = opts.onProgress ?? (() => undefined);
    const byId = new Map(opts.designs.map((d) => [d.id, d]));
    const sources = new Map<string, RasterSource>();
    for (const d of opts.designs) {
      sources.set(d.id, {
        id: d.id,
        file: await resolveInsideRoot(opts.root, d.path),
        trim: d.trim,
        sourceWidth: d.widthPx,
        sourceHeight: d.heightPx,
        density: d.density,
        mask: d.mask,
      });
    }
    // prepare every raster first: resampling is the part that can fail on a bad file,
    // and failing before any output is written leaves no half-written sheets behind
    const jobsPerSheet: Job[][] = [];
    const seen = new Set<string>();
    for (const sheet of opts.sheets) {
      for (const p of sheet.placements) {
        const src = sources.get(p.designId);
        if (!src || !byId.has(p.designId)) throw new Error(`placement refers to unknown design "${p.designId}"`);
        const { x, y, width, height } = p.px;
        if (x < 0 || y < 0 || x + width > sheet.widthPx || y + height > sheet.lengthPx)
          throw new Error(`copy ${p.copy} of "${p.designId}" lies outside sheet ${sheet.index}`);
      }
    }
    const labels = sheetLabels(opts.sheets, opts.designs);
    const mark = opts.watermark ? watermarkTile(opts.watermark, opts.dpi) : null;
    const outs = opts.sheets.map((s) => opts.output(s.index));
    if (outs.some((o) => !o.png && !o.pdf)) throw new Error('every sheet needs a PNG or PDF output path');
    // resample the distinct (design, size, rotation) rasters two at a time (two cores)
    const work: { src: RasterSource; w: number; h: number; rotation: number }[] = [];
    const want = (src: RasterSource, w: number, h: number, rotation: number) => {
      const key = `${src.id}|${w}x${h}|${rotation}`;
      if (!seen.has(key)) {
        seen.add(key);
        work.push({ src, w, h, rotation });
      }
    };
    opts.sheets.forEach((sheet, i) => {
      for (const p of sheet.placements) {
        const src = sources.get(p.designId)!;
        const [w, h] = p.rotated ? [p.px.height, p.px.width] : [p.px.width, p.px.height];
        if (outs[i].png || outs[i].preview) want(src, w, h, rotationOf(p));
        // the PDF embeds each design upright once and turns its copies by their transform
        if (outs[i].pdf) want(src, ...pdfImageSize(src, w, h), 0);
      }
    });
    let done = 0;
    let next = 0;
    let inFlightBytes = 0;
    const waiting: (() => void)[] = [];
    const worker = async () => {
      while (next < work.length) {
        const it = work[next];
        opts.signal?.throwIfAborted();
        const bytes = it.w * it.h * 4;
        // two at a time only while both fit the budget: a large raster resamples alone, since
        // libvips' buffers grow with the raster (and glibc keeps freed memory)
        if (inFlightBytes > 0 && inFlightBytes + bytes > RESAMPLE_BUDGET_BYTES) {
          await new Promise<void>((resolve) => waiting.push(resolve));
          continue;
        }
        next++;
        inFlightBytes += bytes;
        try {
          await cache.turned(it.src, it.w, it.h, it.rotation);
        } finally {
          inFlightBytes -= bytes;
          for (const wake of waiting.splice(0)) wake();
        }
        report({ stage: 'prepare', percent: (30 * ++done) / Math.max(1, work.length) });
      }
    };
    await Promise.all([worker(), worker()]);
    for (const [i, sheet] of opts.sheets.entries()) {
      const jobs: Job[] = [];
      if (outs[i].png || outs[i].preview)
        for (const p of sheet.placements) {
          const src = sources.get(p.designId)!;
          const { x, y, width, height } = p.px;
          const [w, h] = p.rotated ? [height, width] : [width, height];
          jobs.push({ x, y, w: width, h: height, raster: await cache.turned(src, w, h, rotationOf(p)) });
        }
      jobsPerSheet.push(jobs);
    }
    const results: RenderedSheet[] = [];
    for (let i = 0; i < opts.sheets.length; i++) {
      const sheet = opts.sheets[i];
      const out = outs[i];
      const files: RenderedFile[] = [];
      // the PDF is quick next to the PNG; it takes the last 10 % of the sheet's progress share
      const share = out.png || out.preview ? (out.pdf ? 0.9 : 1) : 0;
      const progress = (f: number) => report({ stage: 'render', percent: 30 + (70 * (i + f)) / opts.sheets.length, sheet: sheet.index });
      if (out.png || out.preview) {
        const bytes = await composeSheet(sheet, jobsPerSheet[i], labels[i], mark, out.png, out.preview, opts, pool, (f) => progress(f * share));
        if (out.png) files.push({ format: 'png', path: out.png, bytes });
      }
      if (out.pdf) {
        const page = { ...(await pdfPage(sheet, sources, cache, opts.dpi)), labels: labels[i], watermark: opts.watermark };
        const bytes = await writeSheetPdf(opts.open ? await opts.open(out.pdf, 'application/pdf') : out.pdf, page, deflate, pdfImages);
        files.push({ format: 'pdf', path: out.pdf, bytes });
        progress(1);
      }
      results.push({ index: sheet.index, path: files[0].path, bytes: files[0].bytes, files, previewPath: out.preview, widthPx: sheet.widthPx, heightPx: sheet.lengthPx });
    }
    report({ stage: 'done', percent: 100 });
    return results;
  } finally {
    await pool.close();
    pdfImages.dispose();
    cache.dispose();
  }
}

/**
 * Pixel size of a design's PDF image for an upright copy of w x h sheet pixels: the
 * resampled raster at the sheet DPI, or the trimmed source pixels when they are fewer
 * (the PDF scales the image to its box, so a small source is never upscaled in the file).
 * SVGs are rasterised at the sheet DPI, and so are the copies of shape-nested sheets (with
 * a mask): their ink clip is cut at the sheet's pixels, where the nester kept the gap; a
 * viewer's own upscaling of the source would spread edges past it.
 */
function pdfImageSize(src: RasterSource, w: number, h: number): [number, number] {
  if (src.density === undefined && !src.mask && src.trim.width * src.trim.height < w * h) return [src.trim.width, src.trim.height];
  return [w, h];
}

/** A sheet's copies as a PDF page: one image per distinct upright raster, one transform per copy. */
async function pdfPage(sheet: SheetLayout, sources: Map<string, RasterSource>, cache: RasterCache, dpi: number) {
  const images: Raster[] = [];
  const index = new Map<Raster, number>();
  const copies: PdfCopy[] = [];
  for (const p of sheet.placements) {
    const src = sources.get(p.designId)!;
    const turn = rotationOf(p) as Turn;
    const [w, h] = turn === 90 || turn === 270 ? [p.px.height, p.px.width] : [p.px.width, p.px.height];
    const raster = await cache.upright(src, ...pdfImageSize(src, w, h));
    if (!index.has(raster)) index.set(raster, images.push(raster) - 1);
    copies.push({ image: index.get(raster)!, x: p.px.x, y: p.px.y, width: p.px.width, height: p.px.height, turn });
  }
  return { widthPx: sheet.widthPx, heightPx: sheet.lengthPx, dpi, images, copies };
}

async function composeSheet(
  sheet: SheetLayout,
  jobs: Job[],
  labels: readonly PageLabel[],
  mark: WatermarkTile | null,
  pngPath: string | undefined,
  previewPath: string | undefined,
  opts: RenderSheetsOptions,
  pool: FilterPool,
  progress: (fraction: number) => void,
): Promise<number> {
  const W = sheet.widthPx;
  const H = sheet.lengthPx;
  if (H <= 0) throw new Error(`sheet ${sheet.index} is empty`);
  const stride = W * 4;
  const bandRows = Math.max(1, Math.floor(BAND_BYTES / stride));
  // without a PNG the bands are still composed, for the preview only
  const target = pngPath && opts.open ? await opts.open(pngPath, 'image/png') : pngPath;
  const writer = target
    ? await StreamingPngWriter.create(target, W, H, { dpi: opts.dpi, compressionLevel: opts.compressionLevel, strategy: opts.pngStrategy, filter: opts.pngFilter, pool }).catch(async (e) => {
        if (typeof target !== 'string') await target.abort();
        throw e;
      })
    : null;
  const preview = previewPath ? new PreviewSampler(W, H, opts.previewMaxSide ?? 1000) : null;
  try {
    const sorted = [...jobs].sort((a, b) => a.y - b.y || a.x - b.x);
    const overlapping = boxesOverlap(jobs);
    // without a PNG (preview only) one buffer serves every band
    const own = writer ? null : Buffer.alloc(bandRows * stride);
    let scratch = Buffer.alloc(0);
    let nextJob = 0;
    let active: Job[] = [];
    // labels are drawn as their band reaches them (each a few KB), over the copies
    const labelQueue = [...labels].sort((a, b) => a.y - b.y);
    let nextLabel = 0;
    let activeLabels: { l: PageLabel; rgba: Buffer }[] = [];
    for (let y0 = 0; y0 < H; y0 += bandRows) {
      opts.signal?.throwIfAborted();
      const y1 = Math.min(H, y0 + bandRows);
      const rows = y1 - y0;
      // composed in place in the buffer that goes to the PNG workers
      const buf = writer ? writer.band(rows) : own!.subarray(0, rows * stride);
      buf.fill(0);
      active = active.filter((j) => j.y + j.h > y0);
      while (nextJob < sorted.length && sorted[nextJob].y < y1) active.push(sorted[nextJob++]);
      active.sort((a, b) => a.x - b.x);
      for (const j of active) {
        const r0 = Math.max(0, y0 - j.y);
        const r1 = Math.min(j.h, y1 - j.y);
        if (r1 <= r0) continue;
        const rowBytes = j.w * 4;
        const len = (r1 - r0) * rowBytes;
        if (scratch.length < len) scratch = Buffer.alloc(len);
        let got = 0;
        while (got < len) {
          const n = fs.readSync(j.raster.fd, scratch, got, len - got, j.raster.offset + r0 * rowBytes + got);
          if (n === 0) throw new Error('raster file is shorter than expected');
          got += n;
        }
        for (let r = r0; r < r1; r++) {
          const at = (j.y + r - y0) * stride + j.x * 4;
          if (overlapping) blendRow(scratch, (r - r0) * rowBytes, buf, at, j.w);
          else scratch.copy(buf, at, (r - r0) * rowBytes, (r - r0 + 1) * rowBytes);
        }
      }
      activeLabels = activeLabels.filter((a) => a.l.y + a.l.height > y0);
      while (nextLabel < labelQueue.length && labelQueue[nextLabel].y < y1) {
        const l = labelQueue[nextLabel++];
        activeLabels.push({ l, rgba: labelRaster(l.text, l.width, l.height, l.turn, opts.dpi) });
      }
      for (const { l, rgba } of activeLabels) {
        const r0 = Math.max(0, y0 - l.y);
        const r1 = Math.min(l.height, y1 - l.y);
        // blended: a true-shape neighbour's transparent corner may lie under the label box
        for (let r = r0; r < r1; r++) blendRow(rgba, r * l.width * 4, buf, (l.y + r - y0) * stride + l.x * 4, l.width);
      }
      // the watermark goes over everything, labels included
      if (mark)
        for (let y = y0; y < y1; y++) {
          const at = (y - y0) * stride;
          forEachWatermarkRun(mark, y, W, (x, from, n) => blendRow(mark.rgba, from * 4, buf, at + x * 4, n));
        }
      preview?.sampleBand(buf, y0, y1);
      await writer?.commitBand(rows);
      progress(y1 / H);
    }
    const bytes = writer ? await writer.finish() : 0;
    if (preview && previewPath) await writePreview(preview.rgba(), preview.pw, preview.ph, opts.open ? await opts.open(previewPath, 'image/webp') : previewPath);
    return bytes;
  } catch (e) {
    await writer?.abort();
    throw e;
  }
}

/** Renders one sheet (see renderSheets). */
export async function renderSheet(opts: {
  sheet: SheetLayout;
  designs: readonly RenderDesign[];
  dpi: number;
  root: string;
  outPath: string;
  previewPath?: string;
  limits?: DecodeLimits;
  onProgress?: (p: RenderProgress) => void;
  tmpDir?: string;
  compressionLevel?: number;
}): Promise<RenderedSheet> {
  const [r] = await renderSheets({
    ...opts,
    sheets: [opts.sheet],
    output: () => ({ png: opts.outPath, preview: opts.previewPath }),
  });
  return r;
}
