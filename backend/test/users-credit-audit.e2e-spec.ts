import { DataSource } from 'typeorm';
import { CreditsService } from '../src/credits/credits.service';
import { CreditReason } from '../src/credits/entities/credit-transaction.entity';
import { CreditGrants1764000400000 } from '../src/database/migrations/1764000400000-CreditGrants';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

type Agent = Awaited<ReturnType<typeof adminAgent>>;

/** Admin credit tools: grants are not payments, every admin change says who and why, and the user's credit history shows all of it. */
describe('Admin credit grants and the credit history (e2e)', () => {
  let t: TestApp;
  let admin: Agent;
  let adminId: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await adminAgent(t);
    adminId = (await admin.get('/api/profile').expect(200)).body.data._id;
  });
  afterAll(() => t.close());

  it('a grant adds credits with who and why, and is no payment: not in the history, not in Completed payments', async () => {
    const { agent, user } = await signUpAndLogin(t, 'granted');
    await agent.post(`/api/users/${user._id}/credit/grant`).send({ credits: 500, reason: 'for myself' }).expect(403);
    for (const [body, message] of [
      [{ credits: 500 }, /reason is required/],
      [{ credits: 500, reason: ' no' }, /reason is required/],
      [{ credits: 0, reason: 'Goodwill' }, /^Credits must be a positive whole number$/],
      [{ credits: 2.5, reason: 'Goodwill' }, /^Credits must be a positive whole number$/],
      [{ credits: 1_000_001, reason: 'Goodwill' }, /^At most 1,000,000 credits at once$/],
    ] as const) {
      expect((await admin.post(`/api/users/${user._id}/credit/grant`).send(body).expect(400)).body.message).toMatch(message);
    }
    await admin.post('/api/users/00000000-0000-4000-8000-000000000000/credit/grant').send({ credits: 5, reason: 'Goodwill' }).expect(404);

    const res = await admin.post(`/api/users/${user._id}/credit/grant`).send({ credits: 500, reason: '  Goodwill for the failed print  ' }).expect(200);
    expect(res.body).toMatchObject({ message: '500 credits added to granted', data: { credit: { availableCredits: 500, usedCredits: 0 } } });
    expect((await agent.get('/api/profile').expect(200)).body.data.credit.availableCredits).toBe(500);

    const rows = await t.app.get(CreditsService).ledger(user._id);
    expect(rows.map((r) => [r.reason, r.availableDelta, r.actorId, r.note, r.reference])).toEqual([
      [CreditReason.AdminGrant, 500, adminId, 'Goodwill for the failed print', null],
    ]);
    // No money moved: no payment for the seller, nothing in the admin's Completed payments.
    expect((await agent.get('/api/payment').expect(200)).body.pagination.totalDocuments).toBe(0);
    expect((await admin.get('/api/completedTransfers?search=granted').expect(200)).body.pagination.totalDocuments).toBe(0);
    const [{ n }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM payments WHERE user_id = $1`, [user._id]);
    expect(n).toBe(0);
    // The seller is told (the header balance follows the notification).
    const bell = (await agent.get('/api/notifications').expect(200)).body.data;
    expect(bell[0].message).toBe('An administrator added 500 credits to your account. Available now: 500.');
  });

  it('a balance the admin lowers is told to the seller as well as one raised; the same balance again tells nothing', async () => {
    const { agent, user } = await signUpAndLogin(t, 'lowered');
    await admin.put(`/api/users/${user._id}/credit`).send({ availableCredits: 300, reason: 'Opening balance' }).expect(200);
    await admin.put(`/api/users/${user._id}/credit`).send({ availableCredits: 120, reason: 'Correction: test credits' }).expect(200);
    await admin.put(`/api/users/${user._id}/credit`).send({ availableCredits: 120, reason: 'Correction: test credits' }).expect(200);
    const bell = (await agent.get('/api/notifications').expect(200)).body.data.map((n: any) => n.message);
    expect(bell).toEqual([
      'An administrator removed 180 credits from your account. Available now: 120.',
      'An administrator added 300 credits to your account. Available now: 300.',
    ]);
    expect((await agent.get('/api/profile').expect(200)).body.data.credit.availableCredits).toBe(120);
  });

  it('the credit history: every change, newest first, paged, with who made it and why', async () => {
    const { agent, user } = await signUpAndLogin(t, 'audited');
    const credits = t.app.get(CreditsService);
    await admin.post(`/api/users/${user._id}/credit/grant`).send({ credits: 1000, reason: 'Welcome credits' }).expect(200);
    // A seller with a long history: 23 print charges by the system.
    for (let i = 0; i < 23; i++) {
      await credits.apply({ userId: user._id, reason: CreditReason.PrintCharge, availableDelta: -10, usedDelta: 10, reference: `print:${i}`, note: `Print ${i}` });
    }
    await admin.put(`/api/users/${user._id}/credit`).send({ availableCredits: 900, reason: 'Correction: double charge' }).expect(200);

    await agent.get(`/api/users/${user._id}/credit/history`).expect(403);
    await admin.get('/api/users/00000000-0000-4000-8000-000000000000/credit/history').expect(404);
    await admin.get(`/api/users/${user._id}/credit/history?limit=0`).expect(400);

    const first = (await admin.get(`/api/users/${user._id}/credit/history?page=1&limit=10`).expect(200)).body;
    expect(first.pagination).toEqual({ totalDocuments: 25, totalPages: 3 });
    expect(first.data).toHaveLength(10);
    expect(first.data[0]).toMatchObject({
      reason: 'admin_adjust',
      availableDelta: 900 - 770,
      availableAfter: 900,
      note: 'Correction: double charge',
      actor: { _id: adminId, username: expect.any(String), firstName: 'Admin' },
    });
    expect(first.data[1]).toMatchObject({ reason: 'print_charge', availableDelta: -10, usedDelta: 10, reference: 'print:22', actor: null });
    const last = (await admin.get(`/api/users/${user._id}/credit/history?page=3&limit=10`).expect(200)).body;
    expect(last.data).toHaveLength(5);
    expect(last.data.at(-1)).toMatchObject({ reason: 'admin_grant', availableDelta: 1000, availableAfter: 1000, note: 'Welcome credits', actor: { _id: adminId } });
    // Pages do not overlap and run newest to oldest.
    const all = [];
    for (let page = 1; page <= 3; page++) all.push(...(await admin.get(`/api/users/${user._id}/credit/history?page=${page}&limit=10`)).body.data);
    expect(new Set(all.map((r: any) => r._id)).size).toBe(25);
    const times = all.map((r: any) => new Date(r.createdAt).getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(await credits.consistent(user._id)).toBe(true);
  });

  it('the migration turns the old "Manual" payments into grants and balance edits into corrections', async () => {
    const db = t.app.get(DataSource);
    const { user } = await signUpAndLogin(t, 'legacy');
    const migration = new CreditGrants1764000400000();
    const q = db.createQueryRunner();
    try {
      await migration.down(q);
      const [p] = await q.query(
        `INSERT INTO payments (user_id, type, payment_method, payment_system_reference_id, package_sku, credits, price, status, created_by, completed_at)
         VALUES ($1, 'Manual', 'admin', 'MANUAL-1', 'credits500', 500, 50, 'Completed', $2, now()) RETURNING id`,
        [user._id, adminId],
      );
      await q.query(`UPDATE users SET available_credits = 600 WHERE id = $1`, [user._id]);
      await q.query(
        `INSERT INTO credit_transactions (user_id, reason, available_delta, available_after, actor_id, reference, note)
         VALUES ($1, 'purchase', 500, 500, $2, $3, 'Added by admin (credits500)'), ($1, 'admin_grant', 100, 600, $2, NULL, 'Set by admin to 600')`,
        [user._id, adminId, `payment:${p.id}`],
      );
      await migration.up(q);
    } finally {
      await q.release();
    }
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM payments WHERE user_id = $1`, [user._id]);
    expect(n).toBe(0);
    const rows = await db.query(`SELECT reason, available_delta, actor_id, reference FROM credit_transactions WHERE user_id = $1 ORDER BY available_delta DESC`, [user._id]);
    expect(rows).toEqual([
      { reason: 'admin_grant', available_delta: 500, actor_id: adminId, reference: null },
      { reason: 'admin_adjust', available_delta: 100, actor_id: adminId, reference: null },
    ]);
    expect(await t.app.get(CreditsService).consistent(user._id)).toBe(true);
  });
});
