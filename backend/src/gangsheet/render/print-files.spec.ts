/**
 * Print files: the filtered PNG encoding and the PDF page. External readers (Debian's
 * poppler-utils, pngcheck and ImageMagick) are real programs; CI installs them.
 */
import { execFileSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import sharp from 'sharp';
import { maxPremultipliedDiff, popplerRgba, rawRgba } from '../../../test/utils/raster';
import { buildJob } from '../build';
import { layoutSheets, SheetLayout } from '../pack/layout';
import { Rng } from '../pack/rng';
import { inspectDesign } from '../trim';
import { copyMatrix, writeSheetPdf } from './pdf-sheet';
import { PngFilter, StreamingPngWriter } from './png-writer';
import { RenderDesign, renderSheets } from './render-sheet';

let root: string;
let out: string;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-pf-root-'));
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-pf-out-'));
  // photo-like art (smooth blotches plus fine grain, as in bench:render) in a rounded transparent mask, and flat vector-style art
  const blotches = await sharp({ create: { width: 20, height: 15, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .resize(160, 120, { kernel: 'cubic' })
    .png()
    .toBuffer();
  const grain = await sharp({ create: { width: 160, height: 120, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 6 } } })
    .png()
    .toBuffer();
  const noise = await sharp(blotches).composite([{ input: grain, blend: 'overlay' }]).png().toBuffer();
  const mask = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120"><rect x="4" y="4" width="152" height="112" rx="30" fill="#fff"/></svg>');
  await sharp(noise).ensureAlpha().composite([{ input: mask, blend: 'dest-in' }]).png().toFile(path.join(root, 'photo.png'));
  await sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="90" height="60"><rect x="2" y="2" width="86" height="56" rx="12" fill="#e33" fill-opacity="0.8"/><circle cx="30" cy="30" r="16" fill="#123"/></svg>',
    ),
  )
    .png()
    .toFile(path.join(root, 'flat.png'));
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(out, { recursive: true, force: true });
});

/** A design of a rectangle sheet: without its ink mask (masks go only with shape-nested sheets). */
async function boxDesign(f: string): Promise<RenderDesign> {
  const { mask: _mask, ...info } = await inspectDesign(f, { root });
  return { id: f, path: f, ...info };
}

const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** Filter type byte of every row, from the inflated IDAT stream. */
function filterTypes(file: string): number[] {
  const png = fs.readFileSync(file);
  const width = png.readUInt32BE(16);
  const idat: Buffer[] = [];
  for (let p = 8; p < png.length; ) {
    const n = png.readUInt32BE(p);
    if (png.toString('ascii', p + 4, p + 8) === 'IDAT') idat.push(png.subarray(p + 8, p + 8 + n));
    p += 12 + n;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat)); // throws on a wrong Adler-32
  const stride = 1 + width * 4;
  return Array.from({ length: raw.length / stride }, (_, r) => raw[r * stride]);
}

/** pngcheck (libpng-independent checker) and ImageMagick (libpng) both accept the file and agree on its pixels. */
function externalPngChecks(file: string, expectedSha: string): void {
  expect(execFileSync('pngcheck', [file], { encoding: 'utf8' })).toMatch(/^OK:/);
  const magick = execFileSync('convert', [file, '-depth', '8', 'rgba:-'], { maxBuffer: 1 << 28 });
  expect(sha256(magick)).toBe(expectedSha);
}

