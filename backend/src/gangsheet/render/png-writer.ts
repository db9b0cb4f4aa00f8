/**
 * Streaming PNG writer for very tall RGBA images, filtering and compressing on every core.
 *
 * The IDAT zlib stream is made of independently deflated bands (the pigz trick): every
 * band but the last ends with a sync flush (byte-aligned, no final-block bit), so their
 * concatenation is one valid deflate stream. Each band is filtered (PNG row filters),
 * checksummed and deflated in a worker thread while the main thread composes the next
 * band; the zlib trailer is the bands' Adler-32 values joined with adler32Combine.
 * Filtering only changes the encoding: decoded pixels are exactly the rows given.
 */
import * as fs from 'fs';
import * as os from 'os';
import { Worker } from 'worker_threads';
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

/**
 * PNG row filter: one type for every row, or `adaptive` (per row, the type with the smallest
 * sum of absolute filtered values, libpng's heuristic). See docs/gangsheet.md for the
 * measurements behind the defaults.
 */
export type PngFilter = 'none' | 'sub' | 'up' | 'average' | 'paeth' | 'adaptive';

export interface PngWriterOptions {
  dpi: number;
  /** zlib level, default DEFAULT_PNG_LEVEL. */
  compressionLevel?: number;
  /** zlib strategy (zlib.constants.Z_*), default Z_DEFAULT_STRATEGY. */
  strategy?: number;
  /** Row filter, default DEFAULT_PNG_FILTER. */
  filter?: PngFilter;
  /** Worker threads; default one per core (at most 4). */
  workers?: number;
  /** Bands filtered/compressed at once; default 2 per worker. */
  maxInFlight?: number;
}

export const DEFAULT_PNG_FILTER: PngFilter = 'paeth';
export const DEFAULT_PNG_LEVEL = 3;

const FILTER_CODES: Record<PngFilter, number> = { none: 0, sub: 1, up: 2, average: 3, paeth: 4, adaptive: -1 };

/**
 * The worker, as plain JavaScript so it runs the same under ts-node, jest and the compiled
 * build. A job is a band of raw RGBA rows in a shared buffer plus the row above it; the
 * answer is the deflated filtered rows and their Adler-32. Bytes left and right of a row's
 * non-transparent span (in this row and the one above) filter to zero under every filter
 * type, so only the span is filtered and checksummed byte by byte.
 */
