/**
 * The PNG writer's worker thread (png-writer.ts, `FilterPool`): filters and deflates one band
 * of raw rows per message. A job is a band (an ArrayBuffer moved to the worker and back)
 * plus the row above it; the answer is the deflated filtered rows and their Adler-32. For
 * RGBA (bpp 4), bytes left and right of a row's non-transparent span (in this row and the
 * one above) filter to zero under every filter type, so only the span is filtered.
 *
 * Compiled builds start this file's .js; under jest or ts-node `FilterPool` starts its
 * source transpiled (png-writer.ts, `filterWorkerStart`). Node built-ins only, so it runs the
 * same either way.
 */
import { parentPort, workerData } from 'worker_threads';
import * as zlib from 'zlib';

/** The `workerData` of a filter worker: only such a thread answers bands (another worker thread that loads this module does not). */
export const PNG_FILTER_WORKER = 'png-filter';

/** Share of a band's rows (taken from its middle) both strategies compress to choose one (`PNG_STRATEGY_AUTO`). */
const SAMPLE_SHARE = 1 / 32;
/** RLE wins while it writes at most this much more than LZ77 on the sample: it takes about two thirds of the CPU. */
const SAMPLE_RLE_SLACK = 1.03;

/** A band to filter and deflate. */
export interface BandJob {
  id: number;
  /** The band's raw rows (moved to the worker and back). */
  buf: ArrayBuffer;
  rows: number;
  width: number;
  /** Bytes per pixel. */
  bpp: number;
  /** The raw row above the band (null for the image's first band). */
  prev: Uint8Array | null;
  /** PNG filter type 0–4, or -1 for adaptive (per row, libpng's heuristic). */
  filter: number;
  level: number;
  /** zlib strategy, or -1 to choose per band (`PNG_STRATEGY_AUTO`). */
  strategy: number;
  /** The image's last band: finishes the deflate stream. */
  last: boolean;
}

/** The worker's answer: raw deflate data, the Adler-32 and length of the filtered rows, and the band's buffer back. */
export interface BandAnswer {
  id: number;
  data: Uint8Array;
  adler: number;
  length: number;
  buf: ArrayBuffer;
}

type Bytes = Uint8Array;