describe('PNG encoding', () => {
  const FILTERS: PngFilter[] = ['none', 'sub', 'up', 'average', 'paeth', 'adaptive'];

  it('decodes to exactly the rows given with every filter, across band boundaries', async () => {
    const W = 37;
    const H = 61;
    const rng = new Rng(3);
    const rows = Buffer.alloc(H * (1 + W * 4));
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        // transparent margins, smooth colour ramps and some noise, so every filter branch runs
        if (x < (y % 9) || x > W - 1 - (y % 5) || y % 17 === 0) continue;
        const o = y * (1 + W * 4) + 1 + x * 4;
        rows[o] = (x * 7 + y * 3 + rng.int(8)) & 255;
        rows[o + 1] = (y * 5) & 255;
        rows[o + 2] = rng.int(256);
        rows[o + 3] = x % 3 === 0 ? 255 : 40 + rng.int(200);
      }
    const expected = Buffer.alloc(W * H * 4);
    for (let y = 0; y < H; y++) rows.copy(expected, y * W * 4, y * (1 + W * 4) + 1, (y + 1) * (1 + W * 4));
    for (const filter of FILTERS) {
      const file = path.join(out, `filter-${filter}.png`);
      const w = await StreamingPngWriter.create(file, W, H, { dpi: 300, filter });
      // uneven bands, including one-row bands, so the row above often comes from the previous band
      for (let y = 0, k = 0; y < H; k++) {
        const n = Math.min(H - y, [1, 7, 2, 13, 1][k % 5]);
        await w.addRows(rows.subarray(y * (1 + W * 4), (y + n) * (1 + W * 4)), n);
        y += n;
      }
      await w.finish();
      const img = await rawRgba(file);
      expect(img.data.equals(expected)).toBe(true);
      externalPngChecks(file, sha256(expected));
      const types = new Set(filterTypes(file));
      if (filter === 'adaptive') expect(types.size).toBeGreaterThan(1);
      else expect([...types]).toEqual([FILTERS.indexOf(filter)]);
    }
  });

  // copies of smooth art side by side: the band choice must find LZ77 here (Z_RLE alone wrote
  // 1.2x the old encoding's bytes on this sheet)
  it('renders the same pixels as the old encoding (filter 0, zlib 6), in fewer bytes', async () => {
    const designs: RenderDesign[] = [];
    for (const f of ['photo.png', 'flat.png']) designs.push(await boxDesign(f));
    const layout = layoutSheets(
      designs.map((d) => ({ id: d.id, widthPx: d.trim.width, heightPx: d.trim.height, width: 1.2, quantity: 12 })),
      { width: 5, gap: 0.1, dpi: 100 },
      { maxEvaluations: 2000, timeLimitMs: 60_000 },
    );
    const render = (name: string, extra: { pngFilter?: PngFilter; compressionLevel?: number; pngStrategy?: number }) =>
      renderSheets({ sheets: layout.sheets, designs, dpi: 100, root, output: () => ({ png: path.join(out, name) }), ...extra });
    const [old] = await render('old.png', { pngFilter: 'none', compressionLevel: 6, pngStrategy: zlib.constants.Z_DEFAULT_STRATEGY });
    const [now] = await render('new.png', {});
    const oldPx = await rawRgba(old.path);
    const newPx = await rawRgba(now.path);
    expect(sha256(newPx.data)).toBe(sha256(oldPx.data));
    // 0.85-0.90x the old bytes with LZ77 on these bands, depending on the layout; Z_RLE would write about 1.16x
    expect(now.bytes).toBeLessThan(old.bytes * 0.95);
    expect(new Set(filterTypes(now.path))).not.toEqual(new Set([0]));
    externalPngChecks(now.path, sha256(oldPx.data));
  });
});

function pdfImages(file: string): { width: number; height: number; smask: boolean }[] {
  const text = fs.readFileSync(file).toString('latin1');
  return [...text.matchAll(/\/Subtype \/Image \/Width (\d+) \/Height (\d+)[^>]*?\/ColorSpace \/DeviceRGB( \/SMask)?/g)].map((m) => ({
    width: Number(m[1]),
    height: Number(m[2]),
    smask: !!m[3],
  }));
}