const WORKER_SOURCE = String.raw`
const { parentPort } = require('worker_threads');
const zlib = require('zlib');
const BASE = 65521;

function adlerBytes(adler, buf, start, end) {
  let a = adler & 0xffff, b = adler >>> 16, i = start;
  while (i < end) {
    const stop = Math.min(i + 3800, end);
    for (; i < stop; i++) { a += buf[i]; b += a; }
    a %= BASE; b %= BASE;
  }
  return ((b << 16) | a) >>> 0;
}
function adlerZeros(adler, n) {
  const a = adler & 0xffff;
  const b = ((adler >>> 16) + a * (n % BASE)) % BASE;
  return ((b << 16) | a) >>> 0;
}
/** First and one-past-last non-zero pixel of a row, or [0, 0] when it is all zero. */
function span(px, start, width) {
  let lo = 0;
  while (lo < width && px[start + lo] === 0) lo++;
  if (lo === width) return [0, 0];
  let hi = width;
  while (px[start + hi - 1] === 0) hi--;
  return [lo, hi];
}
function paeth(a, b, c) {
  const p = a + b - c;
  const pa = p > a ? p - a : a - p, pb = p > b ? p - b : b - p, pc = p > c ? p - c : c - p;
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
/** Filters cur[lo..hi) (bytes) with type t into out at o (+ index), prev may be null. */
function apply(t, cur, c0, prev, p0, lo, hi, out, o) {
  if (t === 0) { for (let i = lo; i < hi; i++) out[o + i] = cur[c0 + i]; return; }
  if (t === 1) { for (let i = lo; i < hi; i++) out[o + i] = cur[c0 + i] - (i >= 4 ? cur[c0 + i - 4] : 0); return; }
  if (t === 2) { for (let i = lo; i < hi; i++) out[o + i] = cur[c0 + i] - (prev ? prev[p0 + i] : 0); return; }
  if (t === 3) {
    for (let i = lo; i < hi; i++) out[o + i] = cur[c0 + i] - (((i >= 4 ? cur[c0 + i - 4] : 0) + (prev ? prev[p0 + i] : 0)) >> 1);
    return;
  }
  for (let i = lo; i < hi; i++) {
    const a = i >= 4 ? cur[c0 + i - 4] : 0, b = prev ? prev[p0 + i] : 0, c = prev && i >= 4 ? prev[p0 + i - 4] : 0;
    out[o + i] = cur[c0 + i] - paeth(a, b, c);
  }
}
/** libpng's heuristic: sum of the filtered bytes read as signed magnitudes. */
function cost(t, cur, c0, prev, p0, lo, hi, scratch) {
  apply(t, cur, c0, prev, p0, lo, hi, scratch, -lo);
  let s = 0;
  for (let i = 0; i < hi - lo; i++) { const v = scratch[i]; s += v < 128 ? v : 256 - v; }
  return s;
}

parentPort.on('message', (m) => {
  try {
    const { sab, offset, rows, width, prev, filter, level, strategy, last, id } = m;
    const rb = width * 4;
    const cur = new Uint8Array(sab, offset, rows * rb);
    const px = new Uint32Array(sab, offset, rows * width);
    const out = Buffer.alloc(rows * (rb + 1));
    const scratch = filter < 0 ? new Uint8Array(rb) : null;
    let prevSpan = prev ? span(new Uint32Array(prev.buffer, prev.byteOffset, width), 0, width) : [0, 0];
    let adler = 1;
    for (let r = 0; r < rows; r++) {
      const cs = span(px, r * width, width);
      const above = r === 0 ? prev : cur;
      const p0 = r === 0 ? 0 : (r - 1) * rb;
      // union of this row's and the above row's spans, plus one pixel for the left neighbour
      let lo, hi;
      if (cs[1] === 0 && prevSpan[1] === 0) { lo = 0; hi = 0; }
      else if (cs[1] === 0) { lo = prevSpan[0] * 4; hi = Math.min(width, prevSpan[1] + 1) * 4; }
      else if (prevSpan[1] === 0) { lo = cs[0] * 4; hi = Math.min(width, cs[1] + 1) * 4; }
      else { lo = Math.min(cs[0], prevSpan[0]) * 4; hi = Math.min(width, Math.max(cs[1], prevSpan[1]) + 1) * 4; }
      let t = filter;
      if (t < 0) {
        t = 0;
        if (hi > lo) {
          let best = Infinity;
          for (let k = 0; k < 5; k++) {
            const c = cost(k, cur, r * rb, above, p0, lo, hi, scratch);
            if (c < best) { best = c; t = k; }
          }
        }
      }
      const o = r * (rb + 1);
      out[o] = t;
      if (hi > lo) apply(t, cur, r * rb, above, p0, lo, hi, out, o + 1);
      adler = adlerBytes(adler, out, o, o + 1);
      adler = adlerZeros(adler, lo);
      adler = adlerBytes(adler, out, o + 1 + lo, o + 1 + hi);
      adler = adlerZeros(adler, rb - hi);
      prevSpan = cs;
    }
    const data = zlib.deflateRawSync(out, { level, strategy, finishFlush: last ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH });
    parentPort.postMessage({ id, data, adler, length: out.length });
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: String(e && e.stack || e) });
  }
});
`;

interface BandResult {
  data: Uint8Array;
  adler: number;
  length: number;
}

/** A few worker threads that filter and deflate bands; jobs go to the least busy one. */
class FilterPool {
  private readonly workers: { w: Worker; busy: number }[] = [];
  private readonly waiting = new Map<number, { resolve: (r: BandResult) => void; reject: (e: Error) => void }>();
  private seq = 0;
  private failed: Error | null = null;

  constructor(count: number) {
    for (let i = 0; i < count; i++) {
      const w = new Worker(WORKER_SOURCE, { eval: true });
      const entry = { w, busy: 0 };
      w.on('message', (m: { id: number; error?: string } & BandResult) => {
        entry.busy--;
        const p = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        if (!p) return;
        if (m.error) p.reject(new Error(`PNG worker: ${m.error}`));
        else p.resolve(m);
      });
      w.on('error', (e) => this.fail(e));
      w.on('exit', (code) => {
        if (code !== 0) this.fail(new Error(`PNG worker exited with code ${code}`));
      });
      this.workers.push(entry);
    }
  }

  private fail(e: Error): void {
    this.failed = e;
    for (const p of this.waiting.values()) p.reject(e);
    this.waiting.clear();
  }

