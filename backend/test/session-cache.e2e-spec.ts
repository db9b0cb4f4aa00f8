import { Client } from 'pg';
import { createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/**
 * API nodes reuse a checked session for SESSION_CACHE_MS, and every change to a user or a
 * session reaches them through PostgreSQL's NOTIFY. The changes below are made with plain SQL
 * on a connection of the test's own, as another API node or a worker would make them.
 */
describe('Session cache (e2e)', () => {
  const TTL = 2_000;
  let t: TestApp;
  let sql: Client;

  beforeAll(async () => {
    t = await createTestApp({ SESSION_CACHE_MS: String(TTL) });
    sql = new Client({ connectionString: t.config.database.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql.end();
    await t.close();
  });

  /** A signed-in seller whose session is in the cache (the listener is up). */
  async function cachedSeller(name: string) {
    const s = await signUpAndLogin(t, name);
    // The first session check starts the node's listener.
    await s.agent.get('/api/profile').expect(200);
    await waitFor(listening, 5_000);
    await new Promise((r) => setTimeout(r, 200));
    await s.agent.get('/api/profile').expect(200);
    return { ...s, id: s.user._id };
  }

  const listenerPid = async (): Promise<number | null> =>
    (await sql.query(`SELECT pid FROM pg_stat_activity WHERE application_name = 'gangsheet-session-cache' AND datname = current_database()`)).rows[0]?.pid ?? null;

  /** The listener has connected and run its LISTEN (a connection's first statement). */
  const listening = async () =>
    (await sql.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = 'gangsheet-session-cache' AND datname = current_database() AND query <> '' AND state = 'idle'`)).rowCount === 1;

  /** Runs `statement` with triggers off, so no notification is sent (what a missed one looks like). */
  async function silently(statement: string, params: unknown[]) {
    await sql.query('BEGIN');
    await sql.query(`SET LOCAL session_replication_role = replica`);
    await sql.query(statement, params);
    await sql.query('COMMIT');
  }

  it('reuses a checked session until its TTL, and checks the database again after it', async () => {
    const s = await cachedSeller('cachettl');
    // Deleted without a notification: only the TTL stands between the cache and the truth.
    await silently(`DELETE FROM sessions WHERE user_id = $1`, [s.id]);
    await s.agent.get('/api/profile').expect(200);
    await new Promise((r) => setTimeout(r, TTL + 200));
    await s.agent.get('/api/profile').expect(401);
  });

  it('a session ended on another node is refused on this one as soon as it commits', async () => {
    const s = await cachedSeller('cacheend');
    await sql.query(`DELETE FROM sessions WHERE user_id = $1`, [s.id]);
    const ms = await waitFor(async () => (await s.agent.get('/api/profile')).status === 401, TTL / 2);
    expect(ms).toBeLessThan(TTL / 2);
  });

  it('deactivation and credit changes made elsewhere show at once', async () => {
    const s = await cachedSeller('cachecredits');
    await sql.query(`UPDATE users SET available_credits = 77 WHERE id = $1`, [s.id]);
    await waitFor(async () => (await s.agent.get('/api/profile')).body.data?.credit.availableCredits === 77, TTL / 2);
    await sql.query(`UPDATE users SET status = 'inactive' WHERE id = $1`, [s.id]);
    await waitFor(async () => (await s.agent.get('/api/profile')).status === 401, TTL / 2);
  });

  it("this node's own writes are read back by the very next request", async () => {
    const s = await cachedSeller('cacheryw');
    for (let i = 0; i < 20; i++) {
      await s.agent.put('/api/profile').send({ firstName: `Name${i}`, lastName: 'Reader', email: s.email }).expect(200);
      expect((await s.agent.get('/api/profile').expect(200)).body.data.firstName).toBe(`Name${i}`);
    }
  });

  it('while the listener is gone nothing is served from the cache, and caching resumes when it is back', async () => {
    const s = await cachedSeller('cachedeaf');
    const pid = await listenerPid();
    await sql.query(`SELECT pg_terminate_backend($1)`, [pid]);
    await waitFor(async () => (await listenerPid()) !== pid, 5_000);
    await new Promise((r) => setTimeout(r, 200));
    // Missed by the cache whether or not the listener is back yet: a stale answer would say 0.
    await silently(`UPDATE users SET available_credits = 5 WHERE id = $1`, [s.id]);
    expect((await s.agent.get('/api/profile').expect(200)).body.data.credit.availableCredits).toBe(5);
    await waitFor(listening, 5_000);
    await new Promise((r) => setTimeout(r, 200));
    await s.agent.get('/api/profile').expect(200);
    await silently(`UPDATE users SET available_credits = 6 WHERE id = $1`, [s.id]);
    expect((await s.agent.get('/api/profile').expect(200)).body.data.credit.availableCredits).toBe(5);
  });
});

/** Polls `ok` until it holds; returns how long that took, or throws after `ms`. */
async function waitFor(ok: () => Promise<boolean>, ms: number): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (await ok()) return Date.now() - t0;
    if (Date.now() - t0 > ms) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
