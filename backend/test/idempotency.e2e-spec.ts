import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { CreditsService } from '../src/credits/credits.service';
import { addDesign, addSize, setCredits, waitDone } from './prints.fixtures';
import { transparentPng } from './fixtures/images';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/** Idempotency-Key on the POST routes that create or spend, with API keys (no browser headers). */
describe('Idempotency-Key (e2e)', () => {
  let t: TestApp;
  let db: DataSource;
  let admin: any;
  let http: () => ReturnType<typeof request>;

  beforeAll(async () => {
    t = await createTestApp({ API_KEY_RATE_LIMIT: '1000' });
    db = t.app.get(DataSource);
    admin = await adminAgent(t);
    const server = t.app.getHttpServer();
    http = () => request(server);
  });
  afterAll(() => t.close());

  async function integrator(name: string, credits = 0) {
    const s = await signUpAndLogin(t, name);
    if (credits) await setCredits(t, admin, s.user._id, credits);
    const key = (await s.agent.post('/api/api-keys').send({ name: 'script', scope: 'read-write' }).expect(201)).body.data.secret as string;
    const image = await addDesign(t, s.user._id, { name: `${name}-art` });
    const size = await addSize(t, s.user._id, 'Adult', 2);
    const auth = { Authorization: `Bearer ${key}` };
    return { ...s, key, auth, image, size };
  }

  it('20 concurrent process requests with one key → one charge, one job, identical responses', async () => {
    const s = await integrator('concurrent', 50);
    const print = await http().post('/api/print').set(s.auth).send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 3 }] }).expect(201);
    const id = print.body.data._id;
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => http().post(`/api/print/${id}/process`).set(s.auth).set('Idempotency-Key', key).send({})),
    );
    const statuses = answers.map((a) => a.status);
    expect(new Set(statuses)).toEqual(new Set([201]));
    const bodies = answers.map((a) => JSON.stringify(a.body));
    expect(new Set(bodies).size).toBe(1);
    expect(answers[0].body.data.status).toBe('Processing');
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
    const charges = (await t.app.get(CreditsService).ledger(s.user._id)).filter((l) => l.reason === 'print_charge');
    expect(charges).toHaveLength(1);
    expect(charges[0].availableDelta).toBe(-3);
    const done = await waitDone(s.agent, id);
    expect(done.status).toBe('Completed');
    const me = await http().get('/api/profile').set(s.auth).expect(200);
    expect(me.body.data.credit).toEqual({ availableCredits: 47, usedCredits: 3 });
    // a retry a moment later still answers the first response, and does not charge again
    const again = await http().post(`/api/print/${id}/process`).set(s.auth).set('Idempotency-Key', key).send({}).expect(201);
    expect(JSON.stringify(again.body)).toBe(bodies[0]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    // without a key the same request is a second, refused, attempt (the print is Completed)
    await http().post(`/api/print/${id}/process`).set(s.auth).send({}).expect(409);
    expect(await t.app.get(CreditsService).consistent(s.user._id)).toBe(true);
  });

  it('same key with another body (or route) → 422; without the header nothing is remembered', async () => {
    const s = await integrator('reuse');
    const key = randomUUID();
    const first = await http().post('/api/sizes').set(s.auth).set('Idempotency-Key', key).send({ name: 'Pocket', value: 4 }).expect(201);
    const replay = await http().post('/api/sizes').set(s.auth).set('Idempotency-Key', key).send({ value: 4, name: 'Pocket' }).expect(201);
    expect(replay.body).toEqual(first.body);
    const other = await http().post('/api/sizes').set(s.auth).set('Idempotency-Key', key).send({ name: 'Pocket', value: 5 }).expect(422);
    expect(other.body).toMatchObject({ statusCode: 422, code: 'idempotency_key_reused' });
    expect(other.body.message).toMatch(/already used for a different request/);
    await http().post('/api/print').set(s.auth).set('Idempotency-Key', key).send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 1 }] }).expect(422);
    const names = (await http().get('/api/sizes?limit=999').set(s.auth).expect(200)).body.data.map((x: any) => x.name).sort();
    expect(names).toEqual(['Adult', 'Pocket']);
    // keys belong to their user: another seller may use the same string
    const b = await integrator('reuse-b');
    await http().post('/api/sizes').set(b.auth).set('Idempotency-Key', key).send({ name: 'Pocket', value: 5 }).expect(201);
    // a malformed key is refused
    const bad = await http().post('/api/sizes').set(s.auth).set('Idempotency-Key', 'x'.repeat(256)).send({ name: 'Long', value: 1 }).expect(400);
    expect(bad.body.code).toBe('invalid_idempotency_key');
  });

  it('create print and upload: a retry creates nothing new; the upload fingerprint covers the file content', async () => {
    const s = await integrator('creator');
    const key = randomUUID();
    const body = { printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 2 }] };
    const a = await http().post('/api/print').set(s.auth).set('Idempotency-Key', key).send(body).expect(201);
    const b = await http().post('/api/print').set(s.auth).set('Idempotency-Key', key).send(body).expect(201);
    expect(b.body.data._id).toBe(a.body.data._id);
    expect((await http().get('/api/print').set(s.auth).expect(200)).body.pagination.totalDocuments).toBe(1);

    const png = await transparentPng();
    const upKey = randomUUID();
    const u1 = await http().post('/api/images/bulk-upload').set(s.auth).set('Idempotency-Key', upKey).attach('files', png, 'logo.png').expect(201);
    const u2 = await http().post('/api/images/bulk-upload').set(s.auth).set('Idempotency-Key', upKey).attach('files', png, 'logo.png').expect(201);
    expect(u2.body.data[0]._id).toBe(u1.body.data[0]._id);
    // another buffer with the same bytes is the same request
    await http().post('/api/images/bulk-upload').set(s.auth).set('Idempotency-Key', upKey).attach('files', Buffer.from(png), 'logo.png').expect(201);
    const changed = await http()
      .post('/api/images/bulk-upload')
      .set(s.auth)
      .set('Idempotency-Key', upKey)
      .attach('files', await addDesignPng(), 'logo.png')
      .expect(422);
    expect(changed.body.code).toBe('idempotency_key_reused');
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM images WHERE user_id = $1 AND name = 'logo'`, [s.user._id]);
    expect(n).toBe(1);
  });

  it('a 4xx answer is replayed too; a key older than 24 h acts again', async () => {
    const s = await integrator('poor', 0);
    const print = await http().post('/api/print').set(s.auth).send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 2 }] }).expect(201);
    const key = randomUUID();
    const first = await http().post(`/api/print/${print.body.data._id}/process`).set(s.auth).set('Idempotency-Key', key).send({}).expect(400);
    expect(first.body.code).toBe('insufficient_credits');
    await setCredits(t, admin, s.user._id, 10);
    const replay = await http().post(`/api/print/${print.body.data._id}/process`).set(s.auth).set('Idempotency-Key', key).send({}).expect(400);
    // The same error again; its requestId names the retry (as its Request-Id header does).
    expect(replay.body).toEqual({ ...first.body, requestId: replay.headers['request-id'] });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    await db.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1`, [key]);
    const fresh = await http().post(`/api/print/${print.body.data._id}/process`).set(s.auth).set('Idempotency-Key', key).send({}).expect(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect((await waitDone(s.agent, print.body.data._id)).status).toBe('Completed');
  });

  it('works for cookie sessions too (the browser may send the header)', async () => {
    const s = await integrator('browser');
    const key = randomUUID();
    const a = await s.agent.post('/api/sizes').set('Idempotency-Key', key).send({ name: 'Sleeve', value: 3 }).expect(201);
    const b = await s.agent.post('/api/sizes').set('Idempotency-Key', key).send({ name: 'Sleeve', value: 3 }).expect(201);
    expect(b.body.data._id).toBe(a.body.data._id);
  });
});

async function addDesignPng(): Promise<Buffer> {
  const sharp = (await import('sharp')).default;
  return sharp({ create: { width: 20, height: 20, channels: 4, background: '#00ff00' } }).png().toBuffer();
}
