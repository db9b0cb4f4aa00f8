import { DataSource } from 'typeorm';
import { addDesign, addSize } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/**
 * Every list pages over its parents, not over the rows of a join: a print with 12 items,
 * an order with 12 items or a payment's user must count once against `limit`, and the
 * totals must be the number of parents. Parents here have very different numbers of
 * children, in an order where paging over the join would cut pages short.
 */
describe('Lists page over parents (e2e)', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  /** Walks every page of `limit`; returns the ids in order, checking each page's totals. */
  async function walk(agent: any, path: string, limit: number, expectedTotal: number) {
    const ids: string[] = [];
    const pages = Math.ceil(expectedTotal / limit);
    for (let page = 1; page <= pages + 1; page++) {
      const sep = path.includes('?') ? '&' : '?';
      const res = await agent.get(`${path}${sep}page=${page}&limit=${limit}`).expect(200);
      expect(res.body.pagination).toEqual({ totalDocuments: expectedTotal, totalPages: pages });
      const expectedOnPage = page <= pages ? Math.min(limit, expectedTotal - (page - 1) * limit) : 0;
      expect(res.body.data).toHaveLength(expectedOnPage);
      ids.push(...res.body.data.map((d: any) => d._id));
    }
    expect(new Set(ids).size).toBe(ids.length);
    return ids;
  }

  describe('prints', () => {
    let seller: Awaited<ReturnType<typeof signUpAndLogin>>;
    const created: { id: string; items: number }[] = [];

    beforeAll(async () => {
      seller = await signUpAndLogin(t, 'manyitems');
      const uid = seller.user._id;
      const images = await Promise.all([0, 1, 2, 3].map((n) => addDesign(t, uid, { name: `d${n}`, width: 120, height: 90, border: 5 })));
      const sizes = await Promise.all([1, 2, 3].map((n) => addSize(t, uid, `${n} in`, n)));
      const combos = images.flatMap((img) => sizes.map((s) => ({ imageId: img._id, sizeId: s._id, quantity: 1 })));
      // 1, 12, 3, 1, 12 items; created one after the other (newest first in the list)
      for (const n of [1, 12, 3, 1, 12]) {
        const res = await seller.agent.post('/api/print').send({ printItems: combos.slice(0, n) }).expect(201);
        expect(res.body.data.printItems).toHaveLength(n);
        created.push({ id: res.body.data._id, items: n });
      }
    });

    it('GET /api/print: every page holds `limit` prints with all their items; the total is the number of prints', async () => {
      const newestFirst = [...created].reverse().map((c) => c.id);
      for (const limit of [1, 2, 3, 10]) expect(await walk(seller.agent, '/api/print', limit, 5)).toEqual(newestFirst);
      // by cursor, in every sort (printedAt is null on these drafts: they sort last, by id)
      for (const sort of ['', '&sortBy=printedAt', '&sortBy=printedAt&sort=asc', '&sortBy=status&sort=asc', '&sortBy=updatedAt']) {
        const expected = (await seller.agent.get(`/api/print?limit=10${sort}`).expect(200)).body.data.map((p: any) => p._id);
        const walked: string[] = [];
        let after = '';
        for (;;) {
          const page = (await seller.agent.get(`/api/print?limit=2${sort}${after}`).expect(200)).body;
          walked.push(...page.data.map((p: any) => p._id));
          if (!page.hasMore) break;
          after = `&startingAfter=${page.data.at(-1)._id}`;
        }
        expect([sort, walked]).toEqual([sort, expected]);
      }
      const all = (await seller.agent.get('/api/print?limit=10').expect(200)).body.data;
      expect(all.map((p: any) => p.printItems.length)).toEqual([...created].reverse().map((c) => c.items));
      // ascending order is the same set reversed
      expect(await walk(seller.agent, '/api/print?sort=asc', 2, 5)).toEqual(created.map((c) => c.id));
    });

    it('filters keep exact totals: status and type (counters), a date range (counted)', async () => {
      await db.query(`UPDATE prints SET status = 'Completed', printed_at = now() WHERE id = ANY($1::uuid[])`, [[created[1].id, created[4].id]]);
      expect(await walk(seller.agent, '/api/print?status=Completed', 1, 2)).toEqual([created[4].id, created[1].id]);
      await walk(seller.agent, '/api/print?status=In%20Draft', 2, 3);
      await walk(seller.agent, '/api/print?type=Manual', 4, 5);
      await walk(seller.agent, '/api/print?type=Etsy', 4, 0);
      const today = new Date().toISOString().slice(0, 10);
      await walk(seller.agent, `/api/print?startDate=${today}&endDate=${today}`, 2, 5);
      await walk(seller.agent, `/api/print?dateType=printedAt&startDate=${today}`, 1, 2);
      await walk(seller.agent, '/api/print?startDate=2001-01-01&endDate=2001-01-02', 2, 0);
    });

    it('the admin sees the same pages for the seller (GET /api/print/user/:id); the dashboard counts agree', async () => {
      const admin = await adminAgent(t);
      await walk(admin, `/api/print/user/${seller.user._id}`, 2, 5);
      const stats = (await seller.agent.get('/api/statistics').expect(200)).body.data;
      expect(stats).toMatchObject({ totalPrints: 5, pendingPrints: 3 });
    });

    it('deleting a print (status Deleted) and removing it (force) move every total at once', async () => {
      await seller.agent.delete(`/api/print/${created[0].id}`).expect(200);
      await walk(seller.agent, '/api/print', 3, 5);
      expect(await walk(seller.agent, '/api/print?status=Deleted', 3, 1)).toEqual([created[0].id]);
      expect((await seller.agent.get('/api/statistics').expect(200)).body.data).toMatchObject({ totalPrints: 5, pendingPrints: 2 });
      await seller.agent.delete(`/api/print/${created[0].id}/force`).expect(200);
      await walk(seller.agent, '/api/print', 3, 4);
      await walk(seller.agent, '/api/print?status=Deleted', 3, 0);
      expect((await seller.agent.get('/api/statistics').expect(200)).body.data).toMatchObject({ totalPrints: 4, pendingPrints: 2 });
    });

    it('the detail has every item, and neither it nor the list carries the stored layout', async () => {
      await db.query(`UPDATE prints SET layout = $2 WHERE id = $1`, [created[4].id, JSON.stringify({ sheets: [], marker: 'x'.repeat(1000) })]);
      const detail = (await seller.agent.get(`/api/print/${created[4].id}`).expect(200)).body.data;
      expect(detail.printItems).toHaveLength(12);
      const list = (await seller.agent.get('/api/print?limit=1').expect(200)).text;
      expect(list).not.toContain('marker');
      expect(JSON.stringify(detail)).not.toContain('marker');
    });
  });

  it('statistics: printed images follow used_in_print and deletion (trigger-kept counter)', async () => {
    const s = await signUpAndLogin(t, 'printedimages');
    const imgs = await Promise.all([0, 1, 2].map((n) => addDesign(t, s.user._id, { name: `p${n}`, width: 60, height: 60, border: 2 })));
    const printed = async () => (await s.agent.get('/api/statistics').expect(200)).body.data.printedImages;
    expect(await printed()).toBe(0);
    await db.query(`UPDATE images SET used_in_print = used_in_print + 1 WHERE id = ANY($1::uuid[])`, [[imgs[0]._id, imgs[1]._id]]);
    await db.query(`UPDATE images SET used_in_print = used_in_print + 1 WHERE id = $1`, [imgs[0]._id]);
    expect(await printed()).toBe(2);
    await db.query(`UPDATE images SET deleted_at = now() WHERE id = $1`, [imgs[1]._id]);
    expect(await printed()).toBe(1);
    const cats = await db.query(`INSERT INTO image_categories (user_id, name) VALUES ($1, 'Moved') RETURNING id`, [s.user._id]);
    await db.query(`UPDATE images SET category_id = $2 WHERE id = $1`, [imgs[0]._id, cats[0].id]);
    expect(await printed()).toBe(1);
    expect((await s.agent.get('/api/images').expect(200)).body.pagination.totalDocuments).toBe(2);
  });

  it('GET /api/images by cursor: startingAfter walks every sort without gaps or repeats, even while images are added', async () => {
    const s = await signUpAndLogin(t, 'cursorwalker');
    const uid = s.user._id;
    // Same timestamps and scores on purpose: the id must break the ties.
    await db.query(
      `INSERT INTO images (user_id, name, original_name, file_key, mime, bytes, width, height, status, score, created_at, updated_at)
       SELECT $1, 'img ' || lpad(g::text, 2, '0'), 'x.png', 'k' || g, 'image/png', 1, 10, 10, 'ready', (g % 3)::numeric, '2026-01-01T00:00:00Z'::timestamptz + ((g % 4) || ' microseconds')::interval, now()
       FROM generate_series(1, 23) g`,
      [uid],
    );
    for (const sort of ['sortBy=createdAt', 'sortBy=name', 'sortBy=score&sort=asc', 'sortBy=usedInPrint']) {
      const all = (await s.agent.get(`/api/images?${sort}&limit=100`).expect(200)).body;
      expect(all).toMatchObject({ hasMore: false, pagination: { totalDocuments: 23 } });
      const walked: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = (await s.agent.get(`/api/images?${sort}&limit=5${after ? `&startingAfter=${after}` : ''}`).expect(200)).body;
        walked.push(...page.data.map((d: any) => d._id));
        if (!page.hasMore) break;
        after = page.data.at(-1)._id;
        // a new upload between two pages moves no one: the walk stays exact
        if (walked.length === 10) await db.query(`INSERT INTO images (user_id, name, original_name, file_key, mime, bytes, width, height, status, created_at, updated_at) VALUES ($1, 'aaa new', 'n.png', 'kn', 'image/png', 1, 10, 10, 'ready', '2025-01-01', now())`, [uid]);
      }
      const expected = all.data.map((d: any) => d._id);
      expect([sort, walked.filter((id) => expected.includes(id))]).toEqual([sort, expected]);
      await db.query(`DELETE FROM images WHERE user_id = $1 AND name = 'aaa new'`, [uid]);
    }
    const other = await signUpAndLogin(t, 'cursorother');
    const theirs = (await s.agent.get('/api/images?limit=1').expect(200)).body.data[0]._id;
    expect((await other.agent.get(`/api/images?startingAfter=${theirs}`).expect(400)).body.code).toBe('invalid_cursor');
    expect((await s.agent.get('/api/images?startingAfter=nope').expect(400)).body.code).toBe('validation_failed');
  });

  it('GET /api/orders: orders with 1 and 12 items page by order', async () => {
    const s = await signUpAndLogin(t, 'manyorders');
    const [{ id: integrationId }] = await db.query(
      `INSERT INTO integrations (user_id, name, type, connected) VALUES ($1, 'Shop', 'WordPress', true) RETURNING id`,
      [s.user._id],
    );
    const orderIds: string[] = [];
    for (let n = 0; n < 5; n++) {
      const [{ id }] = await db.query(
        `INSERT INTO orders (user_id, integration_id, external_id, number, shop_status, buyer_info, integration_order_created_date)
         VALUES ($1, $2, $3, $3, 'processing', '{"name": "Buyer", "email": null, "phone": null, "address": null, "country": "US"}', now() - ($4 || ' hours')::interval) RETURNING id`,
        [s.user._id, integrationId, String(100 + n), n],
      );
      orderIds.push(id);
      const items = n % 2 === 0 ? 12 : 1;
      await db.query(
        `INSERT INTO order_items (order_id, user_id, external_id, title, quantity)
         SELECT $1, $2, 'i' || g, 'Item ' || g, 1 FROM generate_series(1, $3::int) g`,
        [id, s.user._id, items],
      );
    }
    for (const limit of [1, 2, 4]) expect(await walk(s.agent, '/api/orders', limit, 5)).toEqual(orderIds);
    const page = (await s.agent.get('/api/orders?limit=5').expect(200)).body.data;
    expect(page.map((o: any) => o.orderItems.length)).toEqual([12, 1, 12, 1, 12]);
  });

  it('GET /api/orders by cursor: startingAfter walks every sort (each dateType, both directions) without gaps or repeats, even while orders arrive', async () => {
    const s = await signUpAndLogin(t, 'ordercursor');
    const [{ id: integrationId }] = await db.query(`INSERT INTO integrations (user_id, name, type, connected) VALUES ($1, 'Shop', 'WordPress', true) RETURNING id`, [s.user._id]);
    const buyer = JSON.stringify({ name: 'Buyer', email: null, phone: null, address: null, country: 'US' });
    // Equal dates on purpose (to the microsecond): the id must break the ties.
    const at = (col: string, mod: number) => `'2026-01-01T00:00:00Z'::timestamptz + ((g % ${mod}) || ' microseconds')::interval AS ${col}`;
    await db.query(
      `INSERT INTO orders (user_id, integration_id, external_id, number, shop_status, buyer_info, integration_order_created_date, created_at, updated_at)
       SELECT $1, $2, 'o' || g, 'o' || g, 'processing', $3, d.a, d.b, d.c
         FROM generate_series(1, 17) g, LATERAL (SELECT ${at('a', 3)}, ${at('b', 4)}, ${at('c', 5)}) d`,
      [s.user._id, integrationId, buyer],
    );
    const arrive = (n: number, when: string) =>
      db.query(
        `INSERT INTO orders (user_id, integration_id, external_id, number, shop_status, buyer_info, integration_order_created_date, created_at, updated_at)
         VALUES ($1, $2, $3, $3, 'processing', $5, $4, $4, $4)`,
        [s.user._id, integrationId, `new${n}`, when, buyer],
      );
    const sorts = ['', 'sort=asc', 'dateType=createdAt', 'dateType=createdAt&sort=asc', 'dateType=updatedAt', 'dateType=updatedAt&sort=asc', 'sortBy=updatedAt&sort=asc'];
    // sortBy orders by its date whatever dateType filters on
    const ids = async (q: string) => (await s.agent.get(`/api/orders?${q}&limit=100`).expect(200)).body.data.map((o: any) => o._id);
    expect(await ids('sortBy=createdAt&dateType=updatedAt')).toEqual(await ids('dateType=createdAt'));
    expect(await ids('sortBy=createdAt')).not.toEqual(await ids('sortBy=updatedAt'));
    expect((await s.agent.get('/api/orders?sortBy=total').expect(400)).body.message).toMatch(/sortBy must be one of integrationOrderCreatedDate, createdAt, updatedAt/);
    for (const sort of sorts) {
      const all = (await s.agent.get(`/api/orders?${sort}&limit=100`).expect(200)).body;
      expect(all).toMatchObject({ hasMore: false, pagination: { totalDocuments: 17 } });
      const walked: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = (await s.agent.get(`/api/orders?${sort}&limit=4${after ? `&startingAfter=${after}` : ''}`).expect(200)).body;
        expect(page.data.length).toBeLessThanOrEqual(4);
        walked.push(...page.data.map((o: any) => o._id));
        if (!page.hasMore) break;
        after = page.data.at(-1)._id;
        // orders synced between two pages, at either end of every sort, move no one
        if (walked.length === 8) await Promise.all([arrive(1, '2030-01-01'), arrive(2, '2020-01-01')]);
      }
      const expected = all.data.map((o: any) => o._id);
      expect([sort, walked.filter((id) => expected.includes(id))]).toEqual([sort, expected]);
      expect(walked.length).toBe(new Set(walked).size);
      await db.query(`DELETE FROM orders WHERE user_id = $1 AND external_id LIKE 'new%'`, [s.user._id]);
    }
    // a filter applies to the cursor's pages too
    const [{ id: otherShop }] = await db.query(`INSERT INTO integrations (user_id, name, type, connected) VALUES ($1, 'Other', 'WordPress', true) RETURNING id`, [s.user._id]);
    await db.query(`UPDATE orders SET integration_id = $2 WHERE user_id = $1 AND external_id IN ('o1', 'o2', 'o3')`, [s.user._id, otherShop]);
    const first = (await s.agent.get(`/api/orders?integrationId=${integrationId}&limit=10`).expect(200)).body;
    expect(first).toMatchObject({ hasMore: true, pagination: { totalDocuments: 14 } });
    const rest = (await s.agent.get(`/api/orders?integrationId=${integrationId}&limit=10&startingAfter=${first.data.at(-1)._id}`).expect(200)).body;
    expect(rest.hasMore).toBe(false);
    expect(rest.data).toHaveLength(4);
    // another seller's order, or no id at all, is not a cursor
    const other = await signUpAndLogin(t, 'ordercursorother');
    expect((await other.agent.get(`/api/orders?startingAfter=${first.data[0]._id}`).expect(400)).body.code).toBe('invalid_cursor');
    expect((await s.agent.get('/api/orders?startingAfter=nope').expect(400)).body.code).toBe('validation_failed');
  });

  it('GET /api/completedTransfers (admin, payments joined to users) and GET /api/users page by parent', async () => {
    const admin = await adminAgent(t);
    const users = await db.query(`SELECT id FROM users ORDER BY created_at`);
    for (const [n, u] of users.entries()) {
      await db.query(
        `INSERT INTO payments (user_id, type, package_sku, credits, price, currency, payment_method, status, purchase_date)
         SELECT $1, 'Test checkout', 'pack', 10, 5, 'USD', 'test', 'Completed', now() - (g || ' minutes')::interval FROM generate_series(1, $2::int) g`,
        [u.id, n + 1],
      );
    }
    const total = (users.length * (users.length + 1)) / 2;
    for (const limit of [1, 3, 7]) await walk(admin, '/api/completedTransfers', limit, total);
    await walk(admin, '/api/users', 2, users.length);
  });
});
