/**
 * Resampled design rasters, one per (design, pixel size, rotation), kept as raw RGBA files
 * in a temporary folder so memory stays bounded however many designs a sheet holds (the
 * OS page cache keeps hot ones fast). Each design is resampled once per size; the rotated
 * variant is a lossless 90° turn of the already resampled pixels.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CellMask } from '../shape/cells';
import { DesignMask } from '../shape/design-mask';
import { inkClip } from '../shape/shape-layout';
import { compositeOverTransparentLut, DecodeLimits, resampleToFile } from './sharp-io';

export interface RasterSource {
  id: string;
  /** Real path, already checked to be inside the storage root. */
  file: string;
  trim: { left: number; top: number; width: number; height: number };
  sourceWidth: number;
  sourceHeight: number;
  density?: number;
  /**
   * Ink mask of a design nested by its shape: every raster of it is cleared outside its ink
   * footprint grown by `inkReach` (`inkClip`), so no faint resampling spread reaches into
   * the gap the nester kept.
   */
  mask?: DesignMask;
}

export interface Raster {
  width: number;
  height: number;
  fd: number;
  /** Byte offset of the first pixel in the file (a resampled raster keeps libvips' header). */
  offset: number;
}

/** Bytes normalised per read/write of a resampled raster (whole pixels, well under fs's 2^31 - 1 per call). */
const NORMALIZE_BYTES = 8 << 20;

/**
 * Applies the composite LUT (and the ink clip) in place to RGBA bytes whose first pixel is
 * pixel number `first` of a raster `width` pixels wide.
 */
function normalize(buf: Buffer, first: number, width: number, lut: Uint8Array, clip?: CellMask): void {
  let x = first % width;
  let row = clip ? ((first - x) / width) * clip.words : 0;
  for (let i = 0; i < buf.length; i += 4) {
    if (clip) {
      const keep = (clip.bits[row + (x >>> 5)] >>> (x & 31)) & 1;
      if (++x === width) {
        x = 0;
        row += clip.words;
      }
      if (!keep) {
        buf.writeUInt32LE(0, i);
        continue;
      }
    }
    const a = buf[i + 3] << 8;
    buf[i] = lut[a | buf[i]];
    buf[i + 1] = lut[a | buf[i + 1]];
    buf[i + 2] = lut[a | buf[i + 2]];
  }
}

function readFully(fd: number, buf: Buffer, len: number, position: number): void {
  let got = 0;
  while (got < len) {
    const n = fs.readSync(fd, buf, got, len - got, position + got);
    if (n === 0) throw new Error('raster file is shorter than expected');
    got += n;
  }
}

function writeFully(fd: number, buf: Buffer, len: number, position: number): void {
  let written = 0;
  while (written < len) written += fs.writeSync(fd, buf, written, len - written, position + written);
}

export class RasterCache {
  private readonly dir: string;
  private readonly rasters = new Map<string, Promise<Raster>>();
  private readonly fds: number[] = [];
  private seq = 0;

  constructor(
    private readonly limits: DecodeLimits,
    tmpRoot = os.tmpdir(),
  ) {
    this.dir = fs.mkdtempSync(path.join(tmpRoot, 'gangsheet-'));
  }

  /** Upright raster of `src` at exactly width x height (resampled at most once). */
  upright(src: RasterSource, width: number, height: number): Promise<Raster> {
    const key = `${src.id}|${width}x${height}|0`;
    let r = this.rasters.get(key);
    if (!r) {
      r = this.resample(src, width, height);
      this.rasters.set(key, r);
    }
    return r;
  }

  /** The upright raster turned 90° clockwise (width/height are the upright raster's). */
  rotated(src: RasterSource, width: number, height: number): Promise<Raster> {
    const key = `${src.id}|${width}x${height}|90`;
    let r = this.rasters.get(key);
    if (!r) {
      r = this.upright(src, width, height).then((up) => this.rotate(up));
      this.rasters.set(key, r);
    }
    return r;
  }

  /**
   * The upright raster (width x height) turned clockwise by `degrees` (0, 90, 180 or 270).
   * 180 and 270 are half turns of the upright and quarter-turned rasters.
   */
  turned(src: RasterSource, width: number, height: number, degrees: number): Promise<Raster> {
    if (degrees === 0) return this.upright(src, width, height);
    if (degrees === 90) return this.rotated(src, width, height);
    if (degrees !== 180 && degrees !== 270) throw new Error(`unsupported rotation ${degrees}`);
    const key = `${src.id}|${width}x${height}|${degrees}`;
    let r = this.rasters.get(key);
    if (!r) {
      r = this.turned(src, width, height, degrees - 180).then((base) => this.halfTurn(base));
      this.rasters.set(key, r);
    }
    return r;
  }

