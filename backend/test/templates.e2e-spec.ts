import sharp from 'sharp';
import request from 'supertest';
import { addDesign, addSize, binary, setCredits, waitDone } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

type Copy = { itemId: string; copy: number; sheet: number; x: number; y: number; rotation: 0 | 90 | 180 | 270; pinned?: boolean; width?: number; height?: number };

/**
 * Sheet templates: saved from a print's edited layout or from explicit slots, seen only by
 * their owner, and a new print made from one: its saved layout has each copy in its slot
 * (centred, turned as the slot), and the rendered PNG has the copies there.
 */
describe('Templates (e2e)', () => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof signUpAndLogin>>;
  let other: Awaited<ReturnType<typeof signUpAndLogin>>;
  // 72 DPI keeps the render cheap; whole pixels: 1 px = 1/72 in
  const settings = { width: 10, maxLength: 20, gap: 0.25, margin: 0.25, dpi: 72, nesting: 'box' as const, rotate: true, formats: ['png'] };
  const px = (v: number) => Math.round(v * settings.dpi);
  let sourceId: string;
  let templateId: string;
  let star: { _id: string };
  let logo: { _id: string };
  let one: { _id: string };
  let two: { _id: string };

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await adminAgent(t);
    s = await signUpAndLogin(t, 'templater');
    other = await signUpAndLogin(t, 'outsider');
    await setCredits(t, admin, s.user._id, 100);
    // front: 500 x 300 art, back: 300 x 300 art; printed 2 in wide
    const front = await addDesign(t, s.user._id, { name: 'front', width: 600, height: 400, border: 50 });
    const back = await addDesign(t, s.user._id, { name: 'back', width: 400, height: 400, border: 50 });
    star = await addDesign(t, s.user._id, { name: 'star', width: 400, height: 400, border: 50 });
    logo = await addDesign(t, s.user._id, { name: 'logo', width: 600, height: 350, border: 50 });
    two = await addSize(t, s.user._id, 'Two', 2);
    one = await addSize(t, s.user._id, 'One', 1);
    const res = await s.agent
      .post('/api/print')
      .send({ printItems: [{ imageId: front._id, sizeId: two._id, quantity: 1 }, { imageId: back._id, sizeId: two._id, quantity: 1 }] })
      .expect(201);
    sourceId = res.body.data._id;
    const itemFront = res.body.data.printItems.find((i: any) => i.imageId === front._id)._id;
    const itemBack = res.body.data.printItems.find((i: any) => i.imageId === back._id)._id;
    // the seller's arrangement: front at the top left, back turned on the right
    const copies: Copy[] = [
      { itemId: itemFront, copy: 0, sheet: 0, x: 1, y: 1, rotation: 0 },
      { itemId: itemBack, copy: 0, sheet: 0, x: 5, y: 3, rotation: 90 },
    ];
    await s.agent.put(`/api/print/${sourceId}/layout`).send({ settings, copies }).expect(200);
  });
  afterAll(() => t.close());

  it('POST /api/templates from a print → 201 with the slots where its copies were saved', async () => {
    const res = await s.agent.post('/api/templates').send({ name: 'Team set', printId: sourceId }).expect(201);
    const tpl = res.body.data;
    templateId = tpl._id;
    expect(tpl).toMatchObject({ name: 'Team set', sheets: 1, settings: { width: 10, maxLength: 20, gap: 0.25, margin: 0.25, dpi: 72, nesting: 'box', rotate: true } });
    expect(tpl.slots).toHaveLength(2);
    // front: 2 in wide, 300/500 of that tall (86 px); back turned: its box as placed
    expect(tpl.slots[0]).toMatchObject({ sheet: 0, x: 1, y: 1, width: 2, rotation: 0, label: 'front', sizeName: 'Two', sizeValue: 2 });
    expect(px(tpl.slots[0].height)).toBe(86);
    expect(tpl.slots[1]).toMatchObject({ sheet: 0, x: 5, y: 3, width: 2, height: 2, rotation: 90, label: 'back', sizeName: 'Two', sizeValue: 2 });
    expect((await s.agent.get(`/api/templates/${templateId}`).expect(200)).body.data.slots).toEqual(tpl.slots);
  });

  it('another seller gets 404 on every route and sees none of them', async () => {
    await other.agent.get(`/api/templates/${templateId}`).expect(404);
    await other.agent.patch(`/api/templates/${templateId}`).send({ name: 'Mine now' }).expect(404);
    await other.agent.delete(`/api/templates/${templateId}`).expect(404);
    await other.agent.post(`/api/templates/${templateId}/prints`).send({ items: [{ slot: 0, imageId: star._id, sizeId: one._id }] }).expect(404);
    // nor can they template someone else's print
    await other.agent.post('/api/templates').send({ name: 'x', printId: sourceId }).expect(404);
    expect((await other.agent.get('/api/templates').expect(200)).body).toMatchObject({ data: [], pagination: { totalDocuments: 0 } });
    await s.agent.get('/api/templates/not-a-uuid').expect(404);
    // and the owner's template cannot take another seller's artwork
    const theirs = await addDesign(t, other.user._id, { name: 'theirs' });
    await s.agent.post(`/api/templates/${templateId}/prints`).send({ items: [{ slot: 0, imageId: theirs._id, sizeId: one._id }] }).expect(404);
  });

  it('refuses invalid templates and fills with 400 and the field named', async () => {
    const noName = await s.agent.post('/api/templates').send({ printId: sourceId }).expect(400);
    expect(noName.body.code).toBe('validation_failed');
    expect(noName.body.errors.map((e: any) => e.field)).toContain('name');
    await s.agent.post('/api/templates').send({ name: 'Nothing' }).expect(400);
    const badTurn = await s.agent.post('/api/templates').send({ name: 'x', settings, slots: [{ sheet: 0, x: 1, y: 1, width: 2, height: 2, rotation: 45 }] }).expect(400);
    expect(badTurn.body.errors[0].field).toMatch(/^slots\.0\.rotation|slots\[0\]\.rotation/);
    const off = await s.agent
      .post('/api/templates')
      .send({ name: 'x', settings, slots: [{ sheet: 0, x: 1, y: 1, width: 2, height: 2, rotation: 0, label: 'ok' }, { sheet: 0, x: 9, y: 1, width: 2, height: 2, rotation: 0, label: 'sleeve' }] })
      .expect(400);
    expect(off.body).toMatchObject({ code: 'slot_off_sheet', message: `The slot 2 ("sleeve") lies outside the sheet's margins.` });
    expect(off.body.errors[0].field).toBe('slots[1]');
    const sheet = await s.agent.post('/api/templates').send({ name: 'x', printId: sourceId, sheet: 2 }).expect(400);
    expect(sheet.body.code).toBe('no_such_sheet');
    const noSlot = await s.agent.post(`/api/templates/${templateId}/prints`).send({ items: [{ slot: 4, imageId: star._id }] }).expect(400);
    expect(noSlot.body).toMatchObject({ code: 'unknown_slot', message: 'There is no slot 5: the template has 2 slots.' });
    const twice = await s.agent.post(`/api/templates/${templateId}/prints`).send({ items: [{ slot: 0, imageId: star._id }, { slot: 0, imageId: logo._id }] }).expect(400);
    expect(twice.body.code).toBe('duplicate_slot');
    await s.agent.post(`/api/templates/${templateId}/prints`).send({ items: [] }).expect(400);
    await s.agent.patch(`/api/templates/${templateId}`).send({ name: '  ' }).expect(400);
  });

  it('refuses artwork larger than its slot with 400 naming the slot, and keeps no print', async () => {
    const before = (await s.agent.get('/api/print').expect(200)).body.pagination.totalDocuments;
    // star at its default size (the slot's 2 in) is 2 x 2 in: slot 1 is 2 x 1.19 in
    const res = await s.agent.post(`/api/templates/${templateId}/prints`).send({ items: [{ slot: 0, imageId: star._id }] }).expect(400);
    expect(res.body.code).toBe('slot_too_small');
    expect(res.body.message).toMatch(/^"star" is 2 × 2 in as placed, larger than slot 1 \("front"\) \(2 × 1\.19 in\)\. Pick a smaller size\.$/);
    expect(res.body.errors[0].field).toBe('items[0]');
    expect((await s.agent.get('/api/print').expect(200)).body.pagination.totalDocuments).toBe(before);
  });

  let printId: string;

  it('POST /api/templates/{id}/prints → 201: a draft whose saved layout has each copy centred in its slot', async () => {
    const res = await s.agent
      .post(`/api/templates/${templateId}/prints`)
      .send({ items: [{ slot: 0, imageId: star._id, sizeId: one._id }, { slot: 1, imageId: logo._id }] })
      .expect(201);
    const print = res.body.data;
    printId = print._id;
    expect(print).toMatchObject({ status: 'In Draft', type: 'Manual', test: false, settings: { width: 10, maxLength: 20, dpi: 72, nesting: 'box' } });
    expect(print.printItems).toHaveLength(2);
    const starItem = print.printItems.find((i: any) => i.imageId === star._id);
    const logoItem = print.printItems.find((i: any) => i.imageId === logo._id);
    // the logo took the slot's size by default (Two: 2 in)
    expect(logoItem.sizeId).toBe(two._id);
    const layout = (await s.agent.get(`/api/print/${printId}/layout`).expect(200)).body.data;
    expect(layout.state).toBe('saved');
    const starCopy = layout.copies.find((c: Copy) => c.itemId === starItem._id);
    const logoCopy = layout.copies.find((c: Copy) => c.itemId === logoItem._id);
    // star 1 x 1 in (72 px) centred in slot 1 (at 72, 72 px; 144 x 86 px)
    expect([px(starCopy.x), px(starCopy.y), px(starCopy.width), px(starCopy.height), starCopy.rotation]).toEqual([72 + 36, 72 + 7, 72, 72, 0]);
    // logo 2 in wide (144 x 72 px upright), turned as slot 2 (at 360, 216 px; 144 x 144 px as placed): 72 x 144 px
    expect([px(logoCopy.x), px(logoCopy.y), px(logoCopy.width), px(logoCopy.height), logoCopy.rotation]).toEqual([360 + 36, 216, 72, 144, 90]);
    expect(layout.copies.every((c: Copy) => c.pinned)).toBe(true);
    // the preview (with the print's settings) uses the saved layout
    const preview = (await s.agent.post(`/api/print/${printId}/preview`).send({ settings }).expect(200)).body.data;
    expect(preview.layoutState).toBe('saved');
  });

  it('processing that print renders the copies at the slot pixels', async () => {
    const saved = (await s.agent.get(`/api/print/${printId}/layout`).expect(200)).body.data;
    await s.agent.post(`/api/print/${printId}/process`).send({ settings }).expect(201);
    const done = await waitDone(s.agent, printId);
    expect(done.status).toBe('Completed');
    const png = (await s.agent.get(done.fileId[0].path).buffer(true).parse(binary).expect(200)).body as Buffer;
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const alpha = (x: number, y: number) => data[(y * info.width + x) * info.channels + 3];
    for (const c of saved.copies as Copy[]) {
      const [x0, y0, w, h] = [px(c.x), px(c.y), px(c.width!), px(c.height!)];
      for (const [x, y] of [[x0 + 1, y0 + 1], [x0 + w - 2, y0 + h - 2], [x0 + (w >> 1), y0 + (h >> 1)]]) expect(alpha(x, y)).toBeGreaterThan(200);
      expect(alpha(x0 - 2, y0 + (h >> 1))).toBe(0);
      expect(alpha(x0 + (w >> 1), y0 - 2)).toBe(0);
      expect(alpha(x0 + w + 1, y0 + (h >> 1))).toBe(0);
    }
    // the star's top-left pixel, exactly where the slot put it
    expect(alpha(108, 79)).toBeGreaterThan(200);
    expect(alpha(107, 79)).toBe(0);
    expect(alpha(108, 78)).toBe(0);
  });

  it('copies that would not keep the gap are refused with the slots named', async () => {
    // two slots a hair apart: large art centred in them comes closer than the gap
    const tight = (
      await s.agent
        .post('/api/templates')
        .send({ name: 'Tight', settings, slots: [{ sheet: 0, x: 1, y: 1, width: 2, height: 2, rotation: 0, label: 'left' }, { sheet: 0, x: 3.1, y: 1, width: 2, height: 2, rotation: 0, label: 'right' }] })
        .expect(201)
    ).body.data;
    const res = await s.agent
      .post(`/api/templates/${tight._id}/prints`)
      .send({ items: [{ slot: 0, imageId: star._id, sizeId: two._id }, { slot: 1, imageId: star._id, sizeId: two._id }] })
      .expect(400);
    expect(res.body.code).toBe('layout_invalid');
    expect(res.body.message).toMatch(/^The artwork does not fit the template at slot 1 \("left"\) and slot 2 \("right"\): .*closer than the 0.25 in gap/);
    expect(res.body.errors.map((e: any) => e.field).sort()).toEqual(['items[0]', 'items[1]']);
    // the same image twice is one item of quantity 2, one copy per slot
    const ok = await s.agent
      .post(`/api/templates/${tight._id}/prints`)
      .send({ items: [{ slot: 0, imageId: star._id, sizeId: one._id }, { slot: 1, imageId: star._id, sizeId: one._id }] })
      .expect(201);
    expect(ok.body.data.printItems).toMatchObject([{ imageId: star._id, quantity: 2 }]);
  });

  it('a slot whose size the seller does not have needs one chosen', async () => {
    const odd = (await s.agent.post('/api/templates').send({ name: 'Odd', settings, slots: [{ sheet: 0, x: 1, y: 1, width: 3, height: 3, rotation: 0, label: 'sleeve', sizeName: 'Sleeve', sizeValue: 3.5 }] }).expect(201)).body.data;
    const res = await s.agent.post(`/api/templates/${odd._id}/prints`).send({ items: [{ slot: 0, imageId: star._id }] }).expect(400);
    expect(res.body).toMatchObject({ code: 'size_required', message: 'Choose a size for the slot 1 ("sleeve"): you have no 3.5 in size.' });
  });

  it('a template over two sheets makes a print over two sheets, each copy on its slot\'s sheet', async () => {
    const two = (
      await s.agent
        .post('/api/templates')
        .send({ name: 'Front and back sheets', settings: { ...settings, maxLength: 4 }, slots: [{ sheet: 1, x: 2, y: 1, width: 1, height: 1, rotation: 0, label: 'back' }, { sheet: 0, x: 1, y: 1, width: 1, height: 1, rotation: 0, label: 'front' }] })
        .expect(201)
    ).body.data;
    expect(two.sheets).toBe(2);
    expect(two.slots.map((x: any) => [x.sheet, x.label])).toEqual([[0, 'front'], [1, 'back']]);
    const res = await s.agent.post(`/api/templates/${two._id}/prints`).send({ items: [{ slot: 0, imageId: star._id, sizeId: one._id }, { slot: 1, imageId: star._id, sizeId: one._id }] }).expect(201);
    const layout = (await s.agent.get(`/api/print/${res.body.data._id}/layout`).expect(200)).body.data;
    expect(layout.copies.map((c: Copy) => [c.sheet, c.x, c.y]).sort()).toEqual([[0, 1, 1], [1, 2, 1]]);
    expect(layout.sheets).toHaveLength(2);
  });

  it('a test key may use templates; the print it makes is a test print', async () => {
    const key = (await s.agent.post('/api/api-keys').send({ name: 'Sandbox', scope: 'read-write', mode: 'test' }).expect(201)).body.data;
    const auth = { Authorization: `Bearer ${key.secret}` };
    const http = () => request(t.app.getHttpServer());
    expect((await http().get('/api/templates').set(auth).expect(200)).body.pagination.totalDocuments).toBeGreaterThan(0);
    const res = await http().post(`/api/templates/${templateId}/prints`).set(auth).send({ items: [{ slot: 0, imageId: star._id, sizeId: one._id }] }).expect(201);
    expect(res.body.data.test).toBe(true);
    const read = (await s.agent.post('/api/api-keys').send({ name: 'Reader', scope: 'read' }).expect(201)).body.data;
    await http().post('/api/templates').set({ Authorization: `Bearer ${read.secret}` }).send({ name: 'x', printId: sourceId }).expect(403);
  });

  it('PATCH renames, DELETE removes', async () => {
    const res = await s.agent.patch(`/api/templates/${templateId}`).send({ name: '  Team set (home)  ' }).expect(200);
    expect(res.body.data.name).toBe('Team set (home)');
    const extra = (await s.agent.post('/api/templates').send({ name: 'Throwaway', printId: sourceId, sheet: 0 }).expect(201)).body.data;
    await s.agent.delete(`/api/templates/${extra._id}`).expect(200);
    await s.agent.get(`/api/templates/${extra._id}`).expect(404);
    await s.agent.delete(`/api/templates/${extra._id}`).expect(404);
  });

  it('GET /api/templates pages 60 templates: pages and totals right, none twice, sorted and searchable', async () => {
    const lister = await signUpAndLogin(t, 'lister');
    const slots = Array.from({ length: 8 }, (_, i) => ({ sheet: 0, x: 0.5 + (i % 4) * 2.3, y: 0.5 + Math.floor(i / 4) * 2.3, width: 2, height: 2, rotation: 0, label: `slot ${i + 1}` }));
    for (let i = 0; i < 60; i++)
      await lister.agent.post('/api/templates').send({ name: `Set ${String(i).padStart(2, '0')}`, settings, slots }).expect(201);
    const seen = new Set<string>();
    for (let page = 1; page <= 3; page++) {
      const res = (await lister.agent.get(`/api/templates?page=${page}&limit=25`).expect(200)).body;
      expect(res.pagination).toEqual({ totalDocuments: 60, totalPages: 3 });
      expect(res.data).toHaveLength(page < 3 ? 25 : 10);
      expect(res.data[0].slots).toHaveLength(8);
      for (const d of res.data) seen.add(d._id);
    }
    expect(seen.size).toBe(60);
    const byName = (await lister.agent.get('/api/templates?limit=5&sortBy=name&sort=desc').expect(200)).body.data.map((d: any) => d.name);
    expect(byName).toEqual(['Set 59', 'Set 58', 'Set 57', 'Set 56', 'Set 55']);
    const found = (await lister.agent.get('/api/templates?search=set%204').expect(200)).body;
    expect(found.pagination.totalDocuments).toBe(10);
    await lister.agent.get('/api/templates?sortBy=slots').expect(400);
    expect((await s.agent.get('/api/templates?limit=100').expect(200)).body.data.every((d: any) => !d.name.startsWith('Set '))).toBe(true);
  });
});