  run(job: Record<string, unknown>): Promise<BandResult> {
    if (this.failed) return Promise.reject(this.failed);
    const entry = this.workers.reduce((a, b) => (b.busy < a.busy ? b : a));
    const id = this.seq++;
    entry.busy++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      entry.w.postMessage({ ...job, id });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((e) => e.w.terminate()));
  }
}

export class StreamingPngWriter {
  private inFlight: Promise<BandResult>[] = [];
  private bytes = 0;
  private firstIdat = true;
  private rowsWritten = 0;
  private adler = 1;
  private readonly pool: FilterPool;
  private readonly slots: SharedArrayBuffer[] = [];
  private slotIndex = 0;
  /** Last raw row of the previous band (the "above" row of the next band's first row). */
  private lastRow: Uint8Array | null = null;

  private constructor(
    private readonly fh: fs.promises.FileHandle,
    readonly width: number,
    readonly height: number,
    private readonly opts: PngWriterOptions,
  ) {
    const workers = Math.max(1, opts.workers ?? Math.min(4, os.availableParallelism()));
    this.pool = new FilterPool(workers);
    this.maxInFlight = Math.max(1, opts.maxInFlight ?? 2 * workers);
  }

  private readonly maxInFlight: number;

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
    const band = await this.inFlight.shift()!;
    this.adler = adler32Combine(this.adler, band.adler, band.length);
    let payload = Buffer.from(band.data.buffer, band.data.byteOffset, band.data.length);
    if (this.firstIdat) {
      // zlib header: deflate, 32K window; FLEVEL is informative only
      payload = Buffer.concat([Buffer.from([0x78, 0x9c]), payload]);
      this.firstIdat = false;
    }
    if (payload.length > 0) await this.write(chunk('IDAT', payload));
  }

  /**
   * Adds rows laid out as PNG scanlines (each row: one ignored filter byte slot, then
   * width*4 RGBA bytes). The rows are copied, so `rows` may be reused once this resolves.
   * `last` finishes the deflate stream.
   */
  async addRows(rows: Buffer, rowCount: number, last: boolean): Promise<void> {
    const rb = this.width * 4;
    if (rows.length !== rowCount * (1 + rb)) throw new Error('band size does not match the row count');
    this.rowsWritten += rowCount;
    if (last && this.rowsWritten !== this.height) throw new Error('row count does not match the PNG height');
    // a slot is reused only after its band was flushed (at most maxInFlight bands pending)
    const k = this.slotIndex++ % this.maxInFlight;
    if (!this.slots[k] || this.slots[k].byteLength < rowCount * rb) this.slots[k] = new SharedArrayBuffer(rowCount * rb);
    const slot = Buffer.from(this.slots[k], 0, rowCount * rb);
    for (let r = 0; r < rowCount; r++) rows.copy(slot, r * rb, r * (1 + rb) + 1, (r + 1) * (1 + rb));
    const prev = this.lastRow;
    this.lastRow = new Uint8Array(slot.subarray((rowCount - 1) * rb, rowCount * rb));
    const level = this.opts.compressionLevel ?? DEFAULT_PNG_LEVEL;
    const band = this.pool.run({
      sab: this.slots[k],
      offset: 0,
      rows: rowCount,
      width: this.width,
      prev,
      filter: FILTER_CODES[this.opts.filter ?? DEFAULT_PNG_FILTER],
      level,
      strategy: this.opts.strategy ?? zlib.constants.Z_DEFAULT_STRATEGY,
      last,
    });
    band.catch(() => undefined); // awaited in flushOne; avoid an unhandled rejection meanwhile
    this.inFlight.push(band);
    while (this.inFlight.length >= this.maxInFlight) await this.flushOne();
  }

  /** Writes the remaining data, the Adler-32 trailer and IEND; returns the file size. */
  async finish(): Promise<number> {
    try {
      while (this.inFlight.length) await this.flushOne();
    } finally {
      await this.pool.close();
    }
    const trailer = Buffer.alloc(4);
    trailer.writeUInt32BE(this.adler >>> 0, 0);
    await this.write(Buffer.concat([chunk('IDAT', trailer), chunk('IEND', Buffer.alloc(0))]));
    await this.fh.close();
    return this.bytes;
  }

  async abort(): Promise<void> {
    await Promise.allSettled(this.inFlight);
    this.inFlight = [];
    await this.pool.close();
    await this.fh.close().catch(() => undefined);
  }
}
