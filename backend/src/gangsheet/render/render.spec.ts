import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import sharp from 'sharp';
import { layoutSheets, SheetLayout } from '../pack/layout';
import { inspectDesign } from '../trim';
import { renderSheet } from './render-sheet';
import { UnsafePathError } from './safe-path';
import { DesignDecodeError } from './sharp-io';

let root: string;
let out: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-root-'));
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-out-'));
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(out, { recursive: true, force: true });
});

/** 8 x 4 opaque design where every pixel has its own colour, padded by 2 transparent px. */
async function writeKnownDesign(name: string, alpha = 255): Promise<Buffer> {
  const w = 12;
  const h = 8;
  const px = Buffer.alloc(w * h * 4);
  const art = Buffer.alloc(8 * 4 * 4);
  for (let y = 0; y < 4; y++)
    for (let x = 0; x < 8; x++) {
      const c = [x * 30 + 5, y * 60 + 7, (x * 7 + y * 13) % 256, alpha];
      c.forEach((v, k) => {
        px[((y + 2) * w + x + 2) * 4 + k] = v;
        art[(y * 8 + x) * 4 + k] = v;
      });
    }
  await sharp(px, { raw: { width: w, height: h, channels: 4 } }).png().toFile(path.join(root, name));
  return art;
}

function rgbaAt(buf: Buffer, width: number, x: number, y: number): number[] {
  const i = (y * width + x) * 4;
  return [buf[i], buf[i + 1], buf[i + 2], buf[i + 3]];
}

