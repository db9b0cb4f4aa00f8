import { DataSource } from 'typeorm';
import { CreditsService } from '../src/credits/credits.service';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

const newUser = {
  firstName: 'Carol',
  lastName: 'Cutter',
  username: 'carol',
  email: 'carol@example.com',
  password: 'secret-1',
  company: 'Carol Co',
  phone: '+1 415 555 0199',
};

describe('Admin users (e2e)', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof adminAgent>>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await adminAgent(t);
  });
  afterAll(() => t.close());

  it('non-admins get 403 on every admin route; no session gets 401', async () => {
    const { agent, user } = await signUpAndLogin(t, 'plainuser');
    for (const [method, path] of [
      ['get', '/api/users'],
      ['get', `/api/users/${user._id}`],
      ['post', '/api/users'],
      ['put', `/api/users/${user._id}`],
      ['put', `/api/users/${user._id}/status`],
      ['put', `/api/users/${user._id}/credit`],
      ['post', `/api/users/${user._id}/credit/grant`],
      ['get', `/api/users/${user._id}/credit/history`],
      ['delete', `/api/users/${user._id}`],
    ] as const) {
      const res = await (agent as any)[method](path).send({ availableCredits: 1000, credits: 1000, reason: 'for myself' });
      expect([method, path, res.status]).toEqual([method, path, 403]);
      expect(res.body.message).toBe('You are not authorized to view this page');
      await (t.agent() as any)[method](path).expect(401);
    }
    // and it did not give itself credit
    expect((await agent.get('/api/profile')).body.data.credit.availableCredits).toBe(0);
  });

  it.each([
    [{ email: 'bad' }, 'Invalid email address'],
    [{ email: undefined }, 'Email is required'],
    [{ password: '123' }, 'Password must be at least 6 characters'],
    [{ password: undefined }, 'Password is required'],
    [{ firstName: 'Ca' }, 'First name must be at least 3 characters'],
    [{ lastName: '' }, 'Last name is required'],
    [{ username: 'ca' }, 'Username must be at least 3 characters'],
    [{ company: 'Co' }, 'Company must be at least 3 characters'],
    [{ phone: undefined }, 'Phone number is not valid'],
    [{ phone: '555' }, 'Phone number is not valid'],
  ])('POST /api/users %j → 400 %s', async (patch, message) => {
    const res = await admin.post('/api/users').send({ ...newUser, ...patch }).expect(400);
    expect(res.body.message).toBe(message);
  });

  let carolId: string;
  it('creates a user: always role user (a role in the body is refused), verified, can log in', async () => {
    expect((await admin.post('/api/users').send({ ...newUser, role: 'admin' }).expect(400)).body.errors).toEqual([
      { field: 'role', code: 'unknown_field', message: 'Unknown field "role"' },
    ]);
    const res = await admin.post('/api/users').send(newUser).expect(201);
    expect(res.body.data).toMatchObject({ role: 'user', emailVerified: true, phone: '+14155550199', username: 'carol' });
    carolId = res.body.data._id;
    await t.agent().post('/api/login').send({ email: 'carol', password: newUser.password }).expect(200);
    await admin.post('/api/users').send(newUser).expect(409);
  });

  it('lists with search, sort and pagination', async () => {
    for (const n of ['dave', 'erin', 'frank']) {
      await admin.post('/api/users').send({ ...newUser, username: n, email: `${n}@example.com`, firstName: n.toUpperCase() }).expect(201);
    }
    const page1 = await admin.get('/api/users?limit=2&page=1&sortBy=username&sort=asc').expect(200);
    expect(page1.body.pagination.totalDocuments).toBeGreaterThanOrEqual(6);
    expect(page1.body.data).toHaveLength(2);
    const all = await admin.get('/api/users?limit=100&sortBy=username&sort=asc').expect(200);
    const names = all.body.data.map((u: any) => u.username);
    expect(names).toEqual([...names].sort());
    expect(page1.body.data.map((u: any) => u.username)).toEqual(names.slice(0, 2));
    const desc = await admin.get('/api/users?limit=100&sortBy=username&sort=desc').expect(200);
    expect(desc.body.data.map((u: any) => u.username)).toEqual([...names].reverse());
    const search = await admin.get('/api/users?search=ERIN').expect(200);
    expect(search.body.data.map((u: any) => u.username)).toEqual(['erin']);
    expect((await admin.get('/api/users?search=%25').expect(200)).body.data).toHaveLength(0);
    await admin.get('/api/users?sortBy=password').expect(400);
    await admin.get('/api/users?limit=0').expect(400);
  });

  it('gets one user; unknown or malformed ids → 404', async () => {
    expect((await admin.get(`/api/users/${carolId}`).expect(200)).body.data.username).toBe('carol');
    await admin.get('/api/users/00000000-0000-4000-8000-000000000000').expect(404);
    await admin.get('/api/users/not-a-uuid').expect(404);
  });

  it('edits first name, last name, e-mail and role', async () => {
    const username = await admin.put(`/api/users/${carolId}`).send({ firstName: 'Caroline', username: 'renamed' }).expect(400);
    expect(username.body).toMatchObject({ code: 'validation_failed', message: 'Unknown field "username"', errors: [{ field: 'username', code: 'unknown_field' }] });
    const res = await admin.put(`/api/users/${carolId}`).send({ firstName: 'Caroline', email: 'caroline@example.com', role: 'admin' }).expect(200);
    expect(res.body.data).toMatchObject({ firstName: 'Caroline', lastName: 'Cutter', email: 'caroline@example.com', role: 'admin', username: 'carol' });
    await admin.put(`/api/users/${carolId}`).send({ role: 'owner' }).expect(400);
    await admin.put(`/api/users/${carolId}`).send({ email: 'dave@example.com' }).expect(409);
    await admin.put(`/api/users/${carolId}`).send({ role: 'user' }).expect(200);
  });

  it('deactivation logs the user out on the next request; reactivation lets them back in', async () => {
    const carol = t.agent();
    await carol.post('/api/login').send({ email: 'carol', password: newUser.password }).expect(200);
    await carol.get('/api/profile').expect(200);
    const res = await admin.put(`/api/users/${carolId}/status`).send({ status: 'inactive' }).expect(200);
    expect(res.body.data.status).toBe('inactive');
    await carol.get('/api/profile').expect(401);
    await admin.put(`/api/users/${carolId}/status`).send({ status: 'paused' }).expect(400);
    await admin.put(`/api/users/${carolId}/status`).send({ status: 'active' }).expect(200);
    await carol.post('/api/login').send({ email: 'carol', password: newUser.password }).expect(200);
  });

  it('sets credit through the ledger, with the admin and a required reason', async () => {
    const res = await admin.put(`/api/users/${carolId}/credit`).send({ availableCredits: 500, reason: 'Opening balance' }).expect(200);
    expect(res.body.message).toBe('Credit added successfully');
    expect(res.body.data.credit).toEqual({ availableCredits: 500, usedCredits: 0 });
    await admin.put(`/api/users/${carolId}/credit`).send({ availableCredits: 1500, reason: 'Correction after support call' }).expect(200);
    for (const bad of [0, -5, 1.5, 'abc', null]) {
      await admin.put(`/api/users/${carolId}/credit`).send({ availableCredits: bad, reason: 'x'.repeat(5) }).expect(400);
    }
    for (const reason of [undefined, '', '  ', 'ab', 'x'.repeat(301)]) {
      const r = await admin.put(`/api/users/${carolId}/credit`).send({ availableCredits: 900, reason }).expect(400);
      expect(r.body.message).toMatch(/reason/i);
    }
    const credits = t.app.get(CreditsService);
    const ledger = await credits.ledger(carolId);
    expect(ledger.map((r) => r.availableDelta).sort()).toEqual([1000, 500].sort());
    expect(ledger.every((r) => r.reason === 'admin_adjust' && r.actorId)).toBe(true);
    expect(ledger.map((r) => r.note).sort()).toEqual(['Correction after support call', 'Opening balance']);
    expect(await credits.consistent(carolId)).toBe(true);
  });

  it('a balance never goes below zero, also under concurrent charges', async () => {
    const credits = t.app.get(CreditsService);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        credits.apply({ userId: carolId, reason: 'print_charge' as any, availableDelta: -100, usedDelta: 100, reference: `test:${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(15);
    const [row] = await t.app.get(DataSource).query('SELECT available_credits, used_credits FROM users WHERE id = $1', [carolId]);
    expect(row).toEqual({ available_credits: 0, used_credits: 1500 });
    expect(await credits.consistent(carolId)).toBe(true);
  });

  it('an admin cannot lock themself out', async () => {
    const me = (await admin.get('/api/profile').expect(200)).body.data;
    await admin.put(`/api/users/${me._id}/status`).send({ status: 'inactive' }).expect(400);
    await admin.put(`/api/users/${me._id}`).send({ role: 'user' }).expect(400);
    await admin.delete(`/api/users/${me._id}`).expect(400);
  });

  it('deletes a user', async () => {
    const res = await admin.delete(`/api/users/${carolId}`).expect(200);
    expect(res.body.message).toBe('User deleted successfully');
    await admin.get(`/api/users/${carolId}`).expect(404);
    await admin.delete(`/api/users/${carolId}`).expect(404);
    await t.agent().post('/api/login').send({ email: 'carol', password: newUser.password }).expect(401);
  });
});