describe('PDF print files', () => {
  it('renders in poppler to the same pixels as the PNG, with each design embedded once', async () => {
    const designs: RenderDesign[] = [];
    for (const f of ['photo.png', 'flat.png']) designs.push(await boxDesign(f));
    // 7 copies of each design, every third one turned, one per grid cell (so none overlap)
    const sizes = [
      [100, 75],
      [80, 52], // below the 86 x 56 source pixels: the PDF image is the same resampled raster
    ];
    const placements: SheetLayout['placements'] = [];
    for (let k = 0; k < 14; k++) {
      const [w, h] = sizes[k % 2];
      const rotated = k % 3 === 0;
      const px = { x: 3 + (k % 4) * 125, y: 2 + Math.floor(k / 4) * 125, width: rotated ? h : w, height: rotated ? w : h };
      placements.push({ designId: designs[k % 2].id, copy: k, x: px.x / 100, y: px.y / 100, width: px.width / 100, height: px.height / 100, px, rotated });
    }
    const turned: SheetLayout = { index: 0, widthPx: 505, lengthPx: 503, length: 5.03, placements };
    const [r] = await renderSheets({
      sheets: [turned],
      designs,
      dpi: 100,
      root,
      output: () => ({ png: path.join(out, 'both.png'), pdf: path.join(out, 'both.pdf'), preview: path.join(out, 'both.webp') }),
    });
    expect(r.files.map((f) => f.format)).toEqual(['png', 'pdf']);
    expect(r.files[1].bytes).toBe(fs.statSync(path.join(out, 'both.pdf')).size);
    const info = execFileSync('pdfinfo', [path.join(out, 'both.pdf')], { encoding: 'utf8' });
    expect(info).toMatch(new RegExp(`Page size:\\s+${(turned.widthPx * 0.72).toFixed(2).replace(/\.?0+$/, '')} x ${(turned.lengthPx * 0.72).toFixed(2).replace(/\.?0+$/, '')} pts`));
    const png = await rawRgba(path.join(out, 'both.png'));
    const pdf = await popplerRgba(path.join(out, 'both.pdf'), 100);
    expect([pdf.width, pdf.height]).toEqual([png.width, png.height]);
    expect(maxPremultipliedDiff(png.data, pdf.data)).toBeLessThanOrEqual(1);
    // 2 designs, 14 copies (upright and turned): 2 images, each with its soft mask, 14 draws
    expect(pdfImages(path.join(out, 'both.pdf'))).toHaveLength(2);
    expect(pdfImages(path.join(out, 'both.pdf')).every((i) => i.smask)).toBe(true);
    // pdftoppm (poppler's Splash renderer) reads it too; it resamples images slightly even at
    // 1:1 (edges and noise differ by a few levels), so it gets a mean-difference check only
    execFileSync('pdftoppm', ['-png', '-singlefile', '-r', '100', path.join(out, 'both.pdf'), path.join(out, 'both-splash')]);
    const splash = await sharp(path.join(out, 'both-splash.png')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([splash.info.width, splash.info.height]).toEqual([png.width, png.height]);
    let sum = 0;
    for (let i = 0; i < png.width * png.height; i++) {
      const a = png.data[i * 4 + 3] / 255;
      for (let c = 0; c < 3; c++) sum += Math.abs(png.data[i * 4 + c] * a + 255 * (1 - a) - splash.data[i * 3 + c]);
    }
    // measured 1.7 levels (smoothing of the noise-like photo); a misplaced or wrongly turned copy gives tens
    expect(sum / (png.width * png.height * 3)).toBeLessThan(4);
  });

  it('places an image turned by 0, 90, 180 and 270 degrees clockwise', async () => {
    // 6 x 3 opaque image, every pixel its own colour
    const iw = 6;
    const ih = 3;
    const upright = Buffer.alloc(iw * ih * 4);
    for (let i = 0; i < iw * ih; i++) upright.set([i * 13, 255 - i * 11, (i * 57) % 256, 255], i * 4);
    const rasterFile = path.join(out, 'turn.rgba');
    fs.writeFileSync(rasterFile, upright);
    const fd = fs.openSync(rasterFile, 'r');
    try {
      const boxes = [
        { x: 1, y: 1, turn: 0 as const },
        { x: 9, y: 1, turn: 90 as const },
        { x: 1, y: 9, turn: 180 as const },
        { x: 9, y: 9, turn: 270 as const },
      ];
      const copies = boxes.map((b) => ({ image: 0, x: b.x, y: b.y, turn: b.turn, width: b.turn % 180 ? ih : iw, height: b.turn % 180 ? iw : ih }));
      const file = path.join(out, 'turns.pdf');
      await writeSheetPdf(file, { widthPx: 17, heightPx: 17, dpi: 72, images: [{ width: iw, height: ih, fd, offset: 0 }], copies });
      const img = await popplerRgba(file, 72);
      const at = (x: number, y: number) => [...img.data.subarray((y * 17 + x) * 4, (y * 17 + x) * 4 + 4)];
      const src = (u: number, v: number) => [...upright.subarray((v * iw + u) * 4, (v * iw + u) * 4 + 4)];
      for (let v = 0; v < ih; v++)
        for (let u = 0; u < iw; u++) {
          expect(at(1 + u, 1 + v)).toEqual(src(u, v)); // upright
          expect(at(9 + (ih - 1 - v), 1 + u)).toEqual(src(u, v)); // clockwise: row v becomes column ih-1-v
          expect(at(1 + (iw - 1 - u), 9 + (ih - 1 - v))).toEqual(src(u, v)); // half turn
          expect(at(9 + v, 9 + (iw - 1 - u))).toEqual(src(u, v)); // three quarters
        }
      expect(at(0, 0)[3]).toBe(0);
    } finally {
      fs.closeSync(fd);
    }
    expect(copyMatrix({ image: 0, x: 0, y: 0, width: 3, height: 6, turn: 90 }, 10, 72)).toEqual([0, -6, 3, 0, 0, 10]);
  });

  it('embeds a small source at its own pixels (never upscaled) and an SVG at the sheet DPI', async () => {
    fs.writeFileSync(
      path.join(root, 'logo.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg" width="72" height="36"><rect width="72" height="36" fill="#00f"/></svg>',
    );
    const designs: RenderDesign[] = [];
    for (const f of ['flat.png', 'logo.svg']) designs.push(await boxDesign(f));
    // flat.png is 86 x 56 px of art; at 3 in and 100 DPI a copy is 300 px wide
    const layout = layoutSheets(
      designs.map((d) => ({ id: d.id, widthPx: d.trim.width, heightPx: d.trim.height, width: 3, quantity: 2 })),
      { width: 7, gap: 0.1, dpi: 100, rotate: false },
      { maxEvaluations: 500, timeLimitMs: 60_000 },
    );
    const [r] = await renderSheets({ sheets: layout.sheets, designs, dpi: 100, root, output: () => ({ pdf: path.join(out, 'small.pdf') }) });
    expect(r.files.map((f) => f.format)).toEqual(['pdf']);
    expect(r.path).toBe(path.join(out, 'small.pdf'));
    const flat = designs[0].trim;
    expect(pdfImages(r.path).map((i) => [i.width, i.height]).sort((a, b) => a[0] - b[0])).toEqual([
      [flat.width, flat.height],
      [300, 150],
    ]);
  });

  it('gangsheet build writes sheet-N.png and/or sheet-N.pdf from "sheet.formats"', async () => {
    const job = (formats?: unknown) => {
      const file = path.join(root, `job-${String(formats)}.json`);
      fs.writeFileSync(file, JSON.stringify({ sheet: { width: 4, dpi: 50, ...(formats ? { formats } : {}) }, designs: [{ file: 'flat.png', width: 1, quantity: 3 }] }));
      return file;
    };
    const both = path.join(out, 'build-both');
    const report = await buildJob(job(['png', 'pdf']), both, { timeLimitMs: 100 });
    expect(fs.readdirSync(both).sort()).toEqual(['layout.json', 'report.json', 'sheet-1.pdf', 'sheet-1.png', 'sheet-1.preview.webp']);
    expect(report.files[0].formats.map((f) => f.file)).toEqual(['sheet-1.png', 'sheet-1.pdf']);
    const def = path.join(out, 'build-default');
    await buildJob(job(), def, { timeLimitMs: 100 });
    expect(fs.readdirSync(def).filter((f) => f.startsWith('sheet-1.'))).toEqual(['sheet-1.png', 'sheet-1.preview.webp']);
    const pdfOnly = path.join(out, 'build-pdf');
    await buildJob(job(['pdf']), pdfOnly, { timeLimitMs: 100 });
    expect(fs.readdirSync(pdfOnly).filter((f) => f.startsWith('sheet-1.'))).toEqual(['sheet-1.pdf', 'sheet-1.preview.webp']);
    await expect(buildJob(job(['tiff']), path.join(out, 'bad'), { timeLimitMs: 100 })).rejects.toThrow(/"sheet.formats"/);
  });
});