/** First and one-past-last non-zero pixel of a row, or [0, 0] when it is all zero. */
function span(px: Uint32Array, start: number, width: number): [number, number] {
  let lo = 0;
  while (lo < width && px[start + lo] === 0) lo++;
  if (lo === width) return [0, 0];
  let hi = width;
  while (px[start + hi - 1] === 0) hi--;
  return [lo, hi];
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = p > a ? p - a : a - p;
  const pb = p > b ? p - b : b - p;
  const pc = p > c ? p - c : c - p;
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Filters cur[lo..hi) (bytes, bpp per pixel) with type t into out at o (+ index); prev may be null. */
function apply(t: number, bpp: number, cur: Bytes, c0: number, prev: Bytes | null, p0: number, lo: number, hi: number, out: Bytes, o: number): void {
  if (t === 0) {
    for (let i = lo; i < hi; i++) out[o + i] = cur[c0 + i];
    return;
  }
  if (t === 1) {
    for (let i = lo; i < hi; i++) out[o + i] = cur[c0 + i] - (i >= bpp ? cur[c0 + i - bpp] : 0);
    return;
  }
  if (t === 2) {
    for (let i = lo; i < hi; i++) out[o + i] = cur[c0 + i] - (prev ? prev[p0 + i] : 0);
    return;
  }
  if (t === 3) {
    for (let i = lo; i < hi; i++) out[o + i] = cur[c0 + i] - (((i >= bpp ? cur[c0 + i - bpp] : 0) + (prev ? prev[p0 + i] : 0)) >> 1);
    return;
  }
  for (let i = lo; i < hi; i++) {
    const a = i >= bpp ? cur[c0 + i - bpp] : 0;
    const b = prev ? prev[p0 + i] : 0;
    const c = prev && i >= bpp ? prev[p0 + i - bpp] : 0;
    out[o + i] = cur[c0 + i] - paeth(a, b, c);
  }
}

/**
 * Sub and Up for RGBA, four bytes at once: a pixel is one 32-bit word, and both filters
 * subtract whole pixels (Sub the one to the left, Up the one above), so a bytewise
 * subtraction without borrows between the bytes (SWAR) gives the same bytes as apply()
 * in about a quarter of the time. cur/prev are pixel views; pixels [lo, hi) go to
 * scratch32[0 .. hi-lo), which the caller copies into the unaligned output row.
 */
function applyWords(t: number, cur: Uint32Array, c0: number, prev: Uint32Array | null, p0: number, lo: number, hi: number, scratch32: Uint32Array): void {
  if (t === 2 && prev) {
    for (let i = lo; i < hi; i++) {
      const c = cur[c0 + i];
      const b = prev[p0 + i];
      scratch32[i - lo] = ((c | 0x80808080) - (b & 0x7f7f7f7f)) ^ ((c ^ ~b) & 0x80808080);
    }
  } else if (t === 2) {
    for (let i = lo; i < hi; i++) scratch32[i - lo] = cur[c0 + i];
  } else {
    for (let i = lo; i < hi; i++) {
      const c = cur[c0 + i];
      const b = i > 0 ? cur[c0 + i - 1] : 0;
      scratch32[i - lo] = ((c | 0x80808080) - (b & 0x7f7f7f7f)) ^ ((c ^ ~b) & 0x80808080);
    }
  }
}

/** libpng's heuristic: sum of the filtered bytes read as signed magnitudes. */
function cost(t: number, bpp: number, cur: Bytes, c0: number, prev: Bytes | null, p0: number, lo: number, hi: number, scratch: Bytes): number {
  apply(t, bpp, cur, c0, prev, p0, lo, hi, scratch, -lo);
  let s = 0;
  for (let i = 0; i < hi - lo; i++) {
    const v = scratch[i];
    s += v < 128 ? v : 256 - v;
  }
  return s;
}

// reused from band to band: a fresh 4 MB buffer per band would pile up as garbage
// between collections and show in the process RSS
let outBuf = Buffer.alloc(0);
let scratchBuf = new Uint8Array(0);
let wordBuf = Buffer.alloc(0);

/** Filters and deflates one band (see the file's comment). */
export function filterBand(m: BandJob): { answer: BandAnswer; transfer: ArrayBuffer[] } {
  const { buf, rows, width, bpp, prev, filter, level, strategy, last, id } = m;
  const rb = width * bpp;
  const cur = new Uint8Array(buf, 0, rows * rb);
  const curBytes = Buffer.from(buf, 0, rows * rb);
  const prevBytes = prev ? Buffer.from(prev.buffer, prev.byteOffset, prev.length) : null;
  // spans only for RGBA; other layouts are filtered whole
  const px = bpp === 4 ? new Uint32Array(buf, 0, rows * width) : null;
  const whole: [number, number] = [0, width];
  if (outBuf.length < rows * (rb + 1)) outBuf = Buffer.alloc(rows * (rb + 1));
  const out = outBuf.subarray(0, rows * (rb + 1));
  if (filter < 0 && scratchBuf.length < rb) scratchBuf = new Uint8Array(rb);
  const scratch = scratchBuf;
  if (px && wordBuf.length < rb) wordBuf = Buffer.alloc(rb);
  const words = px ? new Uint32Array(wordBuf.buffer, wordBuf.byteOffset, width) : null;
  const prevPx = prev && px ? new Uint32Array(prev.buffer, prev.byteOffset, width) : null;
  let prevSpan: [number, number] = !prev ? [0, 0] : prevPx ? span(prevPx, 0, width) : whole;
  for (let r = 0; r < rows; r++) {
    const cs = px ? span(px, r * width, width) : whole;
    const above = r === 0 ? prev : cur;
    const aboveBytes = r === 0 ? prevBytes : curBytes;
    const p0 = r === 0 ? 0 : (r - 1) * rb;
    // union of this row's and the above row's spans, plus one pixel for the left neighbour
    let lo: number;
    let hi: number;
    if (cs[1] === 0 && prevSpan[1] === 0) {
      lo = 0;
      hi = 0;
    } else if (cs[1] === 0) {
      lo = prevSpan[0] * bpp;
      hi = Math.min(width, prevSpan[1] + 1) * bpp;
    } else if (prevSpan[1] === 0) {
      lo = cs[0] * bpp;
      hi = Math.min(width, cs[1] + 1) * bpp;
    } else {
      lo = Math.min(cs[0], prevSpan[0]) * bpp;
      hi = Math.min(width, Math.max(cs[1], prevSpan[1]) + 1) * bpp;
    }
    let t = filter;
    if (t < 0) {
      t = 0;
      if (hi > lo) {
        let best = Infinity;
        for (let k = 0; k < 5; k++) {
          const c = cost(k, bpp, cur, r * rb, above, p0, lo, hi, scratch);
          if (c < best) {
            best = c;
            t = k;
          }
        }
      }
    }
    const o = r * (rb + 1);
    out[o] = t;
    out.fill(0, o + 1, o + 1 + lo);
    // Up of a span equal to the row above is all zeros: one native compare instead of a
    // pass (most rows of flat art, and every row of a copy's solid parts)
    if (hi > lo && t === 2 && aboveBytes && curBytes.compare(aboveBytes, p0 + lo, p0 + hi, r * rb + lo, r * rb + hi) === 0) {
      out.fill(0, o + 1 + lo, o + 1 + hi);
    } else if (hi > lo && px && words && (t === 1 || t === 2)) {
      applyWords(t, px, r * width, r === 0 ? prevPx : px, r === 0 ? 0 : (r - 1) * width, lo / 4, hi / 4, words);
      wordBuf.copy(out, o + 1 + lo, 0, hi - lo);
    } else if (hi > lo) apply(t, bpp, cur, r * rb, above, p0, lo, hi, out, o + 1);
    out.fill(0, o + 1 + hi, o + 1 + rb);
    prevSpan = cs;
  }
  // zlib's native (SIMD) Adler-32, read from the trailer of a stored (level 0) stream: a
  // memcpy-speed pass, several times faster than a JavaScript loop over the band
  const stored = zlib.deflateSync(out, { level: 0 });
  const adler = stored.readUInt32BE(stored.length - 4);
  let z = strategy;
  if (z < 0) {
    const n = Math.max(1, Math.round(rows * SAMPLE_SHARE));
    const at = Math.floor((rows - n) / 2) * (rb + 1);
    const sample = out.subarray(at, at + n * (rb + 1));
    const rle = zlib.deflateRawSync(sample, { level, strategy: zlib.constants.Z_RLE }).length;
    const lz = zlib.deflateRawSync(sample, { level, strategy: zlib.constants.Z_DEFAULT_STRATEGY }).length;
    z = rle <= lz * SAMPLE_RLE_SLACK ? zlib.constants.Z_RLE : zlib.constants.Z_DEFAULT_STRATEGY;
  }
  const data = zlib.deflateRawSync(out, { level, strategy: z, finishFlush: last ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH });
  // hand the output over rather than copy it, when it owns its whole memory (pooled small
  // Buffers share theirs)
  const own = data.byteOffset === 0 && data.buffer.byteLength === data.length;
  // the band's buffer goes back to the main thread for the next band
  const answer: BandAnswer = { id, data, adler, length: out.length, buf };
  return { answer, transfer: own ? [data.buffer as ArrayBuffer, buf] : [buf] };
}

const port = parentPort;
if (port && workerData === PNG_FILTER_WORKER)
  port.on('message', (m: BandJob) => {
    try {
      const { answer, transfer } = filterBand(m);
      port.postMessage(answer, transfer);
    } catch (e) {
      port.postMessage({ id: m.id, error: String((e instanceof Error && e.stack) || e) });
    }
  });
