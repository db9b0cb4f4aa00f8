import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import sharp from 'sharp';
import { layoutSheets } from '../pack/layout';
import { inspectDesign } from '../trim';
import { renderSheets, RenderDesign } from './render-sheet';
import { forEachWatermarkRun, tileRowAt, watermarkTile, WATERMARK_RGB } from './watermark';

let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-watermark-'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const DPI = 100;

describe('watermark tile', () => {
  it('holds the text in translucent red, and its runs are exactly its inked pixels', () => {
    const tile = watermarkTile('TEST', DPI);
    let inked = 0;
    for (let y = 0; y < tile.height; y++) {
      const inRun = new Uint8Array(tile.width);
      for (const [a, b] of tile.runs[y]) inRun.fill(1, a, b);
      for (let x = 0; x < tile.width; x++) {
        const o = (y * tile.width + x) * 4;
        expect(tile.rgba[o + 3] > 0).toBe(inRun[x] === 1);
        if (tile.rgba[o + 3] === 0) continue;
        inked++;
        expect([...tile.rgba.subarray(o, o + 3)]).toEqual([...WATERMARK_RGB]);
        expect(tile.rgba[o + 3]).toBeLessThan(255);
      }
    }
    // strokes of four capitals: several percent of the tile, far from all of it
    expect(inked / (tile.width * tile.height)).toBeGreaterThan(0.03);
    expect(inked / (tile.width * tile.height)).toBeLessThan(0.4);
  });

  it('repeats the tile across a sheet row, every other tile row shifted by half a tile, and clips at the edges', () => {
    const tile = watermarkTile('TEST', DPI);
    expect(tileRowAt(tile, 5)).toEqual({ row: 5, offset: 0 });
    expect(tileRowAt(tile, tile.height + 5)).toEqual({ row: 5, offset: -Math.floor(tile.width / 2) });
    const y = tile.runs.findIndex((r) => r.length > 0);
    const width = Math.round(tile.width * 2.5);
    const seen: Array<[number, number, number]> = [];
    forEachWatermarkRun(tile, y, width, (x, from, n) => seen.push([x, from, n]));
    for (const [x, from, n] of seen) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x + n).toBeLessThanOrEqual(width);
      // the run's pixels are the tile's pixels of that row, at the sheet column modulo the tile
      expect(Math.floor(from / tile.width)).toBe(y);
      expect(from % tile.width).toBe(x % tile.width);
    }
    expect(seen.length).toBeGreaterThanOrEqual(2 * tile.runs[y].length);
  });
});

describe('watermarked sheets', () => {
  it('marks the whole sheet, over the art and the empty film, in the PNG, its preview and the PDF; without the option nothing changes', async () => {
    await sharp({ create: { width: 200, height: 100, channels: 4, background: { r: 20, g: 90, b: 200, alpha: 1 } } }).png().toFile(path.join(root, 'card.png'));
    const info = await inspectDesign('card.png', { root });
    const layout = layoutSheets([{ id: 'card', widthPx: 200, heightPx: 100, width: 2, quantity: 2 }], { width: 8, maxLength: 10, gap: 0.25, margin: 0.25, dpi: DPI, nesting: 'box', rotate: false }, {});
    const designs: RenderDesign[] = [{ id: 'card', path: 'card.png', trim: info.trim, widthPx: info.widthPx, heightPx: info.heightPx }];
    const out = (name: string) => () => ({ png: path.join(root, `${name}.png`), pdf: path.join(root, `${name}.pdf`), preview: path.join(root, `${name}.webp`) });
    await renderSheets({ sheets: layout.sheets, designs, dpi: DPI, root, output: out('plain') });
    await renderSheets({ sheets: layout.sheets, designs, dpi: DPI, root, output: out('marked'), watermark: 'TEST' });
    const read = async (f: string) => sharp(path.join(root, f)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const [plain, marked] = await Promise.all([read('plain.png'), read('marked.png')]);
    expect([marked.info.width, marked.info.height]).toEqual([plain.info.width, plain.info.height]);
    const sheet = layout.sheets[0];
    const W = sheet.widthPx;
    const onArt = (x: number, y: number) => sheet.placements.some((p) => x >= p.px.x && x < p.px.x + p.px.width && y >= p.px.y && y < p.px.y + p.px.height);
    let filmMarked = 0;
    let film = 0;
    let artMarked = 0;
    let art = 0;
    for (let y = 0; y < sheet.lengthPx; y++)
      for (let x = 0; x < W; x++) {
        const i = (y * W + x) * 4;
        const differs = [0, 1, 2, 3].some((c) => plain.data[i + c] !== marked.data[i + c]);
        if (onArt(x, y)) {
          art++;
          if (differs) artMarked++;
        } else {
          film++;
          expect(plain.data[i + 3]).toBe(0);
          if (marked.data[i + 3] > 0) filmMarked++;
        }
      }
    // ink on the empty film, and across the art: a copy cannot be cut out clean
    expect(filmMarked / film).toBeGreaterThan(0.03);
    expect(artMarked / art).toBeGreaterThan(0.03);
    // every quarter of the sheet carries some of it
    for (const [qx, qy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
      let n = 0;
      for (let y = (qy * sheet.lengthPx) >> 1; y < ((qy + 1) * sheet.lengthPx) >> 1; y++)
        for (let x = (qx * W) >> 1; x < ((qx + 1) * W) >> 1; x++) if ([0, 1, 2, 3].some((c) => plain.data[(y * W + x) * 4 + c] !== marked.data[(y * W + x) * 4 + c])) n++;
      expect(n).toBeGreaterThan(0);
    }
    const [plainPreview, markedPreview] = await Promise.all([read('plain.webp'), read('marked.webp')]);
    expect(Buffer.compare(plainPreview.data, markedPreview.data)).not.toBe(0);
    const pdfText = (f: string) => execFileSync('pdftotext', ['-raw', path.join(root, f), '-']).toString('utf8');
    expect(pdfText('plain.pdf')).not.toContain('TEST');
    expect(pdfText('marked.pdf').match(/TEST/g)?.length ?? 0).toBeGreaterThanOrEqual(4);
  }, 60_000);
});
