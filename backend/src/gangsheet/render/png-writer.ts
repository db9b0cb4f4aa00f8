/**
 * Streaming PNG writer for very tall RGBA images, compressing on both cores.
 *
 * The IDAT zlib stream is made of independently deflated bands (the pigz trick): every
 * band but the last ends with a sync flush (byte-aligned, no final-block bit), so their
 * concatenation is one valid deflate stream. Bands are compressed in libuv's thread pool
 * while the main thread composes the next band. The zlib trailer (Adler-32 of all
 * uncompressed bytes) is supplied by the caller, who can compute it from per-row
 * checksums without touching the pixels again (see adler32Combine).
 */
import * as fs from 'fs';
import * as zlib from 'zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const ADLER_BASE = 65521;

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(zlib.crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** Adler-32 of `buf` continuing from `adler` (1 for a fresh checksum). */
export function adler32(buf: Uint8Array, adler = 1, start = 0, end = buf.length): number {
  let a = adler & 0xffff;
  let b = adler >>> 16;
  let i = start;
  while (i < end) {
    const stop = Math.min(i + 3800, end);
    for (; i < stop; i++) {
      a += buf[i];
      b += a;
    }
    a %= ADLER_BASE;
    b %= ADLER_BASE;
  }
  return ((b << 16) | a) >>> 0;
}

/** zlib's adler32_combine: checksum of A+B from the checksums of A and B and B's length. */
export function adler32Combine(adler1: number, adler2: number, len2: number): number {
  const rem = len2 % ADLER_BASE;
  let sum1 = adler1 & 0xffff;
  let sum2 = (rem * sum1) % ADLER_BASE;
  sum1 += (adler2 & 0xffff) + ADLER_BASE - 1;
  sum2 += ((adler1 >>> 16) & 0xffff) + ((adler2 >>> 16) & 0xffff) + ADLER_BASE - rem;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum2 >= ADLER_BASE * 2) sum2 -= ADLER_BASE * 2;
  if (sum2 >= ADLER_BASE) sum2 -= ADLER_BASE;
  return (sum1 + sum2 * 65536) >>> 0;
}

/** Adler-32 of `len` zero bytes, for transparent runs. */
export function adler32Zeros(len: number): number {
  return ((len % ADLER_BASE) * 65536 + 1) >>> 0;
}

export interface PngWriterOptions {
  dpi: number;
  /** zlib level, default 6 (the same default as sharp's PNG encoder). */
  compressionLevel?: number;
  /** Bands compressing at once; default 4 (libuv's default pool size). */
  maxInFlight?: number;
}

export class StreamingPngWriter {
  private inFlight: Promise<Buffer>[] = [];
  private bytes = 0;
  private firstIdat = true;
  private rowsWritten = 0;

  private constructor(
    private readonly fh: fs.promises.FileHandle,
    readonly width: number,
    readonly height: number,
    private readonly opts: PngWriterOptions,
  ) {}

  static async create(path: string, width: number, height: number, opts: PngWriterOptions): Promise<StreamingPngWriter> {
    if (width < 1 || height < 1 || width > 0x7fffffff || height > 0x7fffffff) throw new Error('PNG size out of range');
    const fh = await fs.promises.open(path, 'w');
    const w = new StreamingPngWriter(fh, width, height, opts);
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(width, 0);
    ihdr.writeUInt32BE(height, 4);
    ihdr[8] = 8; // bit depth
    ihdr[9] = 6; // RGBA
    const srgb = Buffer.from([0]); // rendering intent: perceptual
    const phys = Buffer.alloc(9);
    const ppm = Math.round(opts.dpi / 0.0254);
    phys.writeUInt32BE(ppm, 0);
    phys.writeUInt32BE(ppm, 4);
    phys[8] = 1; // unit: metre
    await w.write(Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('sRGB', srgb), chunk('pHYs', phys)]));
    return w;
  }

  private async write(buf: Buffer): Promise<void> {
    let off = 0;
    while (off < buf.length) {
      const { bytesWritten } = await this.fh.write(buf, off, buf.length - off);
      off += bytesWritten;
    }
    this.bytes += buf.length;
  }

  private async flushOne(): Promise<void> {
    const data = await this.inFlight.shift()!;
    let payload = data;
    if (this.firstIdat) {
      // zlib header: deflate, 32K window; FLEVEL is informative only
      payload = Buffer.concat([Buffer.from([0x78, 0x9c]), data]);
      this.firstIdat = false;
    }
    if (payload.length > 0) await this.write(chunk('IDAT', payload));
  }

  /**
   * Adds filtered scanlines (each row: filter byte 0, then width*4 bytes). The buffer must
   * not be reused until the returned promise resolves. `last` finishes the deflate stream.
   */
  async addRows(rows: Buffer, rowCount: number, last: boolean): Promise<void> {
    if (rows.length !== rowCount * (1 + this.width * 4)) throw new Error('band size does not match the row count');
    this.rowsWritten += rowCount;
    if (last && this.rowsWritten !== this.height) throw new Error('row count does not match the PNG height');
    const level = this.opts.compressionLevel ?? 6;
    this.inFlight.push(
      new Promise<Buffer>((resolve, reject) =>
        zlib.deflateRaw(rows, { level, finishFlush: last ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH }, (err, out) =>
          err ? reject(err) : resolve(out),
        ),
      ),
    );
    while (this.inFlight.length >= (this.opts.maxInFlight ?? 4)) await this.flushOne();
  }

  /** Writes the remaining data, the Adler-32 trailer and IEND; returns the file size. */
  async finish(adler: number): Promise<number> {
    while (this.inFlight.length) await this.flushOne();
    const trailer = Buffer.alloc(4);
    trailer.writeUInt32BE(adler >>> 0, 0);
    await this.write(Buffer.concat([chunk('IDAT', trailer), chunk('IEND', Buffer.alloc(0))]));
    await this.fh.close();
    return this.bytes;
  }

  async abort(): Promise<void> {
    await Promise.allSettled(this.inFlight);
    this.inFlight = [];
    await this.fh.close().catch(() => undefined);
  }
}