async function decode(file: string) {
  const { data, info } = await sharp(file).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function manualSheet(placements: SheetLayout['placements'], widthPx: number, lengthPx: number): SheetLayout {
  return { index: 0, widthPx, lengthPx, length: lengthPx / 10, placements };
}

describe('inspectDesign', () => {
  it('measures the visible art (trims transparent edges)', async () => {
    await writeKnownDesign('known.png');
    const info = await inspectDesign('known.png', { root });
    expect(info).toMatchObject({ widthPx: 12, heightPx: 8, trim: { left: 2, top: 2, width: 8, height: 4 }, hasAlpha: true, format: 'png' });
  });

  it('rejects a corrupt file with a clear error', async () => {
    const good = fs.readFileSync(path.join(root, 'known.png'));
    fs.writeFileSync(path.join(root, 'truncated.png'), good.subarray(0, Math.floor(good.length / 2)));
    fs.writeFileSync(path.join(root, 'garbage.png'), Buffer.from('definitely not an image'));
    await expect(inspectDesign('truncated.png', { root })).rejects.toThrow(DesignDecodeError);
    await expect(inspectDesign('garbage.png', { root })).rejects.toThrow(/garbage\.png: not a readable image/);
  });

  it('rejects an image over the pixel limit', async () => {
    await sharp({ create: { width: 300, height: 300, channels: 4, background: '#f00' } }).png().toFile(path.join(root, 'big.png'));
    await expect(inspectDesign('big.png', { root, limits: { maxPixels: 200 * 200 } })).rejects.toThrow(/pixel limit/);
    await expect(inspectDesign('big.png', { root, limits: { maxPixels: 300 * 300 } })).resolves.toMatchObject({ widthPx: 300 });
  });

  it('never reads outside the storage root', async () => {
    const outside = path.join(os.tmpdir(), `gs-outside-${process.pid}.png`);
    fs.copyFileSync(path.join(root, 'known.png'), outside);
    fs.symlinkSync(outside, path.join(root, 'link.png'));
    try {
      await expect(inspectDesign('../' + path.basename(outside), { root })).rejects.toThrow(UnsafePathError);
      await expect(inspectDesign(outside, { root })).rejects.toThrow(UnsafePathError);
      await expect(inspectDesign('link.png', { root })).rejects.toThrow(UnsafePathError);
    } finally {
      fs.rmSync(outside);
    }
  });
});

describe('renderSheet', () => {
  it('places known designs pixel-exactly, upright and rotated clockwise, on a transparent sheet', async () => {
    const art = await writeKnownDesign('exact.png');
    const info = await inspectDesign('exact.png', { root });
    const sheet = manualSheet(
      [
        { designId: 'a', copy: 0, x: 0.1, y: 0.1, width: 0.8, height: 0.4, px: { x: 1, y: 1, width: 8, height: 4 }, rotated: false },
        { designId: 'a', copy: 1, x: 1.1, y: 0.2, width: 0.4, height: 0.8, px: { x: 11, y: 2, width: 4, height: 8 }, rotated: true },
      ],
      16,
      11,
    );
    const progress: number[] = [];
    const res = await renderSheet({
      sheet,
      designs: [{ id: 'a', path: 'exact.png', ...info }],
      dpi: 10,
      root,
      outPath: path.join(out, 'exact.png'),
      previewPath: path.join(out, 'exact.webp'),
      onProgress: (p) => progress.push(p.percent),
    });
    expect(res).toMatchObject({ widthPx: 16, heightPx: 11 });
    const img = await decode(res.path);
    expect([img.width, img.height]).toEqual([16, 11]);
    for (let y = 0; y < 4; y++)
      for (let x = 0; x < 8; x++) {
        const src = rgbaAt(art, 8, x, y);
        expect(rgbaAt(img.data, 16, 1 + x, 1 + y)).toEqual(src);
        // clockwise: source (x, y) lands at column (h - 1 - y), row x of the rotated copy
        expect(rgbaAt(img.data, 16, 11 + (3 - y), 2 + x)).toEqual(src);
      }
    let opaque = 0;
    for (let i = 3; i < img.data.length; i += 4) if (img.data[i] !== 0) opaque++;
    expect(opaque).toBe(64); // nothing but the two copies
    expect(progress[progress.length - 1]).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const pv = await sharp(res.previewPath!).metadata();
    expect(pv.format).toBe('webp');
  });

  it('keeps partial transparency and writes RGBA sRGB with the DPI in pHYs', async () => {
    const art = await writeKnownDesign('half.png', 128);
    const info = await inspectDesign('half.png', { root });
    const layout = layoutSheets([{ id: 'h', widthPx: 8, heightPx: 4, width: 8 / 300, quantity: 1 }], { width: 0.1, gap: 0, dpi: 300 });
    const res = await renderSheet({
      sheet: layout.sheets[0],
      designs: [{ id: 'h', path: 'half.png', ...info }],
      dpi: 300,
      root,
      outPath: path.join(out, 'half.png'),
    });
    const meta = await sharp(res.path).metadata();
    expect(meta).toMatchObject({ format: 'png', channels: 4, space: 'srgb', density: 300, width: 30, height: 4 });
    const img = await decode(res.path);
    const p = layout.sheets[0].placements[0].px;
    for (let y = 0; y < 4; y++)
      for (let x = 0; x < 8; x++) {
        const got = rgbaAt(img.data, 30, p.x + x, p.y + y);
        const want = rgbaAt(art, 8, x, y);
        expect(got[3]).toBe(128);
        // colour survives within libvips' premultiply rounding
        for (let k = 0; k < 3; k++) expect(Math.abs(got[k] - want[k])).toBeLessThanOrEqual(1);
      }
    expect(rgbaAt(img.data, 30, 29, 0)[3]).toBe(0);
  });

  it('converts a CMYK JPEG to sRGB', async () => {
    await sharp({ create: { width: 40, height: 40, channels: 3, background: { r: 220, g: 30, b: 30 } } })
      .toColourspace('cmyk')
      .jpeg({ quality: 95 })
      .toFile(path.join(root, 'cmyk.jpg'));
    expect((await sharp(path.join(root, 'cmyk.jpg')).metadata()).space).toBe('cmyk');
    const info = await inspectDesign('cmyk.jpg', { root });
    expect(info.trim).toEqual({ left: 0, top: 0, width: 40, height: 40 });
    const layout = layoutSheets([{ id: 'c', widthPx: 40, heightPx: 40, width: 2, quantity: 1 }], { width: 3, gap: 0, dpi: 20 });
    const res = await renderSheet({ sheet: layout.sheets[0], designs: [{ id: 'c', path: 'cmyk.jpg', ...info }], dpi: 20, root, outPath: path.join(out, 'cmyk.png') });
    const img = await decode(res.path);
    const p = layout.sheets[0].placements[0].px;
    const [r, g, b, a] = rgbaAt(img.data, img.width, p.x + 20, p.y + 20);
    expect(a).toBe(255);
    expect(r).toBeGreaterThan(170);
    expect(g).toBeLessThan(90);
    expect(b).toBeLessThan(90);
  });

  it('rasterises an SVG at the placed size', async () => {
    // 1 x 0.5 in of SVG units (72 per inch); the art is a 0.8 x 0.4 in rectangle placed on
    // whole pixels of the 300 DPI inspection raster, so its trim box is exact
    fs.writeFileSync(
      path.join(root, 'logo.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg" width="72" height="36"><rect x="7.2" y="3.6" width="57.6" height="28.8" fill="#00f"/></svg>',
    );
    const info = await inspectDesign('logo.svg', { root });
    expect(info.vector).toBe(true);
    expect(info.trim).toEqual({ left: 30, top: 15, width: 240, height: 120 });
    const layout = layoutSheets([{ id: 's', widthPx: info.trim.width, heightPx: info.trim.height, width: 4, quantity: 1 }], {
      width: 5,
      gap: 0,
      margin: 0.5,
      dpi: 100,
      rotate: false,
    });
    const p = layout.sheets[0].placements[0].px;
    expect([p.width, p.height]).toEqual([400, 200]);
    const res = await renderSheet({ sheet: layout.sheets[0], designs: [{ id: 's', path: 'logo.svg', ...info }], dpi: 100, root, outPath: path.join(out, 'svg.png') });
    const img = await decode(res.path);
    // the art fills the placement edge to edge and nothing outside it
    for (const [x, y] of [
      [p.x + 1, p.y + 1],
      [p.x + 398, p.y + 198],
      [p.x + 200, p.y + 100],
    ])
      expect(rgbaAt(img.data, img.width, x, y)).toEqual([0, 0, 255, 255]);
    expect(rgbaAt(img.data, img.width, p.x - 1, p.y)[3]).toBe(0);
    expect(rgbaAt(img.data, img.width, p.x + 400, p.y + 199)[3]).toBe(0);
  });

  it('refuses a design path outside the root at render time too', async () => {
    const sheet = manualSheet([{ designId: 'x', copy: 0, x: 0, y: 0, width: 0.8, height: 0.4, px: { x: 0, y: 0, width: 8, height: 4 }, rotated: false }], 10, 10);
    await expect(
      renderSheet({
        sheet,
        designs: [{ id: 'x', path: '../../etc/passwd', trim: { left: 0, top: 0, width: 8, height: 4 }, widthPx: 8, heightPx: 4 }],
        dpi: 10,
        root,
        outPath: path.join(out, 'never.png'),
      }),
    ).rejects.toThrow(UnsafePathError);
  });

  it('writes a valid zlib stream across many bands (checksums verified by inflate)', async () => {
    await sharp({ create: { width: 64, height: 64, channels: 4, background: { r: 10, g: 200, b: 90, alpha: 0.5 } } }).png().toFile(path.join(root, 'sq.png'));
    const info = await inspectDesign('sq.png', { root });
    // 1 in wide sheet at 400 DPI, 40 copies: tall enough for several 4 MB bands
    const layout = layoutSheets([{ id: 'q', widthPx: 64, heightPx: 64, width: 0.9, quantity: 40 }], { width: 1, gap: 0.05, dpi: 400 });
    const res = await renderSheet({ sheet: layout.sheets[0], designs: [{ id: 'q', path: 'sq.png', ...info }], dpi: 400, root, outPath: path.join(out, 'tall.png') });
    const png = fs.readFileSync(res.path);
    const idat: Buffer[] = [];
    for (let p = 8; p < png.length; ) {
      const n = png.readUInt32BE(p);
      if (png.toString('ascii', p + 4, p + 8) === 'IDAT') idat.push(png.subarray(p + 8, p + 8 + n));
      expect(png.readUInt32BE(p + 8 + n)).toBe(zlib.crc32(png.subarray(p + 4, p + 8 + n)));
      p += 12 + n;
    }
    expect(idat.length).toBeGreaterThan(2);
    const raw = zlib.inflateSync(Buffer.concat(idat)); // throws on a wrong Adler-32
    expect(raw.length).toBe(res.heightPx * (1 + res.widthPx * 4));
  });
});
