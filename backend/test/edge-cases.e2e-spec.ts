import { DataSource } from 'typeorm';
import { CreditsService } from '../src/credits/credits.service';
import { addDesign, addSize, setCredits, waitDone } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/** Input and state edge cases: NUL bytes, the stored layout of a Completed print, designs wider than the sheet, the credit editor. */
describe('Edge cases: NUL bytes, stored layouts, designs wider than the sheet, the credit editor (e2e)', () => {
  let t: TestApp;
  let admin: any;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await adminAgent(t);
  });
  afterAll(() => t.close());

  describe('a NUL byte in client text answers 400, never 500', () => {
    const NUL = { statusCode: 400, message: 'Text must not contain NUL characters (\\u0000)', code: 'nul_character', requestId: expect.any(String) };

    it('in a search (query) of every list', async () => {
      const { agent } = await signUpAndLogin(t, 'nulsearch');
      for (const path of ['/api/images', '/api/sizes', '/api/image-categories', '/api/print'])
        expect({ path, body: (await agent.get(path).query({ search: 'a\u0000b' })).body }).toEqual({ path, body: NUL });
      expect((await admin.get('/api/users').query({ search: '\u0000' }).expect(400)).body).toEqual(NUL);
    });

    it('in a name (JSON body), a route parameter and a multipart file name; nothing is written', async () => {
      const { agent, user } = await signUpAndLogin(t, 'nulname');
      expect((await agent.post('/api/sizes').send({ name: 'Front\u0000', value: 2 }).expect(400)).body).toEqual(NUL);
      expect((await agent.post('/api/image-categories').send({ name: 'x\u0000y' }).expect(400)).body).toEqual(NUL);
      const image = await addDesign(t, user._id, { name: 'art' });
      expect((await agent.put(`/api/images/${image._id}`).send({ name: 'a\u0000' }).expect(400)).body).toEqual(NUL);
      expect((await agent.get('/api/print/%00').expect(400)).body).toEqual(NUL);
      const png = Buffer.from('89504e470d0a1a0a', 'hex');
      // busboy refuses the part header itself, before anything reaches us
      expect((await agent.post('/api/images/bulk-upload').attach('files', png, 'a\u0000b.png').expect(400)).body.message).toBe('Multipart: Malformed part header');
      const db = t.app.get(DataSource);
      expect(await db.query(`SELECT count(*)::int AS n FROM sizes WHERE user_id = $1`, [user._id])).toEqual([{ n: 0 }]);
      expect(await db.query(`SELECT count(*)::int AS n FROM images WHERE user_id = $1`, [user._id])).toEqual([{ n: 1 }]);
      expect((await db.query(`SELECT name FROM images WHERE id = $1`, [image._id]))[0].name).toBe('art');
    });
  });

  describe('a Completed print shows the layout it was rendered with', () => {
    it('stores the layout when the job completes; the preview returns it whatever the settings are now', async () => {
      const s = await signUpAndLogin(t, 'rendered');
      await setCredits(t, admin, s.user._id, 50);
      const a = await addDesign(t, s.user._id, { name: 'wide', width: 900, height: 400 });
      const b = await addDesign(t, s.user._id, { name: 'tall', width: 300, height: 700 });
      const big = await addSize(t, s.user._id, 'Big', 6);
      const small = await addSize(t, s.user._id, 'Small', 2.5);
      const p = (
        await s.agent
          .post('/api/print')
          .send({ printItems: [{ imageId: a._id, sizeId: big._id, quantity: 7 }, { imageId: b._id, sizeId: small._id, quantity: 9 }] })
          .expect(201)
      ).body.data;
      // Both formats: the files are one entry per sheet and format, so sheets are counted by their number.
      await s.agent.post(`/api/print/${p._id}/process`).send({ settings: { width: 13, maxLength: 12, formats: ['png', 'pdf'] } }).expect(201);
      const done = await waitDone(s.agent, p._id);
      expect(done.status).toBe('Completed');
      const sheetFiles = done.fileId.filter((f: any) => f.format === 'png');
      expect(sheetFiles.map((f: any) => f.sheet)).toEqual(sheetFiles.map((_: any, i: number) => i + 1));

      const [row] = await t.app.get(DataSource).query(`SELECT layout FROM prints WHERE id = $1`, [p._id]);
      expect(row.layout.sheets.length).toBeGreaterThan(1);
      expect(new Set(done.fileId.map((f: any) => f.sheet)).size).toBe(row.layout.sheets.length);
      expect(done.fileId).toHaveLength(2 * row.layout.sheets.length);

      // The seller's saved settings and the page's body both differ from what was rendered.
      await s.agent.put('/api/sheet-settings').send({ width: 22, gap: 1 }).expect(200);
      const v = (await s.agent.post(`/api/print/${p._id}/preview`).send({ settings: { width: 30, maxLength: 50 } }).expect(200)).body.data;
      expect(v.rendered).toBe(true);
      expect(v.settings).toMatchObject({ width: 13, maxLength: 12 });
      // One drawing per delivered file, with that file's size and length.
      expect(v.sheets.map((sh: any) => [sh.widthPx, sh.lengthPx, +sh.length.toFixed(3)])).toEqual(
        sheetFiles.map((f: any) => [f.widthPx, f.heightPx, f.lengthIn]),
      );
      // a computed layout pins nothing (the layout editor's pins are saved separately)
      expect(v.sheets.map((sh: any) => sh.placements)).toEqual(
        row.layout.sheets.map((sh: any) => sh.placements.map((pl: any) => ({ ...pl, pinned: false, imageId: pl.itemId === done.printItems[0]._id ? a._id : b._id }))),
      );
      expect(v.copies).toBe(16);
      // Asked again: the same answer (nothing is laid out again).
      expect((await s.agent.post(`/api/print/${p._id}/preview`).send({}).expect(200)).body.data.sheets).toEqual(v.sheets);

      // Delete (files only) → the print is a draft again and gets the live layout.
      await s.agent.delete(`/api/print/${p._id}`).expect(200);
      const live = (await s.agent.post(`/api/print/${p._id}/preview`).send({}).expect(200)).body.data;
      expect(live.rendered).toBe(false);
      expect(live.settings.width).toBe(22);
    });
  });

  describe('a design wider than the sheet', () => {
    it('is flagged on its item in the preview, left out of the cost, and processing it is refused before charging', async () => {
      const s = await signUpAndLogin(t, 'toowide');
      await setCredits(t, admin, s.user._id, 100);
      const art = await addDesign(t, s.user._id, { name: 'banner' });
      const ok = await addSize(t, s.user._id, 'Pocket', 3);
      const huge = await addSize(t, s.user._id, 'Huge', 40);
      const items = [
        { imageId: art._id, sizeId: ok._id, quantity: 4 },
        { imageId: art._id, sizeId: huge._id, quantity: 5 },
      ];
      const draft = (await s.agent.post('/api/print/preview').send({ printItems: items }).expect(200)).body.data;
      expect(draft.warnings).toEqual([
        { itemId: 'draft-1', code: 'too_large', message: 'Design "banner" is 40 x 24 in and does not fit a 22 x 100 in sheet with 0.25 in margins.' },
      ]);
      expect(draft.canProcess).toBe(false);
      expect(draft.copies).toBe(4);
      expect(draft.creditCost).toBe(4);
      expect(draft.sheets.flatMap((sh: any) => sh.placements)).toHaveLength(4);

      const p = (await s.agent.post('/api/print').send({ printItems: items }).expect(201)).body.data;
      const v = (await s.agent.post(`/api/print/${p._id}/preview`).send({}).expect(200)).body.data;
      expect(v.warnings.map((w: any) => [w.itemId, w.code])).toEqual([[p.printItems[1]._id, 'too_large']]);
      expect(v.creditCost).toBe(4);
      const refused = await s.agent.post(`/api/print/${p._id}/process`).send({}).expect(400);
      expect(refused.body).toMatchObject({ code: 'design_too_large', message: expect.stringContaining('does not fit a 22 x 100 in sheet') });
      expect((await s.agent.get(`/api/print/${p._id}`).expect(200)).body.data.status).toBe('In Draft');
      expect(await t.app.get(CreditsService).ledger(s.user._id)).toHaveLength(1); // the admin's grant only
      expect((await s.agent.get('/api/profile').expect(200)).body.data.credit.availableCredits).toBe(100);
    });
  });

  describe('the admin credit editor', () => {
    it('refuses a negative, zero or fractional balance with a clear 400 and changes nothing', async () => {
      const s = await signUpAndLogin(t, 'creditee');
      await setCredits(t, admin, s.user._id, 7);
      for (const bad of [-5, 0, 1.5, '3', null])
        expect((await admin.put(`/api/users/${s.user._id}/credit`).send({ availableCredits: bad, reason: 'test' }).expect(400)).body.message).toMatch(/^Available credits /);
      expect((await admin.put(`/api/users/${s.user._id}/credit`).send({ availableCredits: -5, reason: 'test' })).body.message).toBe('Available credits must be a positive integer');
      expect((await s.agent.get('/api/profile').expect(200)).body.data.credit.availableCredits).toBe(7);
    });
  });
});
