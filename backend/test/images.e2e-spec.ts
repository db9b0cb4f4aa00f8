import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';
import { cmykJpeg, elf, exe, pngClaiming, svg, transparentPng, truncatedPng } from './fixtures/images';
import { insertPrint } from './fixtures/prints';

type Agent = Awaited<ReturnType<typeof signUpAndLogin>>['agent'];

/** Polls until the preview job has finished with the image. */
async function settled(agent: Agent, id: string) {
  for (let i = 0; i < 100; i++) {
    const res = await agent.get(`/api/images/${id}`).expect(200);
    if (res.body.data.status !== 'processing') return res.body.data;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`image ${id} still processing`);
}

function upload(agent: Agent, files: [Buffer, string][], fields: Record<string, string> = {}) {
  const req = agent.post('/api/images/bulk-upload');
  for (const [k, v] of Object.entries(fields)) req.field(k, v);
  for (const [buf, name] of files) req.attach('files', buf, name);
  return req;
}

describe('Images (e2e)', () => {
  let t: TestApp;
  let db: DataSource;
  let seller: Awaited<ReturnType<typeof signUpAndLogin>>;
  let other: Awaited<ReturnType<typeof signUpAndLogin>>;
  let png: Buffer;
  beforeAll(async () => {
    // 50 KB per file so the size limit is cheap to test
    t = await createTestApp({ UPLOAD_MAX_FILE_MB: '0.05', UPLOAD_MAX_FILES: '20' });
    db = t.app.get(DataSource);
    seller = await signUpAndLogin(t, 'imgseller');
    other = await signUpAndLogin(t, 'imgother');
    png = await transparentPng();
  });
  afterAll(() => t.close());

  it('needs a session', async () => {
    await t.agent().get('/api/images').expect(401);
    await t.agent().get('/api/image-categories').expect(401);
  });

  let pngId: string;
  let jpegId: string;
  let svgId: string;
  it('POST /api/images/bulk-upload → 201: good files stored, bad ones reported by name', async () => {
    const res = await upload(
      seller.agent,
      [
        [png, 'Tiger.png'],
        [await cmykJpeg(), 'photo.jpeg'],
        [svg(), 'logo.svg'],
        [elf(), 'virus.png'],
      ],
      { score: '3.5' },
    ).expect(201);
    expect(res.body.errors).toEqual([{ name: 'virus.png', message: 'This file is a program, not an image' }]);
    expect(res.body.message).toBe('3 images uploaded, 1 file refused');
    expect(res.body.data.map((i: any) => [i.name, i.mime, i.width, i.height, i.score])).toEqual([
      ['Tiger', 'image/png', 40, 30, 3.5],
      ['photo', 'image/jpeg', 24, 16, 3.5],
      ['logo', 'image/svg+xml', 100, 50, 3.5],
    ]);
    [pngId, jpegId, svgId] = res.body.data.map((i: any) => i._id);
    const first = res.body.data[0];
    expect(first).toMatchObject({
      file: { path: `/api/images/${pngId}/file`, name: 'Tiger.png' },
      imageCategory: null,
      usedInPrint: 0,
      status: 'processing',
      deletedAt: null,
    });
    expect(Object.keys(first).sort()).toEqual(
      ['_id', 'bytes', 'createdAt', 'deletedAt', 'error', 'file', 'height', 'imageCategory', 'mime', 'name', 'previewFile', 'score', 'status', 'trim', 'updatedAt', 'usedInPrint', 'width'].sort(),
    );
    // until the preview exists the original is there to show
    await seller.agent.get(first.file.path).expect(200).expect('Content-Type', 'image/png');
  });

  it('the preview job measures the visible art and makes a WebP preview', async () => {
    const p = await settled(seller.agent, pngId);
    expect(p).toMatchObject({ status: 'ready', trim: { left: 12, top: 7, width: 10, height: 5 }, previewFile: { path: `/api/images/${pngId}/preview` } });
    const prev = await seller.agent.get(p.previewFile.path).buffer(true).parse(binary).expect(200);
    expect(prev.headers['content-type']).toBe('image/webp');
    expect(prev.headers['cache-control']).toBe('private, max-age=86400');
    const meta = await sharp(prev.body).metadata();
    expect([meta.format, meta.hasAlpha]).toEqual(['webp', true]);

    const j = await settled(seller.agent, jpegId);
    expect(j).toMatchObject({ status: 'ready', trim: { left: 0, top: 0, width: 24, height: 16 } });
    const jp = await seller.agent.get(j.previewFile.path).buffer(true).parse(binary).expect(200);
    expect((await sharp(jp.body).metadata()).space).toBe('srgb');

    const s = await settled(seller.agent, svgId);
    expect(s).toMatchObject({ status: 'ready', trim: { left: 10, top: 10, width: 20, height: 20 } });
    const sp = await seller.agent.get(s.previewFile.path).buffer(true).parse(binary).expect(200);
    expect(sp.headers['content-type']).toBe('image/webp');

    // the ink mask for true-shape nesting, over exactly the trim box; none for opaque art
    const masks = new Map<string, any>((await db.query(`SELECT id, mask FROM images WHERE id = ANY($1)`, [[pngId, jpegId, svgId]])).map((r: any) => [r.id, r.mask]));
    expect(masks.get(pngId)).toEqual({ width: 10, height: 5, data: Buffer.from([0xff, 0x03, 0xff, 0x03, 0xff, 0x03, 0xff, 0x03, 0xff, 0x03]).toString('base64') });
    expect(masks.get(jpegId)).toBeNull();
    const svgMask = masks.get(svgId);
    expect(svgMask.width).toBe(svgMask.height);
    const bits = Buffer.from(svgMask.data, 'base64');
    const full = Array.from({ length: svgMask.height }, () => [...Array((svgMask.width + 7) >> 3)].map((_, i) => (i < svgMask.width >> 3 ? 0xff : (1 << (svgMask.width & 7)) - 1)));
    expect([...bits]).toEqual(full.flat());
  });

  it('an SVG original is only ever an attachment, sandboxed and not sniffed', async () => {
    const res = await seller.agent.get(`/api/images/${svgId}/file`).buffer(true).parse(binary).expect(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="logo.svg"/);
    expect(res.headers['content-security-policy']).toMatch(/^sandbox/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toMatch(/^private/);
    const raster = await seller.agent.get(`/api/images/${pngId}/file?download=1`).expect(200);
    expect(raster.headers['content-disposition']).toMatch(/^attachment; filename="Tiger.png"/);
  });

  it.each([
    ['renamed ELF executable', elf, 'art.png', 'This file is a program, not an image'],
    ['renamed Windows executable', exe, 'art.jpg', 'This file is a program, not an image'],
    ['zero bytes', () => Buffer.alloc(0), 'empty.png', 'The file is empty'],
    ['truncated PNG', truncatedPng, 'cut.png', 'The image is damaged or incomplete and cannot be read'],
    ['PNG header claiming 100000×100000', () => pngClaiming(100000, 100000), 'bomb.png', 'The image is too large: 100000 × 100000 pixels (the limit is 268 megapixels)'],
    ['text renamed .png', () => Buffer.from('hello, world'), 'note.png', 'Unsupported file type: only JPEG, PNG and SVG images are accepted'],
    ['GIF', () => Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), 'anim.gif', 'Unsupported file type: only JPEG, PNG and SVG images are accepted'],
    ['over the size limit', () => randomBytes(60 * 1024), 'huge.png', 'The file is larger than 0.1 MB'],
    ['SVG with <script>', () => svg('<script>alert(1)</script>'), 'a.svg', 'SVG files with scripts are not accepted'],
    ['SVG with onload=', () => svg('<rect width="5" height="5"/>', ' onload="alert(1)"'), 'b.svg', 'SVG files with event handlers (on…=) are not accepted'],
    ['SVG with onclick on a child', () => svg('<rect width="5" height="5" onclick="x()"/>'), 'c.svg', 'SVG files with event handlers (on…=) are not accepted'],
    ['SVG with external href', () => svg('<image href="https://evil.example/x.png" width="5" height="5"/>'), 'd.svg', 'SVG files that load external resources are not accepted'],
    ['SVG with external xlink:href', () => svg('<use xlink:href="http://evil.example/s.svg#a"/>'), 'e.svg', 'SVG files that load external resources are not accepted'],
    ['SVG with javascript: link', () => svg('<a href="javascript:alert(1)"><rect width="5" height="5"/></a>'), 'f.svg', 'SVG files with scripts are not accepted'],
    ['SVG with foreignObject', () => svg('<foreignObject width="5" height="5"><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>'), 'g.svg', 'SVG files with embedded HTML (foreignObject) are not accepted'],
    ['SVG with CSS url()', () => svg('<style>rect{fill:url(http://evil.example/p)}</style><rect width="5" height="5"/>'), 'h.svg', 'SVG files that load external resources are not accepted'],
    [
      'SVG with <!ENTITY>',
      () => Buffer.from('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "lol">]><svg xmlns="http://www.w3.org/2000/svg" width="5" height="5">&x;</svg>'),
      'i.svg',
      'SVG files with a DOCTYPE or entities are not accepted',
    ],
    ['SVG with an ENTITY after the root', () => svg('<!ENTITY y "z">'), 'j.svg', 'SVG files with a DOCTYPE or entities are not accepted'],
    ['SVG that is not XML', () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="5" height="5"><rect'), 'k.svg', 'The file is not a valid SVG image'],
  ])('refuses %s by name, keeping the good file of the batch', async (_label, make, name, message) => {
    const res = await upload(seller.agent, [
      [png, 'good.png'],
      [await make(), name],
    ]).expect(201);
    expect(res.body.errors).toEqual([{ name, message }]);
    expect(res.body.data.map((i: any) => i.name)).toEqual(['good']);
    await seller.agent.post('/api/images/bulk-delete').send({ ids: [res.body.data[0]._id] }).expect(201);
  });

  it('a batch with no acceptable file → 400 with every error; nothing stored', async () => {
    const before = (await seller.agent.get('/api/images').expect(200)).body.pagination.totalDocuments;
    const res = await upload(seller.agent, [
      [elf(), 'one.png'],
      [Buffer.alloc(0), 'two.jpg'],
    ]).expect(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'upload_refused', message: 'None of the files could be uploaded', requestId: res.headers['request-id'], data: [] });
    expect(res.body.errors.map((e: any) => e.name)).toEqual(['one.png', 'two.jpg']);
    const single = await upload(seller.agent, [[exe(), 'x.png']]).expect(400);
    expect(single.body.message).toBe('This file is a program, not an image');
    await seller.agent.post('/api/images/bulk-upload').field('score', '1').expect(400, /Select at least one file/);
    expect((await seller.agent.get('/api/images').expect(200)).body.pagination.totalDocuments).toBe(before);
  });

  it('validates the upload fields', async () => {
    let res = await upload(seller.agent, [[png, 'a.png']], { score: '4.3' }).expect(400);
    expect(res.body.message).toBe('Score must be between 0 and 5 in steps of 0.5');
    res = await upload(seller.agent, [[png, 'a.png']], { score: '6' }).expect(400);
    expect(res.body.message).toBe('Score must be between 0 and 5 in steps of 0.5');
    res = await upload(seller.agent, [[png, 'a.png']], { imageCategoryId: randomUUID() }).expect(404);
    expect(res.body.message).toBe('Category not found');
  });

  it('a failed database write leaves no file behind', async () => {
    const storage = t.app.get(require('../src/storage/storage.service').StorageService);
    const { readdirSync, existsSync } = require('node:fs');
    const dir = storage.path(`users/${seller.user._id}/images`);
    const filesBefore = existsSync(dir) ? readdirSync(dir).length : 0;
    const repo = db.getRepository('Image');
    const spy = jest.spyOn(repo.constructor.prototype, 'save').mockRejectedValueOnce(new Error('db down'));
    try {
      const res = await upload(seller.agent, [[png, 'doomed.png']]).expect(400);
      expect(res.body.errors).toEqual([{ field: 'files', code: 'file_refused', name: 'doomed.png', message: 'The image could not be saved. Please try again.' }]);
    } finally {
      spy.mockRestore();
    }
    expect(readdirSync(dir).length).toBe(filesBefore);
  });

  describe('categories', () => {
    let catA: string;
    let catB: string;
    it('POST /api/image-categories → 201, names unique per user (409), required', async () => {
      const a = await seller.agent.post('/api/image-categories').send({ name: 'Animals' }).expect(201);
      expect(a.body.data).toMatchObject({ name: 'Animals', imageCount: 0 });
      catA = a.body.data._id;
      catB = (await seller.agent.post('/api/image-categories').send({ name: ' Logos ' }).expect(201)).body.data._id;
      const dup = await seller.agent.post('/api/image-categories').send({ name: 'animals' }).expect(409);
      expect(dup.body).toMatchObject({ message: 'Category already exists', code: 'category_exists' });
      expect((await seller.agent.post('/api/image-categories').send({ name: '  ' }).expect(400)).body.message).toBe('Name is required');
      expect((await seller.agent.post('/api/image-categories').send({}).expect(400)).body.message).toBe('Name is required');
      // another user may use the same name
      await other.agent.post('/api/image-categories').send({ name: 'Animals' }).expect(201);
      await seller.agent.put(`/api/image-categories/${catB}`).send({ name: 'ANIMALS' }).expect(409);
    });

    it('upload into a category; PUT /api/images/bulk-update moves images; counts follow', async () => {
      const up = await upload(seller.agent, [[png, 'cat.png']], { imageCategoryId: catA, score: '5' }).expect(201);
      expect(up.body.data[0].imageCategory).toEqual({ _id: catA, name: 'Animals' });
      const res = await seller.agent
        .put('/api/images/bulk-update')
        .send({ images: [{ _id: pngId, imageCategoryId: catA }, { _id: jpegId, imageCategoryId: catB }] })
        .expect(200);
      expect(res.body.message).toBe('2 images updated');
      expect(res.body.data.find((i: any) => i._id === jpegId).imageCategory).toEqual({ _id: catB, name: 'Logos' });
      const cats = await seller.agent.get('/api/image-categories').expect(200);
      expect(cats.body.data.map((c: any) => [c.name, c.imageCount])).toEqual([
        ['Animals', 2],
        ['Logos', 1],
      ]);
      expect(cats.body.pagination).toEqual({ totalDocuments: 2, totalPages: 1 });
      const filtered = await seller.agent.get(`/api/images?imageCategory=${catA}`).expect(200);
      expect(filtered.body.data.map((i: any) => i.name).sort()).toEqual(['Tiger', 'cat']);
      const none = await seller.agent.get('/api/images?imageCategory=none').expect(200);
      expect(none.body.data.map((i: any) => i.name)).toEqual(['logo']);
      // null clears
      await seller.agent.put('/api/images/bulk-update').send({ images: [{ _id: jpegId, imageCategoryId: null }] }).expect(200);
      await seller.agent.put('/api/images/bulk-update').send({ images: [{ _id: jpegId, imageCategoryId: catB }] }).expect(200);
    });

    it('bulk-update validation and ownership', async () => {
      expect((await seller.agent.put('/api/images/bulk-update').send({ images: [] }).expect(400)).body.message).toBe('Select at least one image');
      const foreignCat = (await other.agent.get('/api/image-categories').expect(200)).body.data[0]._id;
      await seller.agent.put('/api/images/bulk-update').send({ images: [{ _id: pngId, imageCategoryId: foreignCat }] }).expect(404, /Category not found/);
      await other.agent.put('/api/images/bulk-update').send({ images: [{ _id: pngId, imageCategoryId: null }] }).expect(404, /Image not found/);
    });

    it('deleting a category leaves its images uncategorised', async () => {
      await seller.agent.delete(`/api/image-categories/${catB}`).expect(200);
      const j = (await seller.agent.get(`/api/images/${jpegId}`).expect(200)).body.data;
      expect(j.imageCategory).toBeNull();
      await seller.agent.delete(`/api/image-categories/${catB}`).expect(404);
      await other.agent.get(`/api/image-categories/${catA}`).expect(404);
      await other.agent.put(`/api/image-categories/${catA}`).send({ name: 'Mine' }).expect(404);
      await other.agent.delete(`/api/image-categories/${catA}`).expect(404);
      expect((await seller.agent.get(`/api/image-categories/${catA}`).expect(200)).body.data.imageCount).toBe(2);
    });
  });

  it('GET /api/images: search, every sort key both ways, pagination', async () => {
    await seller.agent.put(`/api/images/${jpegId}`).send({ name: 'photo', score: 1 }).expect(200);
    await db.query(`UPDATE images SET used_in_print = 7 WHERE id = $1`, [svgId]);
    const all = (await seller.agent.get('/api/images').expect(200)).body;
    expect(all.pagination).toEqual({ totalDocuments: 4, totalPages: 1 });
    // default: newest first
    expect(all.data.map((i: any) => i.name)).toEqual(['cat', 'logo', 'photo', 'Tiger']);
    const names = async (qs: string) => (await seller.agent.get(`/api/images?${qs}`).expect(200)).body.data.map((i: any) => i.name);
    // case-insensitive, ascending unless asked otherwise
    const byName = await names('sortBy=name&sort=asc');
    expect(byName).toEqual(['cat', 'logo', 'photo', 'Tiger']);
    expect(await names('sortBy=name')).toEqual(byName);
    expect(await names('sortBy=name&sort=desc')).toEqual([...byName].reverse());
    expect(await names('sortBy=createdAt&sort=asc')).toEqual(['Tiger', 'photo', 'logo', 'cat']);
    expect((await names('sortBy=score&sort=desc'))[0]).toBe('cat');
    expect((await names('sortBy=score&sort=asc'))[0]).toBe('photo');
    expect((await names('sortBy=usedInPrint&sort=desc'))[0]).toBe('logo');
    expect(await names('search=TIG')).toEqual(['Tiger']);
    expect(await names('search=%25')).toEqual([]);
    const page = (await seller.agent.get('/api/images?limit=3&page=2&sortBy=createdAt&sort=asc').expect(200)).body;
    expect(page.data.map((i: any) => i.name)).toEqual(['cat']);
    expect(page.pagination).toEqual({ totalDocuments: 4, totalPages: 2 });
    expect((await seller.agent.get('/api/images?sortBy=size').expect(400)).body.message).toBe('sortBy must be one of name, createdAt, score, usedInPrint');
    expect((await seller.agent.get('/api/images?imageCategory=nope').expect(200)).body.data).toEqual([]);
    // another user sees none of them
    expect((await other.agent.get('/api/images').expect(200)).body.pagination.totalDocuments).toBe(0);
  });

  it('PUT /api/images/{id}: validation messages and result', async () => {
    const put = (body: object) => seller.agent.put(`/api/images/${pngId}`).send(body);
    expect((await put({ name: '' }).expect(400)).body.message).toBe('Name is required');
    expect((await put({ score: 2 }).expect(400)).body.message).toBe('Name is required');
    expect((await put({ name: 'x', score: 2.25 }).expect(400)).body.message).toBe('Score must be between 0 and 5 in steps of 0.5');
    expect((await put({ name: 'x', score: -0.5 }).expect(400)).body.message).toBe('Score must be between 0 and 5 in steps of 0.5');
    expect((await put({ name: 'x', imageCategoryId: randomUUID() }).expect(404)).body.message).toBe('Category not found');
    const res = await put({ name: ' Tiger head ', score: 4.5, imageCategoryId: null }).expect(200);
    expect(res.body).toMatchObject({ message: 'Image updated', data: { name: 'Tiger head', score: 4.5, imageCategory: null } });
  });

  it("another user's image id → 404 everywhere; an admin may read the files", async () => {
    await other.agent.get(`/api/images/${pngId}`).expect(404);
    await other.agent.put(`/api/images/${pngId}`).send({ name: 'mine' }).expect(404);
    await other.agent.get(`/api/images/${pngId}/file`).expect(404);
    await other.agent.get(`/api/images/${pngId}/preview`).expect(404);
    await other.agent.post('/api/images/bulk-delete').send({ ids: [pngId] }).expect(404);
    await other.agent.delete(`/api/images/${pngId}`).expect(404);
    await seller.agent.get('/api/images/not-a-uuid').expect(404);
    const admin = await adminAgent(t);
    await admin.get(`/api/images/${pngId}/file`).expect(200).expect('Content-Type', 'image/png');
    await admin.get(`/api/images/${pngId}/preview`).expect(200).expect('Content-Type', 'image/webp');
  });

  it('deletion: refused while a print can still change, kept for completed prints, removed otherwise', async () => {
    await insertPrint(db, seller.user._id, 'In Draft', [{ imageId: pngId }]);
    await insertPrint(db, seller.user._id, 'Completed', [{ imageId: jpegId }]);
    const refused = await seller.agent.post('/api/images/bulk-delete').send({ ids: [pngId, svgId] }).expect(409);
    expect(refused.body).toEqual({
      statusCode: 409,
      code: 'image_in_draft_print',
      message: '"Tiger head" is used by a print that is not completed. Remove it from the print first.',
      requestId: expect.any(String),
    });
    // nothing of the refused batch was deleted
    await seller.agent.get(`/api/images/${svgId}`).expect(200);

    const res = await seller.agent.post('/api/images/bulk-delete').send({ ids: [jpegId, svgId] }).expect(201);
    expect(res.body).toEqual({ data: { deleted: [svgId], kept: [jpegId] }, message: '2 images deleted' });
    // kept: hidden from the library and its counts, still readable for the print
    const list = (await seller.agent.get('/api/images').expect(200)).body;
    expect(list.data.map((i: any) => i._id)).not.toContain(jpegId);
    const kept = (await seller.agent.get(`/api/images/${jpegId}`).expect(200)).body.data;
    expect(kept.deletedAt).not.toBeNull();
    await seller.agent.get(`/api/images/${jpegId}/file`).expect(200);
    await seller.agent.put(`/api/images/${jpegId}`).send({ name: 'again' }).expect(404);
    // removed: row and files gone
    await seller.agent.get(`/api/images/${svgId}`).expect(404);
    await seller.agent.get(`/api/images/${svgId}/file`).expect(404);
    const storage = t.app.get(require('../src/storage/storage.service').StorageService);
    expect(await storage.exists(`users/${seller.user._id}/images/${svgId}.svg`)).toBe(false);
    expect(await storage.exists(`users/${seller.user._id}/images/${svgId}.preview.webp`)).toBe(false);
    expect((await seller.agent.post('/api/images/bulk-delete').send({ ids: [] }).expect(400)).body.message).toBe('Select at least one image');
    expect((await seller.agent.post('/api/images/bulk-delete').send({ ids: ['x'] }).expect(400)).body.message).toBe('Image not found');
  });
});

function binary(res: any, cb: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
}
