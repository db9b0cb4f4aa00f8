import { DataSource } from 'typeorm';
import { CreditsService } from '../src/credits/credits.service';
import { CreditReason } from '../src/credits/entities/credit-transaction.entity';
import { addDesign } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

describe('Statistics (e2e)', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const addPrints = (userId: string, status: string, n: number) =>
    db.query(`INSERT INTO prints (user_id, status) SELECT $1, $2 FROM generate_series(1, $3)`, [userId, status, n]);

  it('GET /api/statistics → 401 without a session', async () => {
    await t.agent().get('/api/statistics').expect(401);
  });

  it('GET /api/statistics → every card from known fixtures, only the caller’s data', async () => {
    const s = await signUpAndLogin(t, 'st_seller');
    const other = await signUpAndLogin(t, 'st_other');
    const fresh = (await s.agent.get('/api/statistics').expect(200)).body.data;
    expect(fresh).toEqual({
      pendingPrints: 0, totalPrints: 0, printedImages: 0, usedCredits: 0,
      pendingOrders: 0, totalOrders: 0, completedOrders: 0, totalIntegrations: 0, queuedOrders: 0, inProductionOrders: 0, fulfilledOrders: 0,
    });

    // Prints: 3 drafts, 2 completed, 1 processing, 1 deleted, 1 error = 8; 1 is cancelled → 9.
    await addPrints(s.user._id, 'In Draft', 3);
    await addPrints(s.user._id, 'Completed', 2);
    await addPrints(s.user._id, 'Processing', 1);
    await addPrints(s.user._id, 'Deleted', 1);
    await addPrints(s.user._id, 'Error', 1);
    await addPrints(s.user._id, 'Cancelled', 1);
    await addPrints(other.user._id, 'In Draft', 5);

    // Images: two printed (one of them many times), one never printed, one printed but deleted.
    const printed1 = await addDesign(t, s.user._id, { name: 'a' });
    const printed2 = await addDesign(t, s.user._id, { name: 'b' });
    await addDesign(t, s.user._id, { name: 'never' });
    const gone = await addDesign(t, s.user._id, { name: 'gone' });
    const theirs = await addDesign(t, other.user._id, { name: 'theirs' });
    await db.query(`UPDATE images SET used_in_print = 7 WHERE id = $1`, [printed1._id]);
    await db.query(`UPDATE images SET used_in_print = 1 WHERE id IN ($1, $2, $3)`, [printed2._id, gone._id, theirs._id]);
    await db.query(`UPDATE images SET deleted_at = now() WHERE id = $1`, [gone._id]);

    // Credits: 40 charged, 15 of them refunded → 25 used. An admin grant does not count.
    const admin = await adminAgent(t);
    await admin.put(`/api/users/${s.user._id}/credit`).send({ availableCredits: 100, reason: 'test setup' }).expect(200);
    const credits = t.app.get(CreditsService);
    await credits.apply({ userId: s.user._id, reason: CreditReason.PrintCharge, availableDelta: -40, usedDelta: 40 });
    await credits.apply({ userId: s.user._id, reason: CreditReason.Refund, availableDelta: 15, usedDelta: -15 });

    const stats = (await s.agent.get('/api/statistics').expect(200)).body.data;
    expect(stats).toEqual({
      pendingPrints: 3,
      totalPrints: 9,
      printedImages: 2,
      usedCredits: 25,
      // Orders and integrations: none yet (counted in the next test).
      pendingOrders: 0,
      totalOrders: 0,
      completedOrders: 0,
      totalIntegrations: 0,
      queuedOrders: 0,
      inProductionOrders: 0,
      fulfilledOrders: 0,
    });
    const theirsStats = (await other.agent.get('/api/statistics').expect(200)).body.data;
    expect(theirsStats).toMatchObject({ pendingPrints: 5, totalPrints: 5, printedImages: 1, usedCredits: 0 });
  });

  it('order and integration cards count the caller’s orders by status', async () => {
    const s = await signUpAndLogin(t, 'st_orders');
    const other = await signUpAndLogin(t, 'st_orders_other');
    const integration = async (userId: string, name: string) =>
      (await db.query(`INSERT INTO integrations (user_id, name, type) VALUES ($1, $2, 'WordPress') RETURNING id`, [userId, name]))[0].id as string;
    const order = async (userId: string, integrationId: string, n: number, items: number) => {
      const [o] = await db.query(
        `INSERT INTO orders (user_id, integration_id, external_id, number, shop_status, integration_order_created_date)
         VALUES ($1, $2, $3::text, $3::text, 'processing', now()) RETURNING id`,
        [userId, integrationId, String(n)],
      );
      const rows = await db.query(
        `INSERT INTO order_items (order_id, user_id, external_id, title, quantity)
         SELECT $1::uuid, $2, $1::text || '-' || g, 'Design ' || g, 1 FROM generate_series(1, $3::int) g RETURNING id`,
        [o.id, userId, items],
      );
      return rows.map((r: { id: string }) => r.id as string);
    };
    const printItems = async (userId: string, status: string, itemIds: string[]) => {
      const [p] = await db.query(`INSERT INTO prints (user_id, status) VALUES ($1, $2) RETURNING id`, [userId, status]);
      for (const id of itemIds) await db.query(`INSERT INTO print_items (print_id, quantity, order_item_id) VALUES ($1, 1, $2)`, [p.id, id]);
    };

    // 2 Pending, 1 Completed, 1 Partially Completed, 1 In Draft on 2 integrations; another user's order.
    const a = await integration(s.user._id, 'Shop A');
    const b = await integration(s.user._id, 'Shop B');
    await order(s.user._id, a, 1, 2);
    await order(s.user._id, b, 2, 1);
    await printItems(s.user._id, 'Completed', await order(s.user._id, a, 3, 2));
    const partial = await order(s.user._id, b, 4, 2);
    await printItems(s.user._id, 'Completed', [partial[0]]);
    await printItems(s.user._id, 'In Draft', await order(s.user._id, a, 5, 1));
    await order(other.user._id, await integration(other.user._id, 'Theirs'), 6, 1);

    const stats = (await s.agent.get('/api/statistics').expect(200)).body.data;
    expect(stats).toMatchObject({ pendingOrders: 2, totalOrders: 5, completedOrders: 1, totalIntegrations: 2 });
    // Production: orders 1, 2 and the partial 4 have items in no print; order 5 is in a draft.
    expect(stats).toMatchObject({ queuedOrders: 3, inProductionOrders: 1, fulfilledOrders: 0 });
    const theirs = (await other.agent.get('/api/statistics').expect(200)).body.data;
    expect(theirs).toMatchObject({ pendingOrders: 1, totalOrders: 1, completedOrders: 0, totalIntegrations: 1 });
  });
});
