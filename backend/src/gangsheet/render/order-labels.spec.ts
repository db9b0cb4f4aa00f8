import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import sharp from 'sharp';
import { alphaMask } from '../shape/design-mask';
import { layoutSheets, LayoutDesign, LayoutResult, Nesting } from '../pack/layout';
import { inspectDesign } from '../trim';
import { rasterizeText, strokeTextUnits } from './label-font';
import { LABEL_CAP_IN, labelRaster, labelSpace, orderLabelText, readingRanks } from './order-labels';
import { renderSheets, RenderDesign } from './render-sheet';

let root: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-labels-'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('label font', () => {
  it('draws every digit, "#", "·" and "/" with ink inside the cap height, and unknown characters as "?"', () => {
    const capPx = 21;
    for (const text of ['0123456789', '#', '·', '/', 'ABCXYZ', 'é']) {
      const w = Math.ceil(strokeTextUnits(text) * (capPx / 6)) + 4;
      const h = 31;
      const m = rasterizeText(text, w, h, capPx);
      const inked = [...m].filter((v) => v > 128).length;
      expect(inked).toBeGreaterThan(0);
      // nothing above the cap line or below the baseline beyond half the stroke
      const top = (h - capPx) / 2 - 3;
      const bottom = (h + capPx) / 2 + 3;
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (m[y * w + x] > 0) expect(y >= top && y <= bottom).toBe(true);
    }
    expect(rasterizeText('é', 30, 31, 21)).toEqual(rasterizeText('?', 30, 31, 21));
    expect(rasterizeText('a', 30, 31, 21)).toEqual(rasterizeText('A', 30, 31, 21));
  });

  it('sizes the label for a 7 pt text (at least 6 pt) that fits its box', () => {
    expect(LABEL_CAP_IN * 300).toBeGreaterThanOrEqual(((6 * 0.718) / 72) * 300);
    const s = labelSpace([orderLabelText('5012', 1, 3), orderLabelText('5012', 2, 3)]);
    expect(s.height).toBeGreaterThan(LABEL_CAP_IN);
    expect(s.width).toBeGreaterThan(0.4);
    expect(s.width).toBeLessThan(0.8);
    expect(orderLabelText('#5012', 1, 3)).toBe('#5012 · 2/3');
  });

  it('turns the label raster with the copy', () => {
    const up = labelRaster('#12 · 1/2', 120, 36, 0, 300);
    const turned = labelRaster('#12 · 1/2', 36, 120, 90, 300);
    // pixel (x, y) of the upright label lands at (h - 1 - y, x) when turned clockwise
    for (const [x, y] of [[10, 5], [60, 18], [100, 30]]) expect(turned.subarray((x * 36 + (35 - y)) * 4, (x * 36 + (35 - y)) * 4 + 4)).toEqual(up.subarray((y * 120 + x) * 4, (y * 120 + x) * 4 + 4));
  });

  it('ranks copies in reading order per design', () => {
    const ranks = readingRanks([
      { sheet: 1, designId: 'a', copy: 0, x: 0, y: 0 },
      { sheet: 0, designId: 'a', copy: 1, x: 5, y: 2 },
      { sheet: 0, designId: 'a', copy: 2, x: 1, y: 2 },
      { sheet: 0, designId: 'b', copy: 0, x: 0, y: 9 },
    ]);
    expect([...ranks.entries()]).toEqual([['a#2', 0], ['a#1', 1], ['b#0', 0], ['a#0', 2]]);
  });

  it('numbers staggered copies of a row left to right, rows from the top', () => {
    // three copies nested in one row, each a little higher than the one to its left, and a second row
    const ranks = readingRanks([
      { sheet: 0, designId: 'a', copy: 0, x: 0, y: 0.5, height: 3 },
      { sheet: 0, designId: 'a', copy: 1, x: 4, y: 0.3, height: 3 },
      { sheet: 0, designId: 'a', copy: 2, x: 8, y: 0.1, height: 3 },
      { sheet: 0, designId: 'a', copy: 3, x: 1, y: 3.6, height: 3 },
      { sheet: 0, designId: 'a', copy: 4, x: 0, y: 1.7, height: 1 }, // a short copy: its own row (more than half its height below)
    ]);
    expect(['a#0', 'a#1', 'a#2', 'a#4', 'a#3'].map((k) => ranks.get(k))).toEqual([0, 1, 2, 3, 4]);
  });
});

