/**
 * A sheet as a one-page PDF: every distinct upright raster is embedded once as an RGB image
 * XObject with its alpha as a soft mask (/SMask), and each copy is one `cm` + `Do` in the
 * page content. Turns (0/90/180/270° clockwise) are part of the transform, so a design
 * placed both upright and turned is still embedded once. Pixel data is PNG-predicted and
 * deflated on the same worker pool as the PNG writer.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { ByteSink } from './byte-sink';
import { BandDeflater, DeflateOptions, ZLIB_HEADER } from './png-writer';
import { PdfWriter, pdfNum } from './pdf-writer';
import { Raster } from './raster-cache';
import { LABEL_FONT_DICT, labelPdfOps, PageLabel } from './order-labels';
import { WATERMARK_GS_DICT, watermarkPdfOps } from './watermark';

export type Turn = 0 | 90 | 180 | 270;

export interface PdfCopy {
  /** Index into the `images` of the page. */
  image: number;
  /** Box of the copy on the sheet, in sheet pixels from the top-left corner, as placed. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** Clockwise turn of the upright image inside the box. */
  turn: Turn;
}

export interface PdfPage {
  widthPx: number;
  heightPx: number;
  dpi: number;
  /** Upright rasters, any pixel size (each copy is scaled to its box by the transform). */
  images: readonly Raster[];
  copies: readonly PdfCopy[];
  /** Order labels, drawn over the copies (in the space the layout kept free for them). */
  labels?: readonly PageLabel[];
  /** Text repeated across the page over everything else (watermark.ts). */
  watermark?: string;
}

const READ_BYTES = 4 << 20;

/**
 * The `cm` matrix [a b c d e f] mapping the image's unit square onto the copy's box in PDF
 * points (origin bottom-left), turned clockwise by `turn`.
 */
export function copyMatrix(c: PdfCopy, pageHeightPx: number, dpi: number): number[] {
  const k = 72 / dpi;
  const X = c.x * k;
  const Y = (pageHeightPx - c.y - c.height) * k;
  const w = c.width * k;
  const h = c.height * k;
  switch (c.turn) {
    case 0:
      return [w, 0, 0, h, X, Y];
    case 90: // image bottom-left -> box top-left
      return [0, -h, w, 0, X, Y + h];
    case 180:
      return [-w, 0, 0, -h, X + w, Y + h];
    case 270: // image bottom-left -> box bottom-right
      return [0, h, -w, 0, X + w, Y];
  }
}

/** Streams one channel group of a raster file (RGB or alpha) as a zlib stream through `put`. */
async function putChannels(
  raster: Raster,
  channels: 'rgb' | 'alpha',
  opts: DeflateOptions,
  put: (data: Buffer) => Promise<void>,
): Promise<void> {
  const { width, height, fd, offset } = raster;
  const bpp = channels === 'rgb' ? 3 : 1;
  await put(ZLIB_HEADER);
  const deflater = new BandDeflater(width, height, bpp, opts, put);
  const rowsPerRead = Math.max(1, Math.floor(READ_BYTES / (width * 4)));
  const src = Buffer.alloc(rowsPerRead * width * 4);
  const dst = Buffer.alloc(rowsPerRead * width * bpp);
  try {
    for (let y0 = 0; y0 < height; y0 += rowsPerRead) {
      const rows = Math.min(rowsPerRead, height - y0);
      const len = rows * width * 4;
      let got = 0;
      while (got < len) {
        const n = fs.readSync(fd, src, got, len - got, offset + y0 * width * 4 + got);
        if (n === 0) throw new Error('raster file is shorter than expected');
        got += n;
      }
      const px = rows * width;
      if (bpp === 3)
        for (let i = 0, o = 0; i < px * 4; i += 4, o += 3) {
          dst[o] = src[i];
          dst[o + 1] = src[i + 1];
          dst[o + 2] = src[i + 2];
        }
      else for (let i = 0; i < px; i++) dst[i] = src[i * 4 + 3];
      await deflater.add(dst, rows);
    }
    const adler = await deflater.finish();
    const trailer = Buffer.alloc(4);
    trailer.writeUInt32BE(adler >>> 0, 0);
    await put(trailer);
  } catch (e) {
    await deflater.abort();
    throw e;
  }
}

/**
 * Encoded image streams (alpha and RGB zlib data) kept in temporary files, so a design
 * that appears on several sheets is compressed once for all their PDFs, and the images
 * of a page are compressed side by side (a small image is a single band, one worker).
 */
export class PdfImageStore {
  private readonly dir: string;
  private readonly encoded = new Map<Raster, Promise<{ alpha: string; rgb: string }>>();
  private seq = 0;

  constructor(
    private readonly opts: DeflateOptions,
    tmpRoot = os.tmpdir(),
  ) {
    this.dir = fs.mkdtempSync(path.join(tmpRoot, 'gangsheet-pdf-'));
  }

