/**
 * Resampled design rasters, one per (design, pixel size, rotation), kept as raw RGBA files
 * in a temporary folder so memory stays bounded however many designs a sheet holds (the
 * OS page cache keeps hot ones fast). Each design is resampled once per size; the rotated
 * variant is a lossless 90° turn of the already resampled pixels.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Writable } from 'stream';
import { CellMask } from '../shape/cells';
import { DesignMask } from '../shape/design-mask';
import { inkClip } from '../shape/shape-layout';
import { compositeOverTransparentLut, DecodeLimits, resampleToStream } from './sharp-io';

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
}

/** Writable that applies the composite LUT (and the ink clip) to RGBA bytes and writes them to fd. */
class NormalizingSink extends Writable {
  private carry = Buffer.alloc(0);
  private filePos = 0;

  constructor(
    private readonly fd: number,
    private readonly lut: Uint8Array,
    private readonly clip?: CellMask,
  ) {
    super();
  }

  _write(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    try {
      // sharp hands over whole output buffers it no longer uses: normalise them in place
      // rather than copying (a 10 in design at 300 DPI is ~30 MB)
      let buf = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
      const usable = buf.length - (buf.length % 4);
      this.carry = Buffer.from(buf.subarray(usable));
      buf = buf.subarray(0, usable);
      const lut = this.lut;
      const clip = this.clip;
      // pixel position of the chunk's first pixel, for the clip
      let x = 0;
      let row = 0;
      if (clip) {
        const q = this.filePos / 4;
        x = q % clip.w;
        row = ((q - x) / clip.w) * clip.words;
      }
      for (let i = 0; i < usable; i += 4) {
        if (clip) {
          const keep = (clip.bits[row + (x >>> 5)] >>> (x & 31)) & 1;
          if (++x === clip.w) {
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
      let written = 0;
      while (written < usable) written += fs.writeSync(this.fd, buf, written, usable - written, this.filePos + written);
      this.filePos += usable;
      cb();
    } catch (e) {
      cb(e as Error);
    }
  }

  get bytesWritten(): number {
    return this.filePos;
  }
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
    const fd = this.newFile();
    const line = Buffer.alloc(W * 4);
    const px = new Uint32Array(line.buffer, line.byteOffset, W);
    for (let y = 0; y < H; y++) {
      fs.readSync(up.fd, line, 0, W * 4, (H - 1 - y) * W * 4);
      px.reverse();
      fs.writeSync(fd, line, 0, W * 4, y * W * 4);
    }
    return { width: W, height: H, fd };
  }

  private newFile(): number {
    const fd = fs.openSync(path.join(this.dir, `r${this.seq++}.rgba`), 'w+');
    this.fds.push(fd);
    return fd;
  }

  private async resample(src: RasterSource, width: number, height: number): Promise<Raster> {
    const lut = await compositeOverTransparentLut();
    const fd = this.newFile();
    const sink = new NormalizingSink(fd, lut, src.mask ? inkClip(src.mask, width, height, src.trim.width) : undefined);
    await resampleToStream(
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
      sink,
    );
    if (sink.bytesWritten !== width * height * 4) throw new Error(`design ${src.id}: resampled size mismatch`);
    return { width, height, fd };
  }

  /**
   * Clockwise quarter turn, done in blocks of source rows so memory stays at a few MB even
   * for a 20 in design at 300 DPI. Pixels are moved, never resampled.
   */
  private async rotate(up: Raster): Promise<Raster> {
    const W = up.width;
    const H = up.height;
    // rotated image: width H, height W; rotated(x', y') = upright(x = y', y = H - 1 - x')
    const fd = this.newFile();
    const block = Math.max(1, Math.min(H, Math.floor((8 << 20) / (W * 4))));
    // Buffer.alloc never hands out a pooled slice, so the Uint32Array views stay aligned
    const src = Buffer.alloc(block * W * 4);
    const dst = Buffer.alloc(block * W * 4);
    for (let r0 = 0; r0 < H; r0 += block) {
      const rows = Math.min(block, H - r0);
      fs.readSync(up.fd, src, 0, rows * W * 4, r0 * W * 4);
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
    return { width: H, height: W, fd };
  }

  /** Closes and deletes every raster file. */
  dispose(): void {
    for (const fd of this.fds) fs.closeSync(fd);
    this.fds.length = 0;
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