/** A disc design (so true-shape nesting has a shape to nest), `side` px, one colour. */
async function disc(name: string, side: number, rgb: [number, number, number]) {
  const px = Buffer.alloc(side * side * 4);
  const r = side / 2;
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++)
      if ((x + 0.5 - r) ** 2 + (y + 0.5 - r) ** 2 <= r * r) px.set([...rgb, 255], (y * side + x) * 4);
  await sharp(px, { raw: { width: side, height: side, channels: 4 } }).png().toFile(path.join(root, name));
  const alpha = new Uint8Array(side * side);
  for (let i = 0; i < side * side; i++) alpha[i] = px[i * 4 + 3];
  return alphaMask(alpha, side, { left: 0, top: 0, width: side, height: side });
}

async function square(name: string, w: number, h: number, rgb: [number, number, number]) {
  await sharp({ create: { width: w, height: h, channels: 4, background: { r: rgb[0], g: rgb[1], b: rgb[2], alpha: 1 } } }).png().toFile(path.join(root, name));
}

const DPI = 300;

describe('labelled sheets', () => {
  it.each<Nesting>(['box', 'shape'])('prints a label beside every %s-nested copy, inside its reserved space and off every design, in the PNG and the PDF', async (nesting) => {
    const mask = await disc('disc.png', 300, [200, 30, 30]);
    await square('card.png', 450, 300, [20, 90, 200]);
    const texts = { disc: [0, 1, 2].map((i) => orderLabelText('5012', i, 3)), card: [0, 1].map((i) => orderLabelText('77', i, 2)) };
    const designs: LayoutDesign[] = [
      { id: 'disc', widthPx: 300, heightPx: 300, width: 1, quantity: 3, mask, label: labelSpace(texts.disc) },
      { id: 'card', widthPx: 450, heightPx: 300, width: 1.5, quantity: 2, label: labelSpace(texts.card) },
    ];
    const layout: LayoutResult = layoutSheets(designs, { width: 4, maxLength: 20, gap: 0.1, margin: 0.1, dpi: DPI, nesting, rotate: true }, { maxEvaluations: 20, compactMoves: 20 });
    const render: RenderDesign[] = [];
    for (const id of ['disc', 'card'] as const) {
      const info = await inspectDesign(`${id}.png`, { root });
      render.push({ id, path: `${id}.png`, trim: info.trim, widthPx: info.widthPx, heightPx: info.heightPx, mask: nesting === 'shape' ? info.mask : undefined, labels: texts[id] });
    }
    const out = path.join(root, nesting);
    fs.mkdirSync(out);
    await renderSheets({ sheets: layout.sheets, designs: render, dpi: DPI, root, output: () => ({ png: path.join(out, 's.png'), pdf: path.join(out, 's.pdf') }) });
    await renderSheets({ sheets: layout.sheets, designs: render.map((d) => ({ ...d, labels: undefined })), dpi: DPI, root, output: () => ({ png: path.join(out, 'plain.png') }) });
    const read = async (f: string) => (await sharp(path.join(out, f)).raw().toBuffer({ resolveWithObject: true })).data;
    const [withLabels, plain] = await Promise.all([read('s.png'), read('plain.png')]);
    const sheet = layout.sheets[0];
    const W = sheet.widthPx;
    const inLabel = (x: number, y: number) => sheet.placements.some((p) => p.label && x >= p.label.px.x && x < p.label.px.x + p.label.px.width && y >= p.label.px.y && y < p.label.px.y + p.label.px.height);
    let changedOutside = 0;
    for (let y = 0; y < sheet.lengthPx; y++)
      for (let x = 0; x < W; x++) {
        const i = (y * W + x) * 4;
        const same = withLabels[i] === plain[i] && withLabels[i + 1] === plain[i + 1] && withLabels[i + 2] === plain[i + 2] && withLabels[i + 3] === plain[i + 3];
        if (!same && !inLabel(x, y)) changedOutside++;
        // no design ink under a label: the label space is kept free of every copy's ink
        if (inLabel(x, y)) expect(plain[i + 3]).toBe(0);
      }
    expect(changedOutside).toBe(0);
    for (const p of sheet.placements) {
      const l = p.label!.px;
      let dark = 0;
      for (let y = l.y; y < l.y + l.height; y++) for (let x = l.x; x < l.x + l.width; x++) if (withLabels[(y * W + x) * 4 + 3] === 255 && withLabels[(y * W + x) * 4] < 80) dark++;
      // text strokes, roughly a tenth of the box
      expect(dark).toBeGreaterThan(l.width * l.height * 0.05);
    }
    const text = execFileSync('pdftotext', [path.join(out, 's.pdf'), '-']).toString('utf8');
    for (const t of [...texts.disc, ...texts.card]) expect(text).toContain(t);
  }, 60_000);
});