  private async encodeTo(raster: Raster, channels: 'rgb' | 'alpha'): Promise<string> {
    const file = path.join(this.dir, `i${this.seq++}.${channels}.z`);
    const fh = await fs.promises.open(file, 'w');
    try {
      await putChannels(raster, channels, { ...this.opts, maxInFlight: 2 }, async (data) => {
        let off = 0;
        while (off < data.length) off += (await fh.write(data, off, data.length - off)).bytesWritten;
      });
    } finally {
      await fh.close();
    }
    return file;
  }

  /** The encoded streams of `raster`, compressing them on first use. */
  get(raster: Raster): Promise<{ alpha: string; rgb: string }> {
    let e = this.encoded.get(raster);
    if (!e) {
      e = Promise.all([this.encodeTo(raster, 'alpha'), this.encodeTo(raster, 'rgb')]).then(([alpha, rgb]) => ({ alpha, rgb }));
      e.catch(() => undefined); // awaited by the caller
      this.encoded.set(raster, e);
    }
    return e;
  }

  /**
   * Compresses every raster not done yet, `parallel` at a time (each is two streams with a
   * few 4 MB bands in flight, so this bounds memory as much as it spreads the work).
   */
  async prepare(rasters: readonly Raster[], parallel = 2): Promise<void> {
    let next = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < rasters.length) await this.get(rasters[next++]);
      }),
    );
  }

  dispose(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

async function copyFile(file: string, put: (data: Buffer) => Promise<void>): Promise<void> {
  const fh = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(READ_BYTES);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      await put(Buffer.from(buf.subarray(0, bytesRead)));
    }
  } finally {
    await fh.close();
  }
}

/**
 * Writes the page to `path`; returns the file size in bytes. Pass a `store` shared by the
 * sheets of one render so each image is compressed once.
 */
export async function writeSheetPdf(path: string | ByteSink, page: PdfPage, opts: DeflateOptions = {}, store?: PdfImageStore): Promise<number> {
  for (const c of page.copies) if (!page.images[c.image]) throw new Error(`PDF copy refers to missing image ${c.image}`);
  const images = store ?? new PdfImageStore(opts);
  try {
    await images.prepare(page.images);
    return await writePdf(path, page, images);
  } finally {
    if (!store) images.dispose();
  }
}

async function writePdf(path: string | ByteSink, page: PdfPage, store: PdfImageStore): Promise<number> {
  const pdf = await PdfWriter.create(path);
  try {
    const catalog = pdf.alloc();
    const pages = pdf.alloc();
    const pageObj = pdf.alloc();
    const imageObjs: number[] = [];
    for (const img of page.images) {
      const predictor = (colors: number) => `/DecodeParms << /Predictor 15 /Colors ${colors} /BitsPerComponent 8 /Columns ${img.width} >>`;
      const common = `/Type /XObject /Subtype /Image /Width ${img.width} /Height ${img.height} /BitsPerComponent 8 /Filter /FlateDecode`;
      const encoded = await store.get(img);
      const mask = pdf.alloc();
      await pdf.stream(mask, `${common} /ColorSpace /DeviceGray ${predictor(1)}`, (put) => copyFile(encoded.alpha, put));
      const obj = pdf.alloc();
      await pdf.stream(obj, `${common} /ColorSpace /DeviceRGB /SMask ${mask} 0 R ${predictor(3)}`, (put) => copyFile(encoded.rgb, put));
      imageObjs.push(obj);
    }
    const ops = page.copies.map((c) => `q ${copyMatrix(c, page.heightPx, page.dpi).map(pdfNum).join(' ')} cm /Im${c.image} Do Q`);
    const labels = page.labels ?? [];
    ops.push(...labelPdfOps(labels, page.heightPx, page.dpi));
    if (page.watermark) ops.push(...watermarkPdfOps(page.watermark, page.widthPx, page.heightPx, page.dpi));
    let fonts = '';
    if (labels.length || page.watermark) {
      const font = pdf.alloc();
      await pdf.object(font, LABEL_FONT_DICT);
      fonts = ` /Font << /FL ${font} 0 R >>`;
    }
    if (page.watermark) fonts += ` /ExtGState << /GW ${WATERMARK_GS_DICT} >>`;
    const content = zlib.deflateSync(Buffer.from(ops.join('\n'), 'latin1'));
    const contentObj = pdf.alloc();
    await pdf.stream(contentObj, '/Filter /FlateDecode', (put) => put(content));
    const k = 72 / page.dpi;
    const xobjects = imageObjs.map((o, i) => `/Im${i} ${o} 0 R`).join(' ');
    await pdf.object(
      pageObj,
      `<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 ${pdfNum(page.widthPx * k)} ${pdfNum(page.heightPx * k)}] ` +
        `/Resources << /XObject << ${xobjects} >>${fonts} >> /Contents ${contentObj} 0 R ` +
        `/Group << /Type /Group /S /Transparency /CS /DeviceRGB >> >>`,
    );
    await pdf.object(pages, `<< /Type /Pages /Kids [${pageObj} 0 R] /Count 1 >>`);
    await pdf.object(catalog, `<< /Type /Catalog /Pages ${pages} 0 R >>`);
    return await pdf.finish(catalog);
  } catch (e) {
    await pdf.abort();
    throw e;
  }
}
