/**
 * A watermark across a whole sheet: a text (a test print's "TEST") repeated on a grid of
 * tiles, rising at 30°, every other row shifted by half a tile, in translucent red over the
 * art and the film alike, every tile about 1.9 × 1.5 in: a copy of any usual size is crossed
 * by it, so a watermarked sheet is useless for production. The PNG (and its preview) draw it with the
 * built-in stroke font (label-font.ts), the PDF writes the same text in Helvetica-Bold, on
 * the same grid, so it can be searched for (`pdftotext -raw` reads it as it runs).
 */
import { HELVETICA_CAP_HEIGHT, helveticaBoldEm, labelCharacters, rasterizeTurnedText, strokeTextUnits } from './label-font';
import { pdfNum } from './pdf-writer';

/** Cap height of the text, inches. */
export const WATERMARK_CAP_IN = 0.5;
/** Free space around the turned text inside its tile, inches. */
const TILE_GAP_IN = 0.3;
/** Rise of the text, radians (counter-clockwise as seen). */
const ANGLE = Math.PI / 6;
/** The colour, and its opacity over what is below. */
export const WATERMARK_RGB = [230, 25, 55] as const;
export const WATERMARK_OPACITY = 0.55;

/** One tile of the watermark as RGBA, with the runs of each row that hold any ink. */
export interface WatermarkTile {
  width: number;
  height: number;
  rgba: Buffer;
  /** Per tile row, [start, end) columns of the pixels with ink. */
  runs: Array<Array<[number, number]>>;
}

/** The text's width for a cap height of 1, in the wider of the two fonts. */
const textWidthPerCap = (text: string) => Math.max(strokeTextUnits(text) / 6, helveticaBoldEm(text) / HELVETICA_CAP_HEIGHT);

/** Tile size in pixels at `dpi`: the turned text's bounding box and the gap. */
export function watermarkTileSize(text: string, dpi: number): { width: number; height: number } {
  const cap = WATERMARK_CAP_IN * dpi;
  const tw = textWidthPerCap(text) * cap;
  const gap = TILE_GAP_IN * dpi;
  return {
    width: Math.max(1, Math.round(tw * Math.cos(ANGLE) + cap * Math.sin(ANGLE) + gap)),
    height: Math.max(1, Math.round(tw * Math.sin(ANGLE) + cap * Math.cos(ANGLE) + gap)),
  };
}

/** The watermark's tile at `dpi` (a few hundred KB at 300 DPI; made once per render). */
export function watermarkTile(text: string, dpi: number): WatermarkTile {
  const { width, height } = watermarkTileSize(text, dpi);
  const cap = Math.max(6, Math.round(WATERMARK_CAP_IN * dpi));
  // the image's y grows downwards: a rising text is turned counter-clockwise, by -ANGLE
  const ink = rasterizeTurnedText(text, width, height, cap, -ANGLE);
  const rgba = Buffer.alloc(width * height * 4);
  const runs: Array<Array<[number, number]>> = [];
  for (let y = 0; y < height; y++) {
    const row: Array<[number, number]> = [];
    let start = -1;
    for (let x = 0; x <= width; x++) {
      const c = x < width ? ink[y * width + x] : 0;
      if (c > 0) {
        const o = (y * width + x) * 4;
        [rgba[o], rgba[o + 1], rgba[o + 2]] = WATERMARK_RGB;
        rgba[o + 3] = Math.round(c * WATERMARK_OPACITY);
        if (start < 0) start = x;
      } else if (start >= 0) {
        row.push([start, x]);
        start = -1;
      }
    }
    runs.push(row);
  }
  return { width, height, rgba, runs };
}

/**
 * The tile under sheet pixel row `y`: its row in the tile, and the sheet column where a tile
 * starts (odd tile rows are shifted by half a tile).
 */
export function tileRowAt(tile: { width: number; height: number }, y: number): { row: number; offset: number } {
  const band = Math.floor(y / tile.height);
  return { row: y - band * tile.height, offset: band % 2 ? -Math.floor(tile.width / 2) : 0 };
}

/**
 * Calls `draw(sheetX, tileIndex, length)` for every run of ink of sheet row `y` on a sheet
 * `sheetWidth` pixels wide: `tileIndex` is the run's first pixel in the tile's RGBA.
 */
export function forEachWatermarkRun(tile: WatermarkTile, y: number, sheetWidth: number, draw: (x: number, tileIndex: number, length: number) => void): void {
  const { row, offset } = tileRowAt(tile, y);
  const runs = tile.runs[row];
  if (!runs.length) return;
  for (let x0 = offset; x0 < sheetWidth; x0 += tile.width)
    for (const [a, b] of runs) {
      const from = Math.max(0, x0 + a);
      const to = Math.min(sheetWidth, x0 + b);
      if (to > from) draw(from, row * tile.width + (from - x0), to - from);
    }
}

/** PDF string literal of the text in WinAnsiEncoding. */
const pdfString = (text: string) => `(${labelCharacters(text).replace(/[\\()]/g, (c) => `\\${c}`)})`;

/**
 * Page content drawing the watermark over a page of `widthPx` × `heightPx` sheet pixels, on
 * the PNG's grid: font resource `/FL` (Helvetica-Bold) and graphics state `/GW` (the opacity,
 * WATERMARK_GS_DICT).
 */
export function watermarkPdfOps(text: string, widthPx: number, heightPx: number, dpi: number): string[] {
  const k = 72 / dpi;
  const tile = watermarkTileSize(text, dpi);
  const capPt = WATERMARK_CAP_IN * 72;
  const size = capPt / HELVETICA_CAP_HEIGHT;
  const tw = helveticaBoldEm(text) * size;
  const [cos, sin] = [Math.cos(ANGLE), Math.sin(ANGLE)];
  const [r, g, b] = WATERMARK_RGB.map((v) => pdfNum(v / 255));
  const ops = [`q /GW gs ${r} ${g} ${b} rg BT /FL ${pdfNum(size)} Tf`];
  for (let band = 0; band * tile.height < heightPx; band++) {
    const offset = band % 2 ? -Math.floor(tile.width / 2) : 0;
    for (let x0 = offset; x0 < widthPx; x0 += tile.width) {
      // the tile's centre in points (PDF y grows upwards), then the text's baseline start
      const cx = (x0 + tile.width / 2) * k;
      const cy = (heightPx - (band + 0.5) * tile.height) * k;
      const ox = cx - (tw / 2) * cos + (capPt / 2) * sin;
      const oy = cy - (tw / 2) * sin - (capPt / 2) * cos;
      ops.push(`${[cos, sin, -sin, cos, ox, oy].map(pdfNum).join(' ')} Tm ${pdfString(text)} Tj`);
    }
  }
  ops.push('ET Q');
  return ops;
}

/** The graphics state the watermark's text is drawn with (its opacity). */
export const WATERMARK_GS_DICT = `<< /Type /ExtGState /ca ${WATERMARK_OPACITY} >>`;
