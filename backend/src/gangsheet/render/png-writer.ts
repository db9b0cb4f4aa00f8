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
import { ByteSink, fileSink } from './byte-sink';
import * as os from 'os';
import * as path from 'path';
import { Worker } from 'worker_threads';
import * as zlib from 'zlib';
import { BandAnswer, BandJob, PNG_FILTER_WORKER } from './png-filter.worker';

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
 * sum of absolute filtered values, libpng's heuristic). docs/gangsheet.md ("Print files")
 * explains the defaults.
 */
export type PngFilter = 'none' | 'sub' | 'up' | 'average' | 'paeth' | 'adaptive';

/**
 * Defaults (checked with bench/render.bench.ts, docs/gangsheet.md "Print files"): Up
 * filtering at zlib level 1, with the strategy chosen per band (PNG_STRATEGY_AUTO). Paeth
 * and adaptive filtering save a few per cent of bytes for several times the filter CPU.
 */
export const DEFAULT_PNG_FILTER: PngFilter = 'up';
export const DEFAULT_PNG_LEVEL = 1;
/**
 * Per band, Z_RLE or LZ77 (Z_DEFAULT_STRATEGY), whichever writes fewer bytes on a slice of
 * the band (png-filter.worker.ts; RLE when nearly as short, since it takes less CPU).
 * Up turns transparent film and flat colour into zero runs, which RLE codes with shorter
 * codes than LZ77 (distance 1), so RLE writes fewer bytes on most artwork. But where copies
 * of one design repeat side by side and level 1's short hash chains find them, LZ77 writes
 * far fewer bytes. Each band is its own deflate segment, so mixing strategies is free.
 */
export const PNG_STRATEGY_AUTO = -1;
export const DEFAULT_PNG_STRATEGY = PNG_STRATEGY_AUTO;

const FILTER_CODES: Record<PngFilter, number> = { none: 0, sub: 1, up: 2, average: 3, paeth: 4, adaptive: -1 };

/**
 * How a filter worker starts: from the compiled png-filter.worker.js next to this file, or,
 * when the engine runs from its TypeScript sources (jest, ts-node), from that module's
 * source transpiled once per process here (the TypeScript compiler is loaded already, and a
 * worker that compiled its own source would take seconds to start on a busy machine).
 */
