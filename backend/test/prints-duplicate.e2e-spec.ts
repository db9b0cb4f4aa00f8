import { DataSource } from 'typeorm';
import { addDesign, addSize } from './prints.fixtures';
import { createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/** "Duplicate": a reprint starts as a new draft with the same items and settings. */
describe('Duplicate a print (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('a processed print → a new Manual draft with its items and settings; the source is untouched; deleted designs are left out and counted', async () => {
    const s = await signUpAndLogin(t, 'dup');
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((n) => addDesign(t, s.user._id, { name: n, width: 100, height: 80, border: 4 })));
    const size = await addSize(t, s.user._id, '4 in', 4);
    const created = (
      await s.agent
        .post('/api/print')
        .send({ printItems: [{ imageId: a._id, sizeId: size._id, quantity: 3 }, { imageId: b._id, sizeId: size._id, quantity: 2 }, { imageId: c._id, sizeId: size._id, quantity: 1 }] })
        .expect(201)
    ).body.data;
    // the settings processing stores: all of them, resolved (not the engine defaults: a reprint keeps what was used)
    const settings = { width: 20, maxLength: 120, gap: 0.3, margin: 0.2, dpi: 300, rotate: false, nesting: 'box', formats: ['png', 'pdf'] };
    const db = t.app.get(DataSource);
    await db.query(`UPDATE prints SET status = 'Completed', printed_at = now(), settings = $2, type = 'Etsy' WHERE id = $1`, [created._id, JSON.stringify(settings)]);

    const res = await s.agent.post(`/api/print/${created._id}/duplicate`).expect(201);
    expect(res.body.message).toBe('Print duplicated');
    const dup = res.body.data;
    expect(dup._id).not.toBe(created._id);
    expect(dup).toMatchObject({ status: 'In Draft', type: 'Manual', settings, creditCost: 6 });
    expect(dup.printItems.map((i: any) => [i.imageId, i.sizeId, i.quantity, i.orderItemId])).toEqual([
      [a._id, size._id, 3, null],
      [b._id, size._id, 2, null],
      [c._id, size._id, 1, null],
    ]);
    const source = (await s.agent.get(`/api/print/${created._id}`).expect(200)).body.data;
    expect(source).toMatchObject({ status: 'Completed', type: 'Etsy' });
    expect(source.printItems).toHaveLength(3);

    await db.query(`UPDATE images SET deleted_at = now() WHERE id = $1`, [b._id]); // kept for the completed print, gone from the library
    const partial = await s.agent.post(`/api/print/${created._id}/duplicate`).expect(201);
    expect(partial.body.message).toBe('Print duplicated. 1 item was left out: the design or size was deleted.');
    expect(partial.body.data.printItems.map((i: any) => i.imageId)).toEqual([a._id, c._id]);

    await db.query(`UPDATE images SET deleted_at = now() WHERE id = ANY($1::uuid[])`, [[a._id, c._id]]);
    const none = await s.agent.post(`/api/print/${created._id}/duplicate`).expect(409);
    expect(none.body).toMatchObject({ code: 'nothing_to_duplicate', message: 'Nothing to duplicate: every design or size of this print has been deleted' });
  });

  it("another seller's print is 404 and nothing is created", async () => {
    const owner = await signUpAndLogin(t, 'dupowner');
    const other = await signUpAndLogin(t, 'dupother');
    const img = await addDesign(t, owner.user._id, { width: 50, height: 50, border: 2 });
    const size = await addSize(t, owner.user._id, '2 in', 2);
    const p = (await owner.agent.post('/api/print').send({ printItems: [{ imageId: img._id, sizeId: size._id, quantity: 1 }] }).expect(201)).body.data;
    await other.agent.post(`/api/print/${p._id}/duplicate`).expect(404);
    expect((await other.agent.get('/api/print').expect(200)).body.pagination.totalDocuments).toBe(0);
  });
});
