import { existsSync, readdirSync } from 'node:fs';
import Bull from 'bull';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { CreditsService } from '../src/credits/credits.service';
import { Image } from '../src/images/entities/image.entity';
import { SHEET_DEFAULTS } from '../src/gangsheet';
import { liveEventName } from '../src/realtime/events';
import { RealtimeService } from '../src/realtime/realtime.service';
import { StorageService } from '../src/storage/storage.service';
import { addDesign, addSize, binary, cancelWhileRendering, setCredits, waitDone, waitFor } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';
import { REDIS_URL } from './utils/test-env';

describe('Prints (e2e)', () => {
  let t: TestApp;
  let admin: any;
  let db: DataSource;
  const events: Array<{ userId: string; event: string; payload: any }> = [];

  beforeAll(async () => {
    // the retention job runs every second here; it only touches prints older than 7 days
    t = await createTestApp({ PRINT_RETENTION_INTERVAL_SECONDS: '1', PRINT_JOB_ATTEMPTS: '2' });
    admin = await adminAgent(t);
    db = t.app.get(DataSource);
    const rt = t.app.get(RealtimeService);
    const original = rt.emit.bind(rt);
    jest.spyOn(rt, 'emit').mockImplementation((userId, topic, payload) => {
      events.push({ userId, event: liveEventName(topic, userId), payload });
      original(userId, topic, payload);
    });
  });
  afterAll(() => t.close());

  async function seller(name: string, credits = 0) {
    const s = await signUpAndLogin(t, name);
    if (credits) await setCredits(t, admin, s.user._id, credits);
    const image = await addDesign(t, s.user._id, { name: `${name}-art` });
    const size = await addSize(t, s.user._id, 'Adult front', 2);
    return { ...s, image, size };
  }

  const consistent = (userId: string) => t.app.get(CreditsService).consistent(userId);
  const ledger = (userId: string) => t.app.get(CreditsService).ledger(userId);
  const setStatus = (id: string, status: string) => db.query(`UPDATE prints SET status = $2 WHERE id = $1`, [id, status]);

  describe('sheet settings and presets', () => {
    it('GET /api/sheet-settings/defaults → the engine\'s defaults, whatever the seller saved', async () => {
      const { agent } = await signUpAndLogin(t, 'sheetdefaults');
      await agent.put('/api/sheet-settings').send({ gap: 0.5, dpi: 150 }).expect(200);
      const res = await agent.get('/api/sheet-settings/defaults').expect(200);
      expect(res.body.data).toEqual({ ...SHEET_DEFAULTS, orderLabels: null });
      expect(res.body.data).toEqual({ width: 22, maxLength: 100, gap: 0.25, margin: 0.25, dpi: 300, rotate: true, nesting: 'shape', formats: ['png'], orderLabels: null });
      await t.agent().get('/api/sheet-settings/defaults').expect(401);
    });

    it('GET /api/sheet-settings → defaults; PUT changes only what is sent', async () => {
      const { agent } = await signUpAndLogin(t, 'sheets');
      const def = await agent.get('/api/sheet-settings').expect(200);
      expect(def.body.data).toEqual({ width: 22, maxLength: 100, gap: 0.25, margin: 0.25, dpi: 300, rotate: true, nesting: 'shape', formats: ['png'], orderLabels: null });
      const put = await agent.put('/api/sheet-settings').send({ gap: 0.5, rotate: false }).expect(200);
      expect(put.body.data).toEqual({ width: 22, maxLength: 100, gap: 0.5, margin: 0.25, dpi: 300, rotate: false, nesting: 'shape', formats: ['png'], orderLabels: null });
      expect((await agent.put('/api/sheet-settings').send({ nesting: 'box' }).expect(200)).body.data.nesting).toBe('box');
      expect((await agent.get('/api/sheet-settings')).body.data).toMatchObject({ nesting: 'box', gap: 0.5 });
      for (const bad of ['polygon', '', 3, 'SHAPE'])
        expect((await agent.put('/api/sheet-settings').send({ nesting: bad }).expect(400)).body).toMatchObject({
          statusCode: 400,
          message: 'Nesting must be "shape" (true shape) or "box" (rectangles)',
        });
      expect((await agent.get('/api/sheet-settings')).body.data.nesting).toBe('box');
      expect((await agent.get('/api/sheet-settings')).body.data.gap).toBe(0.5);
      expect((await agent.put('/api/sheet-settings').send({ dpi: 10 }).expect(400)).body.message).toBe('DPI must be at least 72');
      expect((await agent.put('/api/sheet-settings').send({ width: 2, margin: 1 }).expect(400)).body.message).toBe('The margins leave no room on the sheet width');
    });

    it('presets: POST/GET/PUT/DELETE /api/sheet-presets, unique names, another user → 404', async () => {
      const { agent } = await signUpAndLogin(t, 'presets');
      const created = await agent.post('/api/sheet-presets').send({ name: '13in roll', width: 13 }).expect(201);
      expect(created.body.data).toMatchObject({ name: '13in roll', width: 13, maxLength: 100, gap: 0.25, margin: 0.25, dpi: 300, rotate: true, nesting: 'shape', formats: ['png'] });
      const id = created.body.data._id;
      expect((await agent.post('/api/sheet-presets').send({ name: '13IN ROLL' }).expect(409)).body.message).toBe('A preset with this name already exists');
      expect((await agent.post('/api/sheet-presets').send({}).expect(400)).body.message).toBe('Name is required');
      const list = await agent.get('/api/sheet-presets').expect(200);
      expect(list.body).toMatchObject({ data: [{ _id: id }], pagination: { totalDocuments: 1, totalPages: 1 } });
      expect((await agent.put(`/api/sheet-presets/${id}`).send({ dpi: 150 }).expect(200)).body.data).toMatchObject({ dpi: 150, width: 13 });
      // presets carry nesting: saved, listed, validated, and used when a preview names the preset
      expect((await agent.put(`/api/sheet-presets/${id}`).send({ nesting: 'box' }).expect(200)).body.data).toMatchObject({ nesting: 'box', dpi: 150 });
      expect((await agent.get(`/api/sheet-presets/${id}`).expect(200)).body.data.nesting).toBe('box');
      expect((await agent.post('/api/sheet-presets').send({ name: 'odd', nesting: 'circles' }).expect(400)).body.message).toBe(
        'Nesting must be "shape" (true shape) or "box" (rectangles)',
      );
      const user = (await agent.get('/api/profile').expect(200)).body.data;
      const printItems = [{ imageId: (await addDesign(t, user._id))._id, sizeId: (await addSize(t, user._id, 'Small', 2))._id, quantity: 2 }];
      const viaPreset = (await agent.post('/api/print/preview').send({ printItems, presetId: id }).expect(200)).body.data;
      expect(viaPreset).toMatchObject({ settings: { nesting: 'box', dpi: 150 }, shapeSaving: null });
      const overridden = (await agent.post('/api/print/preview').send({ printItems, presetId: id, settings: { nesting: 'shape' } }).expect(200)).body.data;
      expect(overridden.settings.nesting).toBe('shape');
      // rectangular art saves nothing, and the preview says so
      expect(overridden.shapeSaving).toMatchObject({ savedLength: 0, savedFraction: 0 });
      const other = await signUpAndLogin(t, 'presets2');
      await other.agent.get(`/api/sheet-presets/${id}`).expect(404);
      await other.agent.put(`/api/sheet-presets/${id}`).send({ dpi: 100 }).expect(404);
      await other.agent.delete(`/api/sheet-presets/${id}`).expect(404);
      await agent.delete(`/api/sheet-presets/${id}`).expect(200);
      await agent.get(`/api/sheet-presets/${id}`).expect(404);
    });
  });

  describe('drafts and items', () => {
    it('POST /api/print → 201 In Draft, Manual; duplicates merged; items populated', async () => {
      const s = await seller('drafter');
      const res = await s.agent
        .post('/api/print')
        .send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 2 }, { imageId: s.image._id, sizeId: s.size._id, quantity: 3 }] })
        .expect(201);
      const p = res.body.data;
      expect(p).toMatchObject({ type: 'Manual', status: 'In Draft', printedAt: null, fileId: [], creditCost: 5, error: null });
      expect(p.printItems).toHaveLength(1);
      expect(p.printItems[0]).toMatchObject({
        quantity: 5,
        imageId: s.image._id,
        image: { _id: s.image._id, name: 'drafter-art', width: 600, height: 400, trim: { left: 50, top: 50, width: 500, height: 300 }, file: { path: `/api/images/${s.image._id}/file` } },
        sizeId: s.size._id,
        size: { _id: s.size._id, name: 'Adult front', value: 2 },
      });
    });

    it.each([
      [{ printItems: [] }, 'Add at least one item'],
      [{}, 'Add at least one item'],
      [{ printItems: [{ imageId: '00000000-0000-4000-8000-000000000000', sizeId: '00000000-0000-4000-8000-000000000000', quantity: 0 }] }, 'Quantity must be a whole number of at least 1'],
      [{ printItems: [{ imageId: '00000000-0000-4000-8000-000000000000', sizeId: '00000000-0000-4000-8000-000000000000', quantity: 1.5 }] }, 'Quantity must be a whole number of at least 1'],
    ])('POST /api/print %j → 400 %s', async (body, message) => {
      const { agent } = await signUpAndLogin(t, `bad${Math.random().toString(36).slice(2, 8)}`);
      expect((await agent.post('/api/print').send(body).expect(400)).body.message).toBe(message);
    });

    it("another user's image or size → 404, nothing created", async () => {
      const a = await seller('owner1');
      const b = await seller('owner2');
      expect((await a.agent.post('/api/print').send({ printItems: [{ imageId: b.image._id, sizeId: a.size._id, quantity: 1 }] }).expect(404)).body.message).toBe('Image not found');
      expect((await a.agent.post('/api/print').send({ printItems: [{ imageId: a.image._id, sizeId: b.size._id, quantity: 1 }] }).expect(404)).body.message).toBe('Size not found');
      expect((await a.agent.get('/api/print').expect(200)).body.pagination.totalDocuments).toBe(0);
    });

    it('add item merges the same image+size; PUT changes image/size/quantity (merging into a twin); DELETE removes', async () => {
      const s = await seller('editor');
      const img2 = await addDesign(t, s.user._id, { name: 'second' });
      const size2 = await addSize(t, s.user._id, 'Pocket', 1);
      const id = (await s.agent.post('/api/print').send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 1 }] }).expect(201)).body.data._id;
      let p = (await s.agent.post(`/api/print/${id}/printItem`).send({ imageId: s.image._id, sizeId: s.size._id, quantity: 2 }).expect(201)).body.data;
      expect(p.printItems.map((i: any) => i.quantity)).toEqual([3]);
      p = (await s.agent.post(`/api/print/${id}/printItem`).send({ imageId: img2._id, sizeId: size2._id, quantity: 4 }).expect(201)).body.data;
      expect(p.printItems).toHaveLength(2);
      const second = p.printItems[1]._id;
      p = (await s.agent.put(`/api/print/${id}/${second}`).send({ quantity: 6 }).expect(200)).body.data;
      expect(p.printItems[1].quantity).toBe(6);
      expect((await s.agent.put(`/api/print/${id}/${second}`).send({ quantity: 0 }).expect(400)).body.message).toBe('Quantity must be a whole number of at least 1');
      p = (await s.agent.put(`/api/print/${id}/${second}`).send({ sizeId: s.size._id }).expect(200)).body.data;
      expect(p.printItems.map((i: any) => [i.imageId, i.sizeId, i.quantity])).toEqual([
        [s.image._id, s.size._id, 3],
        [img2._id, s.size._id, 6],
      ]);
      p = (await s.agent.put(`/api/print/${id}/${second}`).send({ imageId: s.image._id }).expect(200)).body.data;
      expect(p.printItems.map((i: any) => i.quantity)).toEqual([9]);
      expect(p.creditCost).toBe(9);
      await s.agent.delete(`/api/print/${id}/${second}`).expect(404);
      p = (await s.agent.delete(`/api/print/${id}/${p.printItems[0]._id}`).expect(200)).body.data;
      expect(p.printItems).toEqual([]);
    });

    it('another user: every print route → 404; admin lists a user with GET /api/print/user/{id}', async () => {
      const a = await seller('alice', 10);
      const b = await seller('bob');
      const p = (await a.agent.post('/api/print').send({ printItems: [{ imageId: a.image._id, sizeId: a.size._id, quantity: 1 }] }).expect(201)).body.data;
      const item = p.printItems[0]._id;
      for (const [m, path] of [
        ['get', `/api/print/${p._id}`],
        ['post', `/api/print/${p._id}/printItem`],
        ['put', `/api/print/${p._id}/${item}`],
        ['delete', `/api/print/${p._id}/${item}`],
        ['post', `/api/print/${p._id}/preview`],
        ['post', `/api/print/${p._id}/proccess`],
        ['post', `/api/print/${p._id}/process`],
        ['delete', `/api/print/${p._id}`],
        ['delete', `/api/print/${p._id}/force`],
        ['get', `/api/print/${p._id}/files/1`],
        ['get', `/api/print/not-a-uuid`],
      ] as const) {
        // An item body where the route takes one; preview and process take settings, not items.
        const body = /printItem$|\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/.test(path) ? { imageId: b.image._id, sizeId: b.size._id, quantity: 1 } : {};
        const res = await (b.agent as any)[m](path).send(body);
        expect([m, path, res.status]).toEqual([m, path, 404]);
      }
      expect((await b.agent.get('/api/print').expect(200)).body.data).toEqual([]);
      await b.agent.get(`/api/print/user/${a.user._id}`).expect(403);
      const adminList = await admin.get(`/api/print/user/${a.user._id}`).expect(200);
      expect(adminList.body.data.map((x: any) => x._id)).toEqual([p._id]);
      await admin.get(`/api/print/user/00000000-0000-4000-8000-000000000000`).expect(404);
      // an admin may read any print, but changing it stays the owner's
      expect((await admin.get(`/api/print/${p._id}`).expect(200)).body.data._id).toBe(p._id);
      await admin.post(`/api/print/${p._id}/printItem`).send({ imageId: a.image._id, sizeId: a.size._id, quantity: 1 }).expect(404);
      await admin.delete(`/api/print/${p._id}/force`).expect(404);
      // still a draft and nothing charged
      expect((await a.agent.get(`/api/print/${p._id}`).expect(200)).body.data.status).toBe('In Draft');
      expect((await a.agent.get('/api/profile')).body.data.credit.availableCredits).toBe(10);
    });

    it('GET /api/print filters by status, type and date range, sorts and paginates', async () => {
      const s = await seller('lister');
      const ids: string[] = [];
      for (let i = 0; i < 3; i++)
        ids.push((await s.agent.post('/api/print').send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 1 }] }).expect(201)).body.data._id);
      await db.query(`UPDATE prints SET created_at = '2025-01-10T12:00:00Z' WHERE id = $1`, [ids[0]]);
      await db.query(`UPDATE prints SET status = 'Completed', printed_at = '2025-02-01T12:00:00Z', type = 'Etsy' WHERE id = $1`, [ids[1]]);
      const q = async (query: string) => (await s.agent.get(`/api/print?${query}`).expect(200)).body;
      expect((await q('')).pagination).toEqual({ totalDocuments: 3, totalPages: 1 });
      expect((await q('limit=2&page=2')).data).toHaveLength(1);
      expect((await q('status=Completed')).data.map((p: any) => p._id)).toEqual([ids[1]]);
      expect((await q('type=Etsy')).data.map((p: any) => p._id)).toEqual([ids[1]]);
      expect((await q('type=Manual')).data).toHaveLength(2);
      expect((await q('startDate=2025-01-10&endDate=2025-01-10')).data.map((p: any) => p._id)).toEqual([ids[0]]);
      expect((await q('dateType=printedAt&startDate=2025-02-01&endDate=2025-02-01')).data.map((p: any) => p._id)).toEqual([ids[1]]);
      expect((await q('sortBy=createdAt&sort=asc')).data[0]._id).toBe(ids[0]);
      expect((await s.agent.get('/api/print?status=Nope').expect(400)).body.message).toMatch(/status must be one of/);
      expect((await s.agent.get('/api/print?dateType=x').expect(400)).body.message).toBe('dateType must be createdAt or printedAt');
    });
  });

  describe('preview', () => {
    it('POST /api/print/{id}/preview → the engine layout with placements, density, cost and DPI warnings', async () => {
      const s = await seller('previewer');
      const tiny = await addDesign(t, s.user._id, { name: 'tiny', width: 120, height: 120, border: 10 });
      const p = (
        await s.agent
          .post('/api/print')
          .send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 10 }, { imageId: tiny._id, sizeId: s.size._id, quantity: 2 }] })
          .expect(201)
      ).body.data;
      const started = Date.now();
      const res = await s.agent.post(`/api/print/${p._id}/preview`).send({}).expect(200);
      expect(Date.now() - started).toBeLessThan(3000);
      const v = res.body.data;
      expect(v.settings).toEqual({ width: 22, maxLength: 100, gap: 0.25, margin: 0.25, dpi: 300, rotate: true, nesting: 'shape', formats: ['png'], orderLabels: null });
      // true shape (the default) is never longer than rectangles, and says by how much it is shorter
      expect(v.shapeSaving.savedLength).toBeGreaterThanOrEqual(0);
      expect(v.shapeSaving.boxLength).toBeCloseTo(v.totalLength + v.shapeSaving.savedLength, 2);
      expect(v.copies).toBe(12);
      expect(v.creditCost).toBe(12);
      expect(v.sheets).toHaveLength(1);
      expect(v.sheets[0]).toMatchObject({ index: 0, width: 22, widthPx: 6600, copies: 12 });
      expect(v.sheets[0].placements).toHaveLength(12);
      expect(new Set(v.sheets[0].placements.map((pl: any) => pl.imageId))).toEqual(new Set([s.image._id, tiny._id]));
      for (const pl of v.sheets[0].placements) {
        expect(pl.x).toBeGreaterThanOrEqual(0.25 - 1e-9);
        expect(pl.x + pl.width).toBeLessThanOrEqual(22 - 0.25 + 1e-9);
      }
      expect(v.density).toBeGreaterThan(0);
      expect(v.density).toBeLessThanOrEqual(1);
      const big = v.items.find((i: any) => i.imageId === s.image._id);
      expect(big).toMatchObject({ quantity: 10, printedWidth: 2, printedHeight: 1.2, effectiveDpi: 250, lowResolution: false });
      expect(v.items.find((i: any) => i.imageId === tiny._id)).toMatchObject({ effectiveDpi: 50, lowResolution: true });
      expect(v.warnings).toEqual([expect.objectContaining({ code: 'low_resolution', itemId: p.printItems[1]._id })]);
      expect(v.canProcess).toBe(true);
      // an override (and a preset) changes the layout
      const narrow = await s.agent.post(`/api/print/${p._id}/preview`).send({ settings: { width: 5, dpi: 100 } }).expect(200);
      expect(narrow.body.data.sheets[0]).toMatchObject({ widthPx: 500 });
      expect(narrow.body.data.sheets[0].length).toBeGreaterThan(v.sheets[0].length);
      const tooBig = await s.agent.post(`/api/print/${p._id}/preview`).send({ settings: { width: 1.5, maxLength: 1.5 } }).expect(200);
      expect(tooBig.body.data.canProcess).toBe(false);
      expect(tooBig.body.data.warnings.some((w: any) => w.code === 'too_large')).toBe(true);
    });
  });

  describe('draft preview', () => {
    it('POST /api/print/preview lays out unsaved items (merged like create), stores nothing, and refuses another user\'s ids', async () => {
      const s = await seller('unsaved');
      const other = await seller('unsaved2');
      const before = (await s.agent.get('/api/print').expect(200)).body.pagination.totalDocuments;
      const res = await s.agent
        .post('/api/print/preview')
        .send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 3 }, { imageId: s.image._id, sizeId: s.size._id, quantity: 2 }] })
        .expect(200);
      const v = res.body.data;
      expect(v.copies).toBe(5);
      expect(v.items).toEqual([expect.objectContaining({ itemId: 'draft-0', imageId: s.image._id, quantity: 5 })]);
      expect(v.sheets[0].placements).toHaveLength(5);
      expect(v.canProcess).toBe(true);
      expect((await s.agent.get('/api/print').expect(200)).body.pagination.totalDocuments).toBe(before);
      await s.agent.post('/api/print/preview').send({ printItems: [{ imageId: other.image._id, sizeId: s.size._id, quantity: 1 }] }).expect(404);
      await s.agent.post('/api/print/preview').send({ printItems: [{ imageId: s.image._id, sizeId: other.size._id, quantity: 1 }] }).expect(404);
      expect((await s.agent.post('/api/print/preview').send({ printItems: [] }).expect(400)).body.message).toBe('Add at least one item');
    });
  });

  describe('processing', () => {
    it('whole flow: process → progress events → Completed → PNG of the layout size at 300 DPI → e-mail; charged once', async () => {
      const s = await seller('flow', 25);
      const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 20 }] }).expect(201)).body.data;
      const preview = (await s.agent.post(`/api/print/${p._id}/preview`).send({}).expect(200)).body.data;
      const res = await s.agent.post(`/api/print/${p._id}/proccess`).send({}).expect(201);
      expect(res.body.data).toMatchObject({ _id: p._id, status: 'Processing', creditCost: 20, fileId: [] });
      expect((await s.agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 5, usedCredits: 20 });
      const done = await waitDone(s.agent, p._id);
      expect(done.status).toBe('Completed');
      expect(done.printedAt).toBeTruthy();
      expect(done.settings).toEqual(preview.settings);
      expect(done.fileId).toHaveLength(1);
      const f = done.fileId[0];
      expect(f).toMatchObject({ path: `/api/print/${p._id}/files/1`, previewPath: `/api/print/${p._id}/files/1/preview`, widthPx: 6600 });
      expect(f.lengthIn).toBeCloseTo(f.heightPx / 300, 3);
      expect(new Date(done.filesExpireAt).getTime() - new Date(done.printedAt).getTime()).toBe(7 * 86_400_000);

      const file = await s.agent.get(f.path).buffer(true).parse(binary).expect(200);
      expect(file.headers['content-type']).toBe('image/png');
      expect(file.headers['content-disposition']).toMatch(/^attachment; filename="print-.*-sheet-1\.png"$/);
      const meta = await sharp(file.body).metadata();
      expect(meta).toMatchObject({ format: 'png', width: 6600, height: f.heightPx, density: 300, channels: 4 });
      // 20 copies of 2 x 1.2 in at 300 DPI: 600 x 360 px each, all opaque pixels are art
      const stats = await sharp(file.body).extractChannel(3).raw().toBuffer();
      let opaque = 0;
      for (const a of stats) if (a === 255) opaque++;
      expect(opaque).toBe(20 * 600 * 360);
      const prev = await s.agent.get(f.previewPath).buffer(true).parse(binary).expect(200);
      expect(prev.headers['content-type']).toBe('image/webp');
      // an admin may download it too; another user may not
      await admin.get(f.path).buffer(true).parse(binary).expect(200);
      const other = await signUpAndLogin(t, 'snooper');
      await other.agent.get(f.path).expect(404);
      await t.agent().get(f.path).expect(401);

      // socket events of the spec
      const mine = events.filter((e) => e.userId === s.user._id);
      const updates = mine.filter((e) => e.event === `print-update-${s.user._id}`).map((e) => e.payload);
      expect(updates.length).toBeGreaterThan(3);
      expect(updates[0]).toMatchObject({ printId: p._id, percent: 0, stage: 'trim' });
      expect(updates.at(-1)).toEqual({ printId: p._id, percent: 100, stage: 'done' });
      expect(updates.map((u) => u.percent)).toEqual([...updates.map((u) => u.percent)].sort((a, b) => a - b));
      // the new draft was announced first (the dashboard's counts follow it)
      expect(mine.filter((e) => e.event === `print-${s.user._id}`).map((e) => e.payload)).toEqual([
        { printId: p._id, status: 'In Draft' },
        { printId: p._id, status: 'Completed', fileId: done.fileId },
      ]);

      await t.mail.waitFor(s.email, / is ready$/);
      const img = await db.getRepository(Image).findOneByOrFail({ _id: s.image._id });
      expect(img.usedInPrint).toBe(20);
      const rows = await ledger(s.user._id);
      expect(rows.filter((r) => r.reason === 'print_charge')).toEqual([expect.objectContaining({ availableDelta: -20, usedDelta: 20, reference: `print:${p._id}:1` })]);
      expect(await consistent(s.user._id)).toBe(true);

      // Completed: no editing, no processing again
      await s.agent.post(`/api/print/${p._id}/printItem`).send({ imageId: s.image._id, sizeId: s.size._id, quantity: 1 }).expect(409);
      expect((await s.agent.post(`/api/print/${p._id}/process`).send({}).expect(409)).body).toMatchObject({ code: 'invalid_status' });

      // Delete removes the files only: Deleted, re-processable
      const del = await s.agent.delete(`/api/print/${p._id}`).expect(200);
      expect(del.body.data).toMatchObject({ status: 'Deleted', fileId: [] });
      expect(existsSync(t.app.get(StorageService).path(`users/${s.user._id}/prints/${p._id}`))).toBe(false);
      await s.agent.get(f.path).expect(410);
      expect((await s.agent.delete(`/api/print/${p._id}`).expect(409)).body.message).toBe('The files of this print are already deleted.');
      // re-process (credits for it are short first)
      await s.agent.put(`/api/print/${p._id}/${done.printItems[0]._id}`).send({ quantity: 4 }).expect(200);
      const again = await s.agent.post(`/api/print/${p._id}/process`).send({ settings: { dpi: 150 } }).expect(201);
      expect(again.body.data.creditCost).toBe(4);
      const done2 = await waitDone(s.agent, p._id);
      expect(done2).toMatchObject({ status: 'Completed', settings: { dpi: 150 } });
      expect(done2.fileId[0]).toMatchObject({ path: `/api/print/${p._id}/files/1`, widthPx: 3300 });
      const meta2 = await sharp((await s.agent.get(done2.fileId[0].path).buffer(true).parse(binary).expect(200)).body).metadata();
      expect(meta2).toMatchObject({ width: 3300, density: 150 });
      expect((await s.agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 1, usedCredits: 24 });
      expect(await consistent(s.user._id)).toBe(true);

      // Force delete removes everything
      await s.agent.delete(`/api/print/${p._id}/force`).expect(200);
      await s.agent.get(`/api/print/${p._id}`).expect(404);
      expect((await db.query(`SELECT count(*)::int AS n FROM print_items WHERE print_id = $1`, [p._id]))[0].n).toBe(0);
      expect(existsSync(t.app.get(StorageService).path(`users/${s.user._id}/prints/${p._id}`))).toBe(false);
    });

    it('refuses: missing image, missing size, short credits (clear message, nothing charged)', async () => {
      const s = await seller('refused', 3);
      const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 5 }] }).expect(201)).body.data;
      const res = await s.agent.post(`/api/print/${p._id}/proccess`).send({}).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message: 'Not enough credits: this print needs 5 credits, you have 3.', code: 'insufficient_credits', requestId: expect.any(String) });
      await db.query(`UPDATE print_items SET size_id = NULL WHERE print_id = $1`, [p._id]);
      expect((await s.agent.post(`/api/print/${p._id}/proccess`).send({}).expect(400)).body.message).toBe('Size is missing. Please add the missing item.');
      await db.query(`UPDATE print_items SET image_id = NULL WHERE print_id = $1`, [p._id]);
      expect((await s.agent.post(`/api/print/${p._id}/proccess`).send({}).expect(400)).body.message).toBe('Image is missing. Please add the missing item.');
      const empty = (await s.agent.post('/api/print').send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 1 }] }).expect(201)).body.data;
      await s.agent.delete(`/api/print/${empty._id}/${empty.printItems[0]._id}`).expect(200);
      expect((await s.agent.post(`/api/print/${empty._id}/process`).send({}).expect(400)).body.message).toBe('Add at least one item before processing.');
      const tooBig = (await s.agent.post('/api/print').send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 1 }] }).expect(201)).body.data;
      expect((await s.agent.post(`/api/print/${tooBig._id}/process`).send({ settings: { width: 1.5 } }).expect(400)).body.code).toBe('design_too_large');
      expect((await s.agent.get(`/api/print/${p._id}`)).body.data.status).toBe('In Draft');
      expect((await s.agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 3, usedCredits: 0 });
      expect(await consistent(s.user._id)).toBe(true);
    });

    it('status rules: what each status allows', async () => {
      const s = await seller('rules', 100);
      const make = async () => (await s.agent.post('/api/print').send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 1 }] }).expect(201)).body.data;
      const table: Array<[string, { edit: number; process: number; del: number; force: number }]> = [
        ['Processing', { edit: 409, process: 409, del: 409, force: 409 }],
        ['Cancelled', { edit: 409, process: 409, del: 409, force: 409 }],
        ['Completed', { edit: 409, process: 409, del: 200, force: 200 }],
        ['Deleted', { edit: 200, process: 201, del: 409, force: 200 }],
        ['In Draft', { edit: 200, process: 201, del: 200, force: 200 }],
        ['Error', { edit: 200, process: 201, del: 200, force: 200 }],
      ];
      for (const [status, want] of table) {
        const p = await make();
        await setStatus(p._id, status);
        const item = p.printItems[0]._id;
        const got = {
          edit: (await s.agent.put(`/api/print/${p._id}/${item}`).send({ quantity: 2 })).status,
          process: 0,
          del: 0,
          force: 0,
        };
        expect((await s.agent.post(`/api/print/${p._id}/printItem`).send({ imageId: s.image._id, sizeId: s.size._id, quantity: 1 })).status).toBe(want.edit === 200 ? 201 : 409);
        expect((await s.agent.delete(`/api/print/${p._id}/${item}`)).status).toBe(want.edit === 200 ? 200 : 409);
        if (want.edit === 200) await s.agent.post(`/api/print/${p._id}/printItem`).send({ imageId: s.image._id, sizeId: s.size._id, quantity: 1 }).expect(201);
        got.process = (await s.agent.post(`/api/print/${p._id}/proccess`).send({})).status;
        if (got.process === 201) {
          await waitDone(s.agent, p._id);
          await setStatus(p._id, status);
        }
        got.del = (await s.agent.delete(`/api/print/${p._id}`)).status;
        await setStatus(p._id, status);
        got.force = (await s.agent.delete(`/api/print/${p._id}/force`)).status;
        expect([status, got]).toEqual([status, want]);
      }
      expect(await consistent(s.user._id)).toBe(true);
    });

    it('cancel: a waiting job → back to In Draft, refunded once, the job skips it; then re-processed to Completed', async () => {
      const s = await seller('canceller', 10);
      const other = await signUpAndLogin(t, 'canceller2');
      const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 4 }] }).expect(201)).body.data;
      expect((await s.agent.post(`/api/print/${p._id}/cancel`).expect(409)).body.message).toBe(
        'This print is In Draft; only a print that is Processing can be cancelled.',
      );
      const q = new Bull('prints', REDIS_URL, { prefix: t.config.redis.prefix });
      try {
        await q.pause(); // every worker of the queue: the job waits until resumed
        await s.agent.post(`/api/print/${p._id}/process`).send({}).expect(201);
        expect((await s.agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 6, usedCredits: 4 });
        await other.agent.post(`/api/print/${p._id}/cancel`).expect(404);
        const since = events.length;
        const res = await s.agent.post(`/api/print/${p._id}/cancel`).expect(200);
        expect(res.body).toMatchObject({ data: { status: 'In Draft' }, message: 'Processing cancelled. The print is back in draft and your credits were refunded.' });
        expect(events.slice(since)).toContainEqual({ userId: s.user._id, event: `print-${s.user._id}`, payload: { printId: p._id, status: 'In Draft' } });
        expect((await s.agent.post(`/api/print/${p._id}/cancel`).expect(409)).body.code).toBe('invalid_status');
        expect((await s.agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 10, usedCredits: 0 });
        await q.resume();
        const job = await waitFor(async () => {
          const j = await q.getJob(`print:${p._id}:1`);
          return j && (await j.getState()) === 'completed' ? j : null;
        }, 30_000, 'the waiting job to run');
        expect(job.returnvalue).toMatchObject({ outcome: 'skipped' });
      } finally {
        await q.resume().catch(() => undefined);
        await q.close();
      }
      const after = (await s.agent.get(`/api/print/${p._id}`).expect(200)).body.data;
      expect(after).toMatchObject({ status: 'In Draft', fileId: [] });
      // Like a draft again: fix it and process it once more.
      await s.agent.put(`/api/print/${p._id}/${p.printItems[0]._id}`).send({ quantity: 3 }).expect(200);
      await s.agent.post(`/api/print/${p._id}/process`).send({}).expect(201);
      expect((await waitDone(s.agent, p._id)).status).toBe('Completed');
      expect((await s.agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 7, usedCredits: 3 });
      expect((await ledger(s.user._id)).map((r) => r.reason).filter((r) => r !== 'admin_adjust')).toEqual(['print_charge', 'refund', 'print_charge']);
      expect(await consistent(s.user._id)).toBe(true);
    });

    it('cancel while rendering → the render stops at once (no error, no retry), its run folder is removed, refunded once', async () => {
      const s = await signUpAndLogin(t, 'rendercancel');
      await setCredits(t, admin, s.user._id, 100);
      const image = await addDesign(t, s.user._id, { name: 'big', width: 1200, height: 800, border: 20 });
      const size = await addSize(t, s.user._id, 'Back', 5);
      const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 60 }] }).expect(201)).body.data;
      const q = new Bull('prints', REDIS_URL, { prefix: t.config.redis.prefix });
      try {
        const job = await cancelWhileRendering(s.agent, q, p._id);
        // stopped by the cancel itself, not by files vanishing under it (an error and a retry)
        expect(job.returnvalue).toEqual({ outcome: 'skipped', reason: 'cancelled while rendering' });
        expect(job.attemptsMade).toBe(0);
        expect(job.stacktrace).toEqual([]);
        expect(Number(job.progress())).toBeLessThan(95);
      } finally {
        await q.close();
      }
      const attemptDir = t.app.get(StorageService).path(`users/${s.user._id}/prints/${p._id}/1`);
      expect(existsSync(attemptDir) ? readdirSync(attemptDir) : []).toEqual([]);
      expect((await s.agent.get(`/api/print/${p._id}`)).body.data).toMatchObject({ status: 'In Draft', fileId: [] });
      expect((await ledger(s.user._id)).map((r) => r.reason).filter((r) => r !== 'admin_adjust').sort()).toEqual(['print_charge', 'refund']);
      expect(await consistent(s.user._id)).toBe(true);
    });

    it('bounded work: sheet settings within the server limits (save, preset, one-off override)', async () => {
      const s = await seller('bounded', 5);
      expect((await s.agent.put('/api/sheet-settings').send({ dpi: 1200 }).expect(400)).body).toMatchObject({ message: 'DPI must be at most 600', code: 'settings_limit' });
      expect((await s.agent.put('/api/sheet-settings').send({ width: 120 }).expect(400)).body.message).toBe('Sheet width must be at most 64 in');
      expect((await s.agent.put('/api/sheet-settings').send({ maxLength: 1000 }).expect(400)).body.message).toBe('Maximum length must be at most 400 in');
      expect((await s.agent.post('/api/sheet-presets').send({ name: 'huge', dpi: 1200 }).expect(400)).body.code).toBe('settings_limit');
      const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 1 }] }).expect(201)).body.data;
      expect((await s.agent.post(`/api/print/${p._id}/process`).send({ settings: { dpi: 1200, width: 120, maxLength: 1000 } }).expect(400)).body.code).toBe('settings_limit');
      expect((await s.agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 5, usedCredits: 0 });
    });

    it('bounded work: a print over the pixel budget is refused before charging, with the reason', async () => {
      const s = await seller('budget', 5);
      // many large copies at 600 DPI is tens of gigapixels, though each design fits the sheet
      const big = await addSize(t, s.user._id, 'Poster', 20);
      const huge = (await s.agent.post('/api/print').send({ printItems: [{ imageId: s.image._id, sizeId: big._id, quantity: 1000 }] }).expect(201)).body.data;
      const res = await s.agent.post(`/api/print/${huge._id}/process`).send({ settings: { dpi: 600, width: 64, maxLength: 400 } }).expect(400);
      expect(res.body.code).toBe('print_too_large');
      expect(res.body.message).toMatch(/^This print would render at least [\d.]+ gigapixels; the limit is 4\.00\./);
      expect((await s.agent.get(`/api/print/${huge._id}`)).body.data.status).toBe('In Draft');
      expect((await s.agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 5, usedCredits: 0 });
      expect((await ledger(s.user._id)).filter((r) => r.reason === 'print_charge')).toHaveLength(0);
    });

    it('20 concurrent process requests with credits for one print → one charge, one job', async () => {
      const s = await seller('racer', 3);
      const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 3 }] }).expect(201)).body.data;
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => s.agent.post(`/api/print/${p._id}/${i % 2 ? 'process' : 'proccess'}`).send({})),
      );
      const codes = results.map((r) => r.status);
      expect(codes.filter((c) => c === 201)).toHaveLength(1);
      expect(codes.filter((c) => c !== 201).every((c) => c === 409 || c === 400)).toBe(true);
      expect((await ledger(s.user._id)).filter((r) => r.reason === 'print_charge')).toHaveLength(1);
      const q = new Bull('prints', REDIS_URL, { prefix: t.config.redis.prefix });
      try {
        const jobs = await q.getJobs(['waiting', 'active', 'completed', 'failed', 'delayed']);
        expect(jobs.filter((j) => j.data.printId === p._id).map((j) => j.id)).toEqual([`print:${p._id}:1`]);
      } finally {
        await q.close();
      }
      expect((await waitDone(s.agent, p._id)).status).toBe('Completed');
      expect((await s.agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 0, usedCredits: 3 });
      expect(await consistent(s.user._id)).toBe(true);
    });

    it('a job that fails for good → Error with a message, refunded, print-{userId} Error event, e-mail', async () => {
      const s = await seller('failing', 10);
      const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 4 }] }).expect(201)).body.data;
      await t.app.get(StorageService).delete(s.image.fileKey);
      await s.agent.post(`/api/print/${p._id}/process`).send({}).expect(201);
      const done = await waitDone(s.agent, p._id);
      expect(done).toMatchObject({ status: 'Error', fileId: [] });
      expect(done.error).toBe('The file of design "failing-art" is missing. Please upload it again.');
      expect((await s.agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 10, usedCredits: 0 });
      const rows = await ledger(s.user._id);
      expect(rows.filter((r) => r.reason === 'refund')).toEqual([expect.objectContaining({ availableDelta: 4, usedDelta: -4, reference: `print:${p._id}:1` })]);
      expect(await consistent(s.user._id)).toBe(true);
      const ev = events.filter((e) => e.event === `print-${s.user._id}`).map((e) => e.payload);
      expect(ev).toEqual([{ printId: p._id, status: 'In Draft' }, { printId: p._id, status: 'Error', message: done.error }]);
      await t.mail.waitFor(s.email, /could not be processed/);
      // fixed (the file is back) it can be processed again
      await addDesign(t, s.user._id).then((img) => db.query(`UPDATE images SET file_key = $2 WHERE id = $1`, [s.image._id, img.fileKey]));
      await s.agent.post(`/api/print/${p._id}/process`).send({}).expect(201);
      expect((await waitDone(s.agent, p._id)).status).toBe('Completed');
      expect((await s.agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 6, usedCredits: 4 });
      expect(await consistent(s.user._id)).toBe(true);
    });

    it('retention: the repeatable job deletes the files of prints completed 7+ days ago; the row stays', async () => {
      const s = await seller('keeper', 10);
      const mk = async () => {
        const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 1 }] }).expect(201)).body.data;
        await s.agent.post(`/api/print/${p._id}/process`).send({}).expect(201);
        return waitDone(s.agent, p._id);
      };
      const old = await mk();
      const fresh = await mk();
      await db.query(`UPDATE prints SET printed_at = now() - interval '7 days 1 minute' WHERE id = $1`, [old._id]);
      await db.query(`UPDATE prints SET printed_at = now() - interval '6 days 23 hours' WHERE id = $1`, [fresh._id]);
      const expired = await waitFor(
        async () => {
          const r = (await s.agent.get(`/api/print/${old._id}`).expect(200)).body.data;
          return r.filesDeletedAt ? r : null;
        },
        20_000,
        'retention',
      );
      expect(expired).toMatchObject({ status: 'Completed', fileId: [] });
      await s.agent.get(old.fileId[0].path).expect(410);
      expect(existsSync(t.app.get(StorageService).path(`users/${s.user._id}/prints/${old._id}`))).toBe(false);
      const kept = (await s.agent.get(`/api/print/${fresh._id}`).expect(200)).body.data;
      expect(kept.fileId).toHaveLength(1);
      await s.agent.get(kept.fileId[0].path).buffer(true).parse(binary).expect(200);
    });
  });
});
