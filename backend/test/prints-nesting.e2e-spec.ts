import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { artworkPng, Kind, makeArtwork } from '../bench/artwork';
import { checkRenderedPixels, clipToMask, PixelCheckCopy } from '../bench/nest-check';
import { INK_ALPHA_THRESHOLD } from '../src/gangsheet';
import { alphaMask, DesignMask } from '../src/gangsheet/shape/design-mask';
import { Rng } from '../src/gangsheet/pack/rng';
import { addSize, binary, setCredits, waitDone, waitFor } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/**
 * True-shape nesting end to end: irregular transparent designs uploaded through the API
 * (their ink masks measured at upload), previewed and processed with nesting "shape" and
 * "box"; the delivered PNG is checked against the stored layout on its pixels with the
 * independent checker of bench/nest-check.ts.
 */
describe('Prints: true-shape nesting (e2e)', () => {
  let t: TestApp;
  let db: DataSource;
  const kinds: Kind[] = ['star', 'heart', 'crescent', 'arrow'];
  const files = new Map<string, Buffer>();
  let s: Awaited<ReturnType<typeof signUpAndLogin>>;
  const images: Array<{ _id: string; trim: { left: number; top: number; width: number; height: number } }> = [];
  let sizeId: string;
  // small DPI keeps the pixel check cheap; with these shapes true shape saves about 20 %
  const sheet = { width: 8, maxLength: 100, gap: 0.15, margin: 0.2, dpi: 72 };

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
    const admin = await adminAgent(t);
    s = await signUpAndLogin(t, 'nester');
    await setCredits(t, admin, s.user._id, 200);
    const rng = new Rng(14);
    const req = s.agent.post('/api/images/bulk-upload');
    for (const k of kinds) {
      const png = await artworkPng(makeArtwork(k, rng, 240));
      files.set(`${k}`, png);
      req.attach('files', png, `${k}.png`);
    }
    const uploaded = (await req.expect(201)).body.data as Array<{ _id: string; name: string }>;
    for (const u of uploaded) {
      const ready = await waitFor(async () => {
        const d = (await s.agent.get(`/api/images/${u._id}`).expect(200)).body.data;
        return d.status !== 'processing' ? d : null;
      });
      expect(ready.status).toBe('ready');
      images.push({ ...ready, png: files.get(u.name) });
    }
    sizeId = (await addSize(t, s.user._id, 'Badge', 2))._id;
  });
  afterAll(() => t.close());

  const items = () => images.map((im) => ({ imageId: im._id, sizeId, quantity: 7 }));

  it('measures the ink mask of transparent art at upload', async () => {
    const rows: Array<{ mask: { width: number; height: number; data: string } | null }> = await db.query(`SELECT mask FROM images WHERE user_id = $1`, [s.user._id]);
    expect(rows).toHaveLength(kinds.length);
    for (const r of rows) {
      expect(r.mask).toMatchObject({ width: expect.any(Number), height: expect.any(Number), data: expect.any(String) });
      expect(Math.max(r.mask!.width, r.mask!.height)).toBeGreaterThan(100);
    }
  });

  it('the preview shows the shape layout and the film it saves against rectangles', async () => {
    const shape = (await s.agent.post('/api/print/preview').send({ printItems: items(), settings: { ...sheet, nesting: 'shape' } }).expect(200)).body.data;
    expect(shape.settings.nesting).toBe('shape');
    expect(shape.shapeSaving.savedLength).toBeGreaterThan(0);
    expect(shape.shapeSaving.savedFraction).toBeGreaterThan(0.1);
    expect(shape.totalLength + shape.shapeSaving.savedLength).toBeCloseTo(shape.shapeSaving.boxLength, 2);
    const rotations = shape.sheets.flatMap((sh: any) => sh.placements.map((p: any) => p.rotation));
    expect(rotations.every((r: number) => [0, 90, 180, 270].includes(r))).toBe(true);
    const box = (await s.agent.post('/api/print/preview').send({ printItems: items(), settings: { ...sheet, nesting: 'box' } }).expect(200)).body.data;
    expect(box.settings.nesting).toBe('box');
    expect(box.shapeSaving).toBeNull();
  });

  it('"shape" delivers a shorter sheet than "box", matching its stored layout, with no ink of two copies closer than the gap', async () => {
    const processed: Record<string, any> = {};
    for (const nesting of ['box', 'shape']) {
      const p = (await s.agent.post('/api/print').send({ printItems: items() }).expect(201)).body.data;
      await s.agent.post(`/api/print/${p._id}/process`).send({ settings: { ...sheet, nesting } }).expect(201);
      const done = await waitDone(s.agent, p._id);
      expect(done.status).toBe('Completed');
      expect(done.settings.nesting).toBe(nesting);
      processed[nesting] = done;
    }
    const [boxFile] = processed.box.fileId;
    const [shapeFile] = processed.shape.fileId;
    // about 9-12 % shorter on this art, depending on how far each time-limited search got
    expect(shapeFile.lengthIn).toBeLessThan(boxFile.lengthIn * 0.95);

    // The stored layout (what the Completed print's preview shows) is the one rendered.
    const id = processed.shape._id;
    const stored = (await s.agent.post(`/api/print/${id}/preview`).send({}).expect(200)).body.data;
    expect(stored.rendered).toBe(true);
    expect(stored.sheets).toHaveLength(1);
    const layout = stored.sheets[0];
    expect(layout.length).toBeCloseTo(shapeFile.lengthIn, 3);
    const png = (await s.agent.get(shapeFile.path).buffer(true).parse(binary).expect(200)).body as Buffer;
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([layout.widthPx, layout.lengthPx]);
    expect(layout.lengthPx).toBe(Math.round(layout.length * sheet.dpi));

    const byImage = new Map(images.map((im: any) => [im._id, im]));
    const copies: PixelCheckCopy[] = [];
    const masks = new Map<string, DesignMask>();
    const px = (inches: number) => Math.round(inches * sheet.dpi);
    expect(layout.placements.some((p: any) => p.rotation !== 0)).toBe(true);
    for (const p of layout.placements) {
      const im: any = byImage.get(p.imageId);
      const [w, h] = [px(p.width), px(p.height)];
      const [uw, uh] = p.rotation === 90 || p.rotation === 270 ? [h, w] : [w, h];
      // resampled and turned by sharp itself, as an independent raster of the copy, cleared
      // beyond reach of its ink mask (measured here from the upload) as the renderer promises
      if (!masks.has(p.imageId)) {
        const alpha = await sharp(im.png).ensureAlpha().extractChannel(3).raw().toBuffer({ resolveWithObject: true });
        masks.set(p.imageId, alphaMask(alpha.data, alpha.info.width, im.trim));
      }
      const upright = await sharp(im.png).extract(im.trim).resize(uw, uh, { fit: 'fill', kernel: 'lanczos3' }).ensureAlpha().raw().toBuffer();
      clipToMask(upright, masks.get(p.imageId)!, uw, uh, im.trim.width);
      const rgba = await sharp(upright, { raw: { width: uw, height: uh, channels: 4 } }).rotate(p.rotation).raw().toBuffer();
      copies.push({ rgba, x: px(p.x), y: px(p.y), w, h });
    }
    expect(copies).toHaveLength(28);
    // gap and margin in whole pixels at the sheet DPI (the engine's rounding rule, docs/gangsheet.md)
    expect(checkRenderedPixels({ data, width: info.width, height: info.height }, copies, px(sheet.gap), px(sheet.margin), INK_ALPHA_THRESHOLD)).toEqual([]);
  });
});
