/**
 * GET /api/images under load, on a library of 50,000 images.
 *
 * Creates a fresh PostgreSQL database (DATABASE_URL, default the local test server),
 * fills one seller's library with 50,000 images (plus 50,000 of another seller, so the
 * per-user indexes have something to skip) directly in SQL, boots the real app on
 * loopback and drives each query with autocannon. Then it drops the library's indexes
 * and runs the same queries again as the baseline. Prints a Markdown table.
 *
 *   npm run bench:images            (BENCH_SECONDS=5, BENCH_CONNECTIONS=1, BENCH_IMAGES=50000 by default)
 */
// @ts-expect-error autocannon publishes no types
import autocannon from 'autocannon';
import { DataSource } from 'typeorm';
import { BENCH_SELLER, loginBenchSeller, startBenchApp } from './bench-app';
import { hashPassword } from '../src/common/password';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1);
const IMAGES = Number(process.env.BENCH_IMAGES ?? 50_000);
const LIBRARY_INDEXES = [
  'images_user_category_name_idx',
  'images_user_created_idx',
  'images_user_lower_name_idx',
  'images_user_score_idx',
  'images_user_used_idx',
  'images_user_category_idx',
  'images_name_trgm_idx',
];

interface Row {
  query: string;
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  errors: number;
}

async function main() {
  const { app, base, close } = await startBenchApp(`gs_bench_${process.pid}`);
  const db = app.get(DataSource);
  try {
    const started = Date.now();
    const { categoryId } = await fill(db);
    console.error(`filled ${IMAGES} images (+${IMAGES} of another user) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const cookie = await loginBenchSeller(base);
    const queries: [string, string][] = [
      ['default (createdAt desc, limit 50)', '/api/images'],
      ...(['name', 'createdAt', 'score', 'usedInPrint'] as const).flatMap((k) =>
        (['asc', 'desc'] as const).map((d) => [`sortBy=${k}&sort=${d}`, `/api/images?sortBy=${k}&sort=${d}`] as [string, string]),
      ),
      ['search=tiger', '/api/images?search=tiger'],
      ['imageCategory=<one of 20>', `/api/images?imageCategory=${categoryId}`],
      ['imageCategory + sortBy=name', `/api/images?imageCategory=${categoryId}&sortBy=name&sort=asc`],
      ['page=100 (offset 4,950)', '/api/images?page=100'],
    ];
    const indexed: Row[] = [];
    for (const [label, path] of queries) indexed.push(await measure(base + path, cookie, label));
    for (const name of LIBRARY_INDEXES) await db.query(`DROP INDEX IF EXISTS ${name}`);
    await db.query('ANALYZE images');
    const baseline: Row[] = [];
    for (const [label, path] of queries) baseline.push(await measure(base + path, cookie, label));
    report(indexed, baseline);
  } finally {
    await close();
  }
}

/** Two sellers with IMAGES images each, 20 categories each; names from a small art vocabulary. */
async function fill(db: DataSource) {
  const hash = await hashPassword(BENCH_SELLER.password);
  const users: string[] = [];
  for (const name of ['benchseller', 'neighbour']) {
    const [{ id }] = await db.query(
      `INSERT INTO users (first_name, last_name, username, email, password_hash, email_verified_at)
       VALUES ('Bench', 'Seller', $1, $2, $3, now()) RETURNING id`,
      [name, `${name}@example.com`, hash],
    );
    users.push(id);
  }
  for (const userId of users) {
    await db.query(
      `INSERT INTO image_categories (user_id, name) SELECT $1, 'Category ' || g FROM generate_series(1, 20) g`,
      [userId],
    );
    await db.query(
      `WITH words AS (SELECT ARRAY['tiger','rose','skull','mama','retro','sunset','floral','vintage','cat','dog',
                                   'christmas','halloween','teacher','nurse','camping','fishing','coffee','boho','cowboy','mountain'] AS w),
            cats AS (SELECT array_agg(id ORDER BY name) AS c FROM image_categories WHERE user_id = $1)
       INSERT INTO images (user_id, name, category_id, score, used_in_print, original_name, file_key, mime, bytes,
                           width, height, trim, preview_key, status, created_at, updated_at)
       SELECT $1,
              initcap(w[1 + (g * 7) % 20]) || ' ' || w[1 + (g * 13 / 7) % 20] || ' ' || g,
              CASE WHEN g % 10 = 0 THEN NULL ELSE c[1 + g % 20] END,
              (g % 11) / 2.0,
              (g * 31) % 97,
              'design-' || g || '.png',
              'users/' || $1 || '/images/' || g || '.png',
              'image/png', 500000 + g, 4000, 4000,
              '{"left":10,"top":10,"width":3980,"height":3980}'::jsonb,
              'users/' || $1 || '/images/' || g || '.preview.webp',
              'ready',
              now() - (g || ' minutes')::interval,
              now() - (g || ' minutes')::interval
         FROM generate_series(1, $2::int) g, words, cats`,
      [userId, IMAGES],
    );
  }
  // a few deleted-but-kept images, as in real libraries
  await db.query(`UPDATE images SET deleted_at = now() WHERE user_id = $1 AND used_in_print = 0`, [users[0]]);
  await db.query('VACUUM ANALYZE images');
  await db.query('ANALYZE image_categories');
  const [{ id: categoryId }] = await db.query(`SELECT id FROM image_categories WHERE user_id = $1 ORDER BY name OFFSET 1 LIMIT 1`, [users[0]]);
  return { categoryId: categoryId as string };
}

async function measure(url: string, cookie: string, label: string): Promise<Row> {
  // warm-up, then the measured run; every response time is kept for exact percentiles
  const check = await fetch(url, { headers: { cookie } });
  const body = (await check.json()) as { data?: unknown[] };
  if (check.status !== 200 || !body.data?.length) throw new Error(`${label}: ${check.status} ${JSON.stringify(body).slice(0, 200)}`);
  await autocannon({ url, headers: { cookie }, connections: CONNECTIONS, duration: 1 });
  const times: number[] = [];
  const instance = autocannon({ url, headers: { cookie }, connections: CONNECTIONS, duration: SECONDS });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => times.push(ms));
  const result = await instance;
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? NaN;
  const row = { query: label, p50: pct(50), p95: pct(95), p99: pct(99), rps: result.requests.average, errors: result.errors + result.non2xx };
  console.error(`${label.padEnd(36)} p50 ${row.p50.toFixed(1)} ms  p95 ${row.p95.toFixed(1)} ms  p99 ${row.p99.toFixed(1)} ms  ${row.rps.toFixed(0)} req/s`);
  return row;
}

function report(indexed: Row[], baseline: Row[]) {
  const f = (n: number) => n.toFixed(1);
  console.log(`\n${IMAGES.toLocaleString('en')} images, ${CONNECTIONS} connections, ${SECONDS} s per query, loopback\n`);
  console.log('| query | p50 ms | p95 ms | p99 ms | req/s | baseline p95 ms | baseline req/s | p95 speed-up | errors |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  indexed.forEach((r, i) => {
    const b = baseline[i];
    console.log(
      `| ${r.query} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.p99)} | ${r.rps.toFixed(0)} | ${f(b.p95)} | ${b.rps.toFixed(0)} | ${(b.p95 / r.p95).toFixed(1)}× | ${r.errors + b.errors} |`,
    );
  });
  const worst = Math.max(...indexed.map((r) => r.p95));
  console.log(`\nworst p95 with indexes: ${f(worst)} ms (target ≤ 50 ms): ${worst <= 50 ? 'PASS' : 'FAIL'}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
