import { createHash } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { addDesign, addSize, waitFor } from './prints.fixtures';
import { transparentPng } from './fixtures/images';
import { ADMIN, adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/**
 * API keys: every request here is made like an integrator's script would: no cookie, no
 * Origin, no X-Requested-With, only `Authorization: Bearer <key>`.
 */
describe('API keys (e2e)', () => {
  let t: TestApp;
  let db: DataSource;
  let http: () => ReturnType<typeof request>;

  beforeAll(async () => {
    t = await createTestApp({ API_KEY_RATE_LIMIT: '25', API_KEY_RATE_WINDOW_SECONDS: '60' });
    db = t.app.get(DataSource);
    const server = t.app.getHttpServer();
    http = () => request(server);
  });
  afterAll(() => t.close());

  async function keyFor(agent: any, scope: 'read' | 'read-write' = 'read-write', extra: Record<string, unknown> = {}) {
    const res = await agent.post('/api/api-keys').send({ name: `key ${scope}`, scope, ...extra }).expect(201);
    return res.body.data as { _id: string; secret: string; prefix: string };
  }
  const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

  it('POST /api/api-keys → 201 with the secret once; stored only as a SHA-256, listed by prefix', async () => {
    const { agent } = await signUpAndLogin(t, 'keyowner');
    const res = await agent.post('/api/api-keys').send({ name: 'Shop backend', scope: 'read-write' }).expect(201);
    const k = res.body.data;
    expect(k.secret).toMatch(/^gsk_[A-Za-z0-9_-]{40}$/);
    expect(k.prefix).toBe(k.secret.slice(0, 12));
    expect(k).toMatchObject({ name: 'Shop backend', scope: 'read-write', status: 'active', expiresAt: null, lastUsedAt: null });
    const [row] = await db.query(`SELECT * FROM api_keys WHERE id = $1`, [k._id]);
    expect(row.secret_hash).toBe(createHash('sha256').update(k.secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(k.secret);
    const list = await agent.get('/api/api-keys').expect(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].secret).toBeUndefined();
    expect(list.body.data[0].prefix).toBe(k.prefix);
    // last used is set by a request with the key
    await http().get('/api/profile').set(bearer(k.secret)).expect(200);
    expect((await agent.get('/api/api-keys').expect(200)).body.data[0].lastUsedAt).not.toBeNull();
  });

  it('validates name, scope and expiry', async () => {
    const { agent } = await signUpAndLogin(t, 'keyvalid');
    expect((await agent.post('/api/api-keys').send({ name: '', scope: 'read' }).expect(400)).body.message).toBe('Name is required');
    expect((await agent.post('/api/api-keys').send({ name: 'x', scope: 'admin' }).expect(400)).body.message).toBe('Scope must be read or read-write');
    expect((await agent.post('/api/api-keys').send({ name: 'x', scope: 'read', expiresAt: '2001-01-01T00:00:00Z' }).expect(400)).body.message).toBe(
      'The expiry date must be in the future',
    );
  });

  it('a key acts as its seller on /api with no cookie, Origin or X-Requested-With, uploads included', async () => {
    const { agent, user } = await signUpAndLogin(t, 'integrator');
    const { secret } = await keyFor(agent);
    const me = await http().get('/api/profile').set(bearer(secret)).expect(200);
    expect(me.body.data._id).toBe(user._id);
    // what an integrator's curl sends: multipart upload, no browser headers
    const up = await http().post('/api/images/bulk-upload').set(bearer(secret)).attach('files', await transparentPng(), 'logo.png').expect(201);
    expect(up.body.data[0].name).toBe('logo');
    await waitFor(async () => (await http().get(`/api/images/${up.body.data[0]._id}`).set(bearer(secret)).expect(200)).body.data.status === 'ready', 30_000, 'inspection');
    // JSON writes too; a foreign Origin does not matter for a bearer request (no ambient credential)
    await http().post('/api/sizes').set(bearer(secret)).set('Origin', 'https://elsewhere.example').send({ name: 'Adult', value: 11 }).expect(201);
    // the same upload with the session cookie and no browser headers is still refused
    const cookie = await agent.post('/api/login').send({ email: 'integrator@example.com', password: 'password-123' }).expect(200);
    const jar = cookie.headers['set-cookie'];
    const refused = await http().post('/api/images/bulk-upload').set('Cookie', jar).attach('files', await transparentPng(), 'logo.png').expect(403);
    expect(refused.body.code).toBe('bad_origin');
  });

  it('a bearer header is the only credential of its request: a bad key with a good cookie is 401', async () => {
    const { agent } = await signUpAndLogin(t, 'cookieplus');
    const login = await agent.post('/api/login').send({ email: 'cookieplus@example.com', password: 'password-123' }).expect(200);
    const res = await http().get('/api/profile').set('Cookie', login.headers['set-cookie']).set(bearer('gsk_' + 'x'.repeat(40))).expect(401);
    expect(res.body).toMatchObject({ statusCode: 401, message: 'Invalid API key.', code: 'invalid_api_key' });
  });

  it('401 with a clear message for malformed, unknown, revoked and expired keys', async () => {
    const { agent } = await signUpAndLogin(t, 'keystates');
    const msg = async (h: Record<string, string>) => (await http().get('/api/sizes').set(h).expect(401)).body.message;
    expect(await msg({ Authorization: 'Bearer not-a-key' })).toMatch(/not a GangSheet Studio API key/);
    expect(await msg({ Authorization: 'Basic dXNlcjpwYXNz' })).toMatch(/must be "Bearer <API key>"/);
    expect(await msg(bearer('gsk_' + 'A'.repeat(40)))).toBe('Invalid API key.');

    const revoked = await keyFor(agent);
    await http().get('/api/sizes').set(bearer(revoked.secret)).expect(200);
    const r = await agent.post(`/api/api-keys/${revoked._id}/revoke`).expect(200);
    expect(r.body.data.status).toBe('revoked');
    expect(await msg(bearer(revoked.secret))).toBe('This API key has been revoked.');

    const expiring = await keyFor(agent, 'read', { expiresAt: new Date(Date.now() + 3600_000).toISOString() });
    await http().get('/api/sizes').set(bearer(expiring.secret)).expect(200);
    await db.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [expiring._id]);
    expect(await msg(bearer(expiring.secret))).toBe('This API key has expired.');
    expect((await agent.get('/api/api-keys').expect(200)).body.data.find((k: any) => k._id === expiring._id).status).toBe('expired');

    const deleted = await keyFor(agent);
    await agent.delete(`/api/api-keys/${deleted._id}`).expect(200);
    expect(await msg(bearer(deleted.secret))).toBe('Invalid API key.');
  });

  it('a read-only key reads but is refused on every write (403 read_only_key)', async () => {
    const { agent } = await signUpAndLogin(t, 'readonly');
    const { secret } = await keyFor(agent, 'read');
    await http().get('/api/sizes').set(bearer(secret)).expect(200);
    await http().get('/api/print').set(bearer(secret)).expect(200);
    for (const [method, path] of [
      ['post', '/api/sizes'],
      ['post', '/api/print'],
      ['put', '/api/profile'],
      ['delete', `/api/print/00000000-0000-0000-0000-000000000000`],
      ['post', '/api/print/00000000-0000-0000-0000-000000000000/process'],
    ] as const) {
      const res = await (http() as any)[method](path).set(bearer(secret)).send({ name: 'x', value: 1 }).expect(403);
      expect(res.body).toMatchObject({ code: 'read_only_key', message: 'This API key is read-only. Use a read-write key to make changes.' });
    }
    expect((await agent.get('/api/sizes').expect(200)).body.data).toHaveLength(0);
  });

  it("an admin's key never reaches admin routes and sees only the admin's own data", async () => {
    const admin = await adminAgent(t);
    const { secret } = await keyFor(admin);
    const other = await signUpAndLogin(t, 'victim');
    const size = await addSize(t, other.user._id, 'Theirs', 3);
    const image = await addDesign(t, other.user._id);
    const print = await other.agent.post('/api/print').send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 1 }] }).expect(201);
    for (const path of ['/api/users', `/api/users/${other.user._id}`, `/api/print/user/${other.user._id}`]) {
      const res = await http().get(path).set(bearer(secret)).expect(403);
      expect(res.body.message).toBe('You are not authorized to view this page');
    }
    await http().put(`/api/users/${other.user._id}/credit`).set(bearer(secret)).send({ availableCredits: 999 }).expect(403);
    // the admin's session may read any print; the admin's key acts as a seller: 404
    await admin.get(`/api/print/${print.body.data._id}`).expect(200);
    await http().get(`/api/print/${print.body.data._id}`).set(bearer(secret)).expect(404);
    expect((await http().get('/api/profile').set(bearer(secret)).expect(200)).body.data.email).toBe(ADMIN.email);
  });

  it("another seller's ids → 404 with a key", async () => {
    const a = await signUpAndLogin(t, 'owner-a');
    const b = await signUpAndLogin(t, 'owner-b');
    const { secret } = await keyFor(b.agent);
    const size = await addSize(t, a.user._id, 'A size', 4);
    const image = await addDesign(t, a.user._id);
    const print = await a.agent.post('/api/print').send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 1 }] }).expect(201);
    await http().get(`/api/sizes/${size._id}`).set(bearer(secret)).expect(404);
    await http().get(`/api/images/${image._id}`).set(bearer(secret)).expect(404);
    await http().get(`/api/print/${print.body.data._id}`).set(bearer(secret)).expect(404);
    await http().post(`/api/print/${print.body.data._id}/process`).set(bearer(secret)).send({}).expect(404);
    await http().get(`/api/print/${print.body.data._id}/files/1`).set(bearer(secret)).expect(404);
    await http().delete(`/api/sizes/${size._id}`).set(bearer(secret)).expect(404);
  });

  it('keys of a deactivated user stop at once', async () => {
    const admin = await adminAgent(t);
    const s = await signUpAndLogin(t, 'leaving');
    const { secret } = await keyFor(s.agent);
    await http().get('/api/sizes').set(bearer(secret)).expect(200);
    await admin.put(`/api/users/${s.user._id}/status`).send({ status: 'inactive' }).expect(200);
    expect((await http().get('/api/sizes').set(bearer(secret)).expect(401)).body.message).toBe('The account of this API key is deactivated.');
  });

  it('a key cannot manage keys (session only)', async () => {
    const { agent } = await signUpAndLogin(t, 'nomint');
    const k = await keyFor(agent);
    expect((await http().post('/api/api-keys').set(bearer(k.secret)).send({ name: 'more', scope: 'read-write' }).expect(403)).body.code).toBe('session_required');
    await http().get('/api/api-keys').set(bearer(k.secret)).expect(403);
    await http().post(`/api/api-keys/${k._id}/revoke`).set(bearer(k.secret)).expect(403);
  });

  it('rate limit per key: RateLimit-* headers, then 429 with Retry-After; other keys unaffected', async () => {
    const { agent } = await signUpAndLogin(t, 'busy');
    const k = await keyFor(agent, 'read');
    const other = await keyFor(agent, 'read');
    let last: any;
    for (let i = 0; i < 25; i++) {
      last = await http().get('/api/sizes').set(bearer(k.secret)).expect(200);
      expect(last.headers['ratelimit-limit']).toBe('25');
      expect(last.headers['ratelimit-remaining']).toBe(String(24 - i));
      expect(Number(last.headers['ratelimit-reset'])).toBeGreaterThan(0);
    }
    const limited = await http().get('/api/sizes').set(bearer(k.secret)).expect(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    await http().get('/api/sizes').set(bearer(other.secret)).expect(200);
  });
});
