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
      pendingOrders: 0, totalOrders: 0, completedOrders: 0, totalIntegrations: 0,
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
    await admin.put(`/api/users/${s.user._id}/credit`).send({ availableCredits: 100 }).expect(200);
    const credits = t.app.get(CreditsService);
    await credits.apply({ userId: s.user._id, reason: CreditReason.PrintCharge, availableDelta: -40, usedDelta: 40 });
    await credits.apply({ userId: s.user._id, reason: CreditReason.Refund, availableDelta: 15, usedDelta: -15 });

    const stats = (await s.agent.get('/api/statistics').expect(200)).body.data;
    expect(stats).toEqual({
      pendingPrints: 3,
      totalPrints: 9,
      printedImages: 2,
      usedCredits: 25,
      // Orders and integrations: the shops feature provides these counts; see the next test.
      pendingOrders: 0,
      totalOrders: 0,
      completedOrders: 0,
      totalIntegrations: 0,
    });
    const theirsStats = (await other.agent.get('/api/statistics').expect(200)).body.data;
    expect(theirsStats).toMatchObject({ pendingPrints: 5, totalPrints: 5, printedImages: 1, usedCredits: 0 });
  });

  // Wired to OrdersService.countsFor at merge: give the seller 2 Pending + 1 Completed +
  // 1 Partially Completed orders on 2 integrations (another user's order too), then expect
  // pendingOrders 2, totalOrders 4, completedOrders 1, totalIntegrations 2.
  it('order and integration cards are present (counts come from the orders feature)', async () => {
    const s = await signUpAndLogin(t, 'st_orders');
    const stats = (await s.agent.get('/api/statistics').expect(200)).body.data;
    for (const k of ['pendingOrders', 'totalOrders', 'completedOrders', 'totalIntegrations']) expect(stats[k]).toBe(0);
  });
});
