import { Client } from 'pg';
import { SEARCH_COUNT_CAP } from '../src/images/images.service';
import { createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/** A broad search counts its matches only up to a cap; the library's own total stays exact. */
describe('Image search totals (e2e)', () => {
  let t: TestApp;
  let sql: Client;

  beforeAll(async () => {
    t = await createTestApp();
    sql = new Client({ connectionString: t.config.database.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql.end();
    await t.close();
  });

  it('is exact up to the cap, capped (and said so) beyond it, and every page past the cap still answers', async () => {
    const { agent, user } = await signUpAndLogin(t, 'searchcount');
    const many = SEARCH_COUNT_CAP + 5;
    // Library rows straight into the table: the list reads no files.
    await sql.query(
      `INSERT INTO images (user_id, name, original_name, file_key, mime, bytes, width, height, status, created_at, updated_at)
       SELECT $1::uuid, CASE WHEN g <= $2 THEN 'tiger ' ELSE 'rose ' END || g, 'd.png', 'users/' || $1::text || '/images/' || g || '.png',
              'image/png', 1000, 100, 100, 'ready', now() - (g || ' seconds')::interval, now()
         FROM generate_series(1, $2 + 10) g`,
      [user._id, many],
    );

    const tiger = (await agent.get('/api/images?search=tiger&limit=50').expect(200)).body;
    expect(tiger.pagination).toEqual({ totalDocuments: SEARCH_COUNT_CAP, totalPages: SEARCH_COUNT_CAP / 50, totalCapped: true });
    const past = (await agent.get(`/api/images?search=tiger&limit=50&page=${SEARCH_COUNT_CAP / 50 + 1}`).expect(200)).body;
    expect(past.data).toHaveLength(5);

    const rose = (await agent.get('/api/images?search=rose&limit=50').expect(200)).body;
    expect(rose.pagination).toEqual({ totalDocuments: 10, totalPages: 1 });
    expect(rose.data.map((i: { name: string }) => i.name.split(' ')[0])).toEqual(Array(10).fill('rose'));

    const all = (await agent.get('/api/images?limit=50').expect(200)).body;
    expect(all.pagination).toEqual({ totalDocuments: many + 10, totalPages: Math.ceil((many + 10) / 50) });
  });
});
