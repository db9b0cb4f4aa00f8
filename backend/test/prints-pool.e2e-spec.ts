import { DataSource } from 'typeorm';
import { CreditsService } from '../src/credits/credits.service';
import { addDesign, addSize, setCredits } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

jest.setTimeout(120_000);

/**
 * The database pool under a burst of process requests (PostgreSQL mode, pool of 10). No
 * request may wait for a second pool connection while holding one, or a burst larger than
 * the pool leaves every connection "idle in transaction" and the whole API (health
 * included) waits forever. Jobs are not processed here: only the request path is measured.
 */
describe('Prints: 100 concurrent process requests (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ PROCESS_JOBS: 'false', DB_POOL_ACQUIRE_TIMEOUT_MS: '20000' });
  });
  afterAll(() => t.close());

  it('across 100 prints of 4 sellers: one charge per started print, no overdraft, /api/health stays 200', async () => {
    const admin = await adminAgent(t);
    const sellers = [];
    for (let i = 0; i < 4; i++) {
      const s = await signUpAndLogin(t, `pool${i}`);
      await setCredits(t, admin, s.user._id, 15);
      const image = await addDesign(t, s.user._id);
      const size = await addSize(t, s.user._id, 'Small', 1);
      const prints: string[] = [];
      for (let j = 0; j < 25; j++)
        prints.push((await s.agent.post('/api/print').send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 1 }] }).expect(201)).body.data._id);
      sellers.push({ ...s, prints });
    }

    const health: number[] = [];
    let burstDone = false;
    const probe = (async () => {
      while (!burstDone) {
        const started = Date.now();
        health.push((await t.agent().get('/api/health').timeout(15_000).catch((e) => ({ status: e.timeout ? 0 : 599 }))).status);
        await new Promise((r) => setTimeout(r, Math.max(0, 100 - (Date.now() - started))));
      }
    })();
    const started = Date.now();
    const results = await Promise.all(
      sellers.flatMap((s) =>
        s.prints.map((id) =>
          s.agent
            .post(`/api/print/${id}/process`)
            .send({})
            .timeout(60_000)
            .then(
              (r) => ({ s, id, status: r.status, ms: Date.now() - started }),
              () => ({ s, id, status: 0, ms: Date.now() - started }), // no answer within 60 s
            ),
        ),
      ),
    ).finally(() => (burstDone = true));
    await probe;
    const count = (xs: number[]) => Object.fromEntries([...new Set(xs)].map((c) => [c, xs.filter((x) => x === c).length]));
    // the figures docs/prints.md reports for a burst
    console.log(
      `burst of 100: statuses ${JSON.stringify(count(results.map((r) => r.status)))}, slowest ${Math.max(...results.map((r) => r.ms))} ms; ` +
        `health during: ${JSON.stringify(count(health))}`,
    );

    const credits = t.app.get(CreditsService);
    for (const s of sellers) {
      const mine = results.filter((r) => r.s === s);
      // credits for 15 one-copy prints: 15 start, 10 are refused with the credits message
      expect(mine.filter((r) => r.status === 201)).toHaveLength(15);
      expect(mine.filter((r) => r.status === 400)).toHaveLength(10);
      const charges = (await credits.ledger(s.user._id)).filter((r) => r.reason === 'print_charge');
      expect(charges).toHaveLength(15);
      expect(new Set(charges.map((c) => c.reference)).size).toBe(15);
      expect((await s.agent.get('/api/profile').expect(200)).body.data.credit).toEqual({ availableCredits: 0, usedCredits: 15 });
      expect(await credits.consistent(s.user._id)).toBe(true);
    }
    expect(health.length).toBeGreaterThan(0);
    expect(health.filter((c) => c !== 200)).toEqual([]);
    await t.agent().get('/api/health').expect(200);
  });
});

describe('Prints: free space on DATA_DIR is checked before charging (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    // a reserve no disk has: every print is refused for space
    t = await createTestApp({ PROCESS_JOBS: 'false', PRINT_MIN_FREE_MB: String(1024 * 1024 * 1024) });
  });
  afterAll(() => t.close());

  it('not enough free space → 503 insufficient_storage, nothing charged, still In Draft', async () => {
    const admin = await adminAgent(t);
    const s = await signUpAndLogin(t, 'nospace');
    await setCredits(t, admin, s.user._id, 5);
    const image = await addDesign(t, s.user._id);
    const size = await addSize(t, s.user._id, 'Small', 1);
    const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 2 }] }).expect(201)).body.data;
    const res = await s.agent.post(`/api/print/${p._id}/process`).send({}).expect(503);
    expect(res.body).toEqual({
      statusCode: 503,
      message: 'The server is short of disk space; this print cannot be processed right now. Nothing was charged.',
      code: 'insufficient_storage',
      requestId: expect.any(String),
    });
    expect((await s.agent.get(`/api/print/${p._id}`)).body.data.status).toBe('In Draft');
    expect((await s.agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 5, usedCredits: 0 });
  });
});

describe('Database pool: a request that cannot get a connection in time (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ PROCESS_JOBS: 'false', DB_POOL_MAX: '2', DB_POOL_ACQUIRE_TIMEOUT_MS: '300' });
  });
  afterAll(() => t.close());

  it('every connection held elsewhere → 503 busy within the acquire timeout (not a request waiting forever); fine once released', async () => {
    const s = await signUpAndLogin(t, 'busy');
    const runners = [t.app.get(DataSource).createQueryRunner(), t.app.get(DataSource).createQueryRunner()];
    try {
      for (const r of runners) await r.connect();
      const res = await s.agent.get('/api/print').timeout(10_000).expect(503);
      expect(res.body).toEqual({ statusCode: 503, message: 'The server is busy. Please try again in a moment.', code: 'busy', requestId: expect.any(String) });
    } finally {
      for (const r of runners) await r.release();
    }
    await s.agent.get('/api/print').expect(200);
  });
});