  /** Half turn: the rows in reverse order, each row's pixels reversed (row by row, lossless). */
  private async halfTurn(up: Raster): Promise<Raster> {
    const W = up.width;
    const H = up.height;
    const { fd } = this.newFile();
    const line = Buffer.alloc(W * 4);
    const px = new Uint32Array(line.buffer, line.byteOffset, W);
    for (let y = 0; y < H; y++) {
      readFully(up.fd, line, W * 4, up.offset + (H - 1 - y) * W * 4);
      px.reverse();
      fs.writeSync(fd, line, 0, W * 4, y * W * 4);
    }
    return { width: W, height: H, fd, offset: 0 };
  }

  private newFile(): { fd: number } {
    return { fd: this.openFile(path.join(this.dir, `r${this.seq++}.rgba`), 'w+') };
  }

  private openFile(file: string, flags: string): number {
    const fd = fs.openSync(file, flags);
    this.fds.push(fd);
    return fd;
  }

  /**
   * Resamples into a libvips ".v" file (streamed to disk by libvips, see resampleToFile),
   * then applies the composite LUT and the ink clip in place, a few MB at a time.
   */
  private async resample(src: RasterSource, width: number, height: number): Promise<Raster> {
    const lut = await compositeOverTransparentLut();
    // opened once libvips has written it (it may replace the file rather than write into it)
    const file = path.join(this.dir, `r${this.seq++}.v`);
    const offset = await resampleToFile(
      {
        file: src.file,
        label: src.id,
        limits: this.limits,
        trim: src.trim,
        sourceWidth: src.sourceWidth,
        sourceHeight: src.sourceHeight,
        density: src.density,
        width,
        height,
      },
      file,
    );
    const fd = this.openFile(file, 'r+');
    const clip = src.mask ? inkClip(src.mask, width, height, src.trim.width) : undefined;
    const total = width * height * 4;
    const buf = Buffer.alloc(Math.min(total, NORMALIZE_BYTES));
    for (let at = 0; at < total; at += buf.length) {
      const len = Math.min(buf.length, total - at);
      const chunk = buf.subarray(0, len);
      readFully(fd, chunk, len, offset + at);
      normalize(chunk, at / 4, width, lut, clip);
      writeFully(fd, chunk, len, offset + at);
    }
    return { width, height, fd, offset };
  }

  /**
   * Clockwise quarter turn, done in blocks of source rows so memory stays at a few MB even
   * for a 20 in design at 300 DPI. Pixels are moved, never resampled.
   */
  private async rotate(up: Raster): Promise<Raster> {
    const W = up.width;
    const H = up.height;
    // rotated image: width H, height W; rotated(x', y') = upright(x = y', y = H - 1 - x')
    const { fd } = this.newFile();
    const block = Math.max(1, Math.min(H, Math.floor((8 << 20) / (W * 4))));
    // Buffer.alloc never hands out a pooled slice, so the Uint32Array views stay aligned
    const src = Buffer.alloc(block * W * 4);
    const dst = Buffer.alloc(block * W * 4);
    for (let r0 = 0; r0 < H; r0 += block) {
      const rows = Math.min(block, H - r0);
      readFully(up.fd, src, rows * W * 4, up.offset + r0 * W * 4);
      const s32 = new Uint32Array(src.buffer, src.byteOffset, rows * W);
      const d32 = new Uint32Array(dst.buffer, dst.byteOffset, rows * W);
      // dst holds, for every rotated row y' (= upright column), the `rows` pixels coming
      // from upright rows r0..r0+rows-1, in rotated x order (bottom row first)
      for (let k = 0; k < rows; k++) {
        const srcRow = k * W;
        const dx = rows - 1 - k;
        for (let x = 0; x < W; x++) d32[x * rows + dx] = s32[srcRow + x];
      }
      const xStart = H - r0 - rows; // rotated x of upright row r0+rows-1
      for (let y = 0; y < W; y++) fs.writeSync(fd, dst, y * rows * 4, rows * 4, (y * H + xStart) * 4);
    }
    return { width: H, height: W, fd, offset: 0 };
  }

  /** Closes and deletes every raster file. */
  dispose(): void {
    for (const fd of this.fds) fs.closeSync(fd);
    this.fds.length = 0;
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