let workerStart: { source: string; eval: boolean } | undefined;
function filterWorkerStart(): { source: string; eval: boolean } {
  if (workerStart) return workerStart;
  if (!__filename.endsWith('.ts')) return (workerStart = { source: path.join(__dirname, 'png-filter.worker.js'), eval: false });
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a dev dependency, present wherever the sources run
  const ts = require('typescript') as typeof import('typescript');
  const js = ts.transpileModule(fs.readFileSync(path.join(__dirname, 'png-filter.worker.ts'), 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  return (workerStart = { source: `(function (exports, require) {\n${js}\n})({}, require);`, eval: true });
}

type BandResult = Omit<BandAnswer, 'id'>;

/**
 * Worker threads that filter and deflate bands; jobs go to the least busy worker. One pool
 * serves a whole render (every PNG band and PDF image of every sheet), and close() ends it.
 */
export class FilterPool {
  private readonly workers: { w: Worker; busy: number }[] = [];
  private readonly waiting = new Map<number, { resolve: (r: BandResult) => void; reject: (e: Error) => void }>();
  private seq = 0;

  private closed = false;

  /** `count` defaults to one worker per core, at most 4. */
  constructor(count = Math.min(4, os.availableParallelism())) {
    for (let i = 0; i < Math.max(1, count); i++) this.spawn();
  }

  private spawn(): void {
    const start = filterWorkerStart();
    const w = new Worker(start.source, { eval: start.eval, workerData: PNG_FILTER_WORKER });
    const entry = { w, busy: 0 };
    w.on('message', (m: { id: number; error?: string } & BandResult) => {
      entry.busy--;
      const p = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (!p) return;
      if (m.error) p.reject(new Error(`PNG worker: ${m.error}`));
      else p.resolve(m);
    });
    // a dead worker fails every pending job (we cannot tell which were its own) and is replaced
    const die = (e: Error) => {
      const i = this.workers.indexOf(entry);
      if (i < 0 || this.closed) return;
      this.workers.splice(i, 1);
      for (const p of this.waiting.values()) p.reject(e);
      this.waiting.clear();
      this.spawn();
    };
    w.on('error', die);
    w.on('exit', (code) => die(new Error(`PNG worker exited with code ${code}`)));
    this.workers.push(entry);
  }

  get size(): number {
    return this.workers.length;
  }

  /** Runs a job; `transfer` lists buffers that move to the worker instead of being copied. */
  run(job: Omit<BandJob, 'id'>, transfer: ArrayBuffer[] = []): Promise<BandResult> {
    if (this.closed) return Promise.reject(new Error('the PNG worker pool is closed'));
    const entry = this.workers.reduce((a, b) => (b.busy < a.busy ? b : a));
    const id = this.seq++;
    entry.busy++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      entry.w.postMessage({ ...job, id }, transfer);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((e) => e.w.terminate()));
  }
}

export interface DeflateOptions {
  /** Row filter, default DEFAULT_PNG_FILTER. */
  filter?: PngFilter;
  /** zlib level, default DEFAULT_PNG_LEVEL. */
  compressionLevel?: number;
  /** zlib strategy (zlib.constants.Z_*), or PNG_STRATEGY_AUTO (the default: chosen per band). */
  strategy?: number;
  /** Bands filtered/compressed at once; default 2 per worker. */
  maxInFlight?: number;
  /** Worker pool to use (shared by a whole render); without one, the writer runs its own. */
  pool?: FilterPool;
}

/**
 * PNG-filtered, deflated rows of `bpp` bytes per pixel, band by band on the worker pool,
 * handed to `sink` in order as raw deflate data (the caller adds the zlib header and the
 * Adler-32 that finish() returns). PNG IDAT and PDF FlateDecode streams with a PNG
 * predictor (/Predictor 15) share this: the predictor is exactly a PNG row filter.
 */
export class BandDeflater {
  private inFlight: Promise<BandResult>[] = [];
  /** Band buffers back from the workers, ready for the next band. */
  private readonly free: ArrayBuffer[] = [];
  /** The buffer band() handed out, until commit() sends it. */
  private current: ArrayBuffer | null = null;
  private rowsAdded = 0;
  private adler = 1;
  /** Last raw row of the previous band (the "above" row of the next band's first row). */
  private lastRow: Uint8Array | null = null;
  private readonly maxInFlight: number;
  private readonly pool: FilterPool;
  private readonly ownPool: boolean;

  constructor(
    readonly width: number,
    readonly height: number,
    private readonly bpp: 1 | 3 | 4,
    private readonly opts: DeflateOptions,
    private readonly sink: (data: Buffer) => Promise<void>,
  ) {
    this.ownPool = !opts.pool;
    this.pool = opts.pool ?? new FilterPool();
    this.maxInFlight = Math.max(1, opts.maxInFlight ?? 2 * this.pool.size);
  }

  private async flushOne(): Promise<void> {
    const band = await this.inFlight.shift()!;
    this.adler = adler32Combine(this.adler, band.adler, band.length);
    this.free.push(band.buf);
    if (band.data.length) await this.sink(Buffer.from(band.data.buffer, band.data.byteOffset, band.data.length));
  }

  /**
   * Adds `rowCount` rows read from `rows`, where row r's pixels start at r * stride + skip
   * (PNG scanline buffers have a filter-byte slot: stride width*bpp+1, skip 1). The rows are
   * copied, so `rows` may be reused as soon as this resolves. The band that completes the
   * image finishes the deflate stream.
   */
  async add(rows: Buffer, rowCount: number, stride = this.width * this.bpp, skip = 0): Promise<void> {
    const rb = this.width * this.bpp;
    if (rows.length < (rowCount - 1) * stride + skip + rb) throw new Error('band size does not match the row count');
    const slot = this.band(rowCount);
    if (stride === rb && skip === 0) rows.copy(slot, 0, 0, rowCount * rb);
    else for (let r = 0; r < rowCount; r++) rows.copy(slot, r * rb, r * stride + skip, r * stride + skip + rb);
    await this.commit(rowCount);
  }

  /**
   * The buffer of the next band (rowCount rows of width*bpp bytes, no filter bytes), to be
   * filled in place and handed over with commit(rowCount). The buffer then moves to a worker
   * (transferred, not copied) and comes back with the result, so a band is never copied on
   * its way and at most maxInFlight + 1 band buffers exist. Plain memory rather than a
   * SharedArrayBuffer: V8 fills and copies shared memory several times slower. Its content
   * is left from an earlier band.
   */
  band(rowCount: number): Buffer {
    const size = rowCount * this.width * this.bpp;
    if (!this.current || this.current.byteLength < size) {
      const i = this.free.findIndex((b) => b.byteLength >= size);
      this.current = i >= 0 ? this.free.splice(i, 1)[0] : new ArrayBuffer(size);
    }
    return Buffer.from(this.current, 0, size);
  }

  /** Hands the band filled through band(rowCount) to the workers. */
  async commit(rowCount: number): Promise<void> {
    const rb = this.width * this.bpp;
    this.rowsAdded += rowCount;
    if (this.rowsAdded > this.height) throw new Error('more rows than the image height');
    const buf = this.current;
    if (!buf || buf.byteLength < rowCount * rb) throw new Error('commit without a band of that size');
    this.current = null;
    const prev = this.lastRow;
    this.lastRow = new Uint8Array(buf, (rowCount - 1) * rb, rb).slice();
    const band = this.pool.run({
      buf,
      rows: rowCount,
      width: this.width,
      bpp: this.bpp,
      prev,
      filter: FILTER_CODES[this.opts.filter ?? DEFAULT_PNG_FILTER],
      level: this.opts.compressionLevel ?? DEFAULT_PNG_LEVEL,
      strategy: this.opts.strategy ?? DEFAULT_PNG_STRATEGY,
      last: this.rowsAdded === this.height,
    }, [buf]);
    band.catch(() => undefined); // awaited in flushOne; avoid an unhandled rejection meanwhile
    this.inFlight.push(band);
    while (this.inFlight.length >= this.maxInFlight) await this.flushOne();
  }

  /** Flushes every band; returns the Adler-32 of all filtered bytes (the zlib trailer). */
  async finish(): Promise<number> {
    if (this.rowsAdded !== this.height) throw new Error('row count does not match the image height');
    while (this.inFlight.length) await this.flushOne();
    if (this.ownPool) await this.pool.close();
    return this.adler;
  }

  async abort(): Promise<void> {
    await Promise.allSettled(this.inFlight);
    this.inFlight = [];
    if (this.ownPool) await this.pool.close();
  }
}

/** zlib stream header: deflate, 32K window (FLEVEL is informative only). */
export const ZLIB_HEADER = Buffer.from([0x78, 0x9c]);

export interface PngWriterOptions extends DeflateOptions {
  dpi: number;
}

export class StreamingPngWriter {
  private bytes = 0;
  private firstIdat = true;
  private readonly deflater: BandDeflater;

  private constructor(
    private readonly sink: ByteSink,
    readonly width: number,
    readonly height: number,
    opts: PngWriterOptions,
  ) {
    this.deflater = new BandDeflater(width, height, 4, opts, async (data) => {
      await this.writeChunk('IDAT', this.firstIdat ? [ZLIB_HEADER, data] : [data]);
      this.firstIdat = false;
    });
  }

  /** Writes to the file `target`, or into a sink (see ByteSink). */
  static async create(target: string | ByteSink, width: number, height: number, opts: PngWriterOptions): Promise<StreamingPngWriter> {
    if (width < 1 || height < 1 || width > 0x7fffffff || height > 0x7fffffff) throw new Error('PNG size out of range');
    const sink = typeof target === 'string' ? await fileSink(target) : target;
    const w = new StreamingPngWriter(sink, width, height, opts);
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
    await this.sink.write(buf);
    this.bytes += buf.length;
  }

  /**
   * A chunk of `parts` written as its header, the parts themselves and its CRC: a band's
   * compressed data goes to the sink as the worker returned it, never copied.
   */
  private async writeChunk(type: string, parts: Buffer[]): Promise<void> {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(parts.reduce((n, p) => n + p.length, 0), 0);
    head.write(type, 4, 'ascii');
    let crc = zlib.crc32(head.subarray(4));
    for (const p of parts) crc = zlib.crc32(p, crc);
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc >>> 0, 0);
    await this.write(head);
    for (const p of parts) await this.write(p);
    await this.write(tail);
  }

  /**
   * Adds rows laid out as PNG scanlines (each row: one ignored filter-byte slot, then
   * width*4 RGBA bytes). The rows are copied, so `rows` may be reused once this resolves.
   */
  async addRows(rows: Buffer, rowCount: number): Promise<void> {
    if (rows.length !== rowCount * (1 + this.width * 4)) throw new Error('band size does not match the row count');
    await this.deflater.add(rows, rowCount, 1 + this.width * 4, 1);
  }

  /** Buffer for the next rowCount rows of RGBA (width*4 bytes each), filled in place; see BandDeflater.band. */
  band(rowCount: number): Buffer {
    return this.deflater.band(rowCount);
  }

  /** Adds the rows filled through band(rowCount). */
  async commitBand(rowCount: number): Promise<void> {
    await this.deflater.commit(rowCount);
  }

  /** Writes the remaining data, the Adler-32 trailer and IEND; returns the file size. */
  async finish(): Promise<number> {
    const adler = await this.deflater.finish();
    const trailer = Buffer.alloc(4);
    trailer.writeUInt32BE(adler >>> 0, 0);
    await this.write(Buffer.concat([chunk('IDAT', trailer), chunk('IEND', Buffer.alloc(0))]));
    await this.sink.finish();
    return this.bytes;
  }

  /** Stops the writer and removes what it wrote. */
  async abort(): Promise<void> {
    await this.deflater.abort();
    await this.sink.abort();
  }
}
