/**
 * GET /api/statistics for a seller with 100,000 prints.
 *
 * Creates a fresh PostgreSQL database (DATABASE_URL, default the local test server), gives
 * the bench seller BENCH_PRINTS prints in every status, 5,000 images (half of them printed)
 * and a used-credit total, and a neighbour the same again (so the per-user indexes have
 * rows to skip). Then, in the same run:
 *   - the endpoint over HTTP (login cookie, sequential requests, every latency kept);
 *   - the same figures computed naively: every print and image row of the seller loaded
 *     through TypeORM and counted in JavaScript, which is what "load the rows and count"
 *     costs at this size.
 * Both must give the same numbers. Prints a Markdown table with the ratio.
 *
 *   npm run bench:stats        (BENCH_PRINTS=100000, BENCH_REQUESTS=200, BENCH_NAIVE_RUNS=5)
 */
import { DataSource } from 'typeorm';
import { hashPassword } from '../src/common/password';
import { Image } from '../src/images/entities/image.entity';
import { Print, PrintStatus } from '../src/prints/entities/print.entity';
import { StatisticsService } from '../src/statistics/statistics.service';
import { User } from '../src/users/entities/user.entity';
import { BENCH_SELLER, loginBenchSeller, startBenchApp } from './bench-app';

const PRINTS = Number(process.env.BENCH_PRINTS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const NAIVE_RUNS = Number(process.env.BENCH_NAIVE_RUNS ?? 5);
const STATUSES = ['In Draft', 'Processing', 'Completed', 'Completed', 'Completed', 'Deleted', 'Cancelled', 'Error'];

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  const { app, base, close } = await startBenchApp(`gs_bench_stats_${process.pid}`);
  const db = app.get(DataSource);
  try {
    const started = Date.now();
    const sellerId = await fill(db);
    console.error(`filled ${PRINTS} prints (+${PRINTS} of another user) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const cookie = await loginBenchSeller(base);

    const get = async () => {
      const res = await fetch(`${base}/api/statistics`, { headers: { cookie } });
      if (res.status !== 200) throw new Error(`GET /api/statistics → ${res.status}`);
      return ((await res.json()) as { data: Record<string, number> }).data;
    };
    const fromApi = await get();
    for (let i = 0; i < 10; i++) await get(); // warm-up
    const http: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const t = performance.now();
      await get();
      http.push(performance.now() - t);
    }
    http.sort((a, b) => a - b);

    // The service alone (no HTTP), for a like-for-like comparison with the naive version.
    const stats = app.get(StatisticsService);
    const service: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const t = performance.now();
      await stats.forUser(sellerId);
      service.push(performance.now() - t);
    }
    service.sort((a, b) => a - b);

    const naive: number[] = [];
    let naiveResult: Record<string, number> = {};
    for (let i = 0; i < NAIVE_RUNS; i++) {
      const t = performance.now();
      naiveResult = await naiveStatistics(db, sellerId);
      naive.push(performance.now() - t);
    }
    naive.sort((a, b) => a - b);
    for (const k of Object.keys(naiveResult)) {
      if (naiveResult[k] !== fromApi[k]) throw new Error(`${k}: API ${fromApi[k]}, naive ${naiveResult[k]}`);
    }

    const f = (n: number) => n.toFixed(2);
    console.log(`\nGET /api/statistics, one seller with ${PRINTS.toLocaleString('en')} prints (and a neighbour with as many), loopback\n`);
    console.log(`figures: ${JSON.stringify(fromApi)}\n`);
    console.log('| measurement | runs | p50 ms | p95 ms | max ms |');
    console.log('|---|---:|---:|---:|---:|');
    console.log(`| GET /api/statistics (HTTP, sequential) | ${REQUESTS} | ${f(pct(http, 50))} | ${f(pct(http, 95))} | ${f(http[http.length - 1])} |`);
    console.log(`| StatisticsService.forUser (SQL aggregates) | ${REQUESTS} | ${f(pct(service, 50))} | ${f(pct(service, 95))} | ${f(service[service.length - 1])} |`);
    console.log(`| naive baseline (load rows, count in JS) | ${NAIVE_RUNS} | ${f(pct(naive, 50))} | ${f(pct(naive, 95))} | ${f(naive[naive.length - 1])} |`);
    console.log(`\nnaive p50 / service p50 = ${(pct(naive, 50) / pct(service, 50)).toFixed(0)}×; naive p50 / HTTP p50 = ${(pct(naive, 50) / pct(http, 50)).toFixed(0)}×`);
  } finally {
    await close();
  }
}

/** What the endpoint would cost if it loaded the seller's rows and counted them in the process. */
async function naiveStatistics(db: DataSource, userId: string): Promise<Record<string, number>> {
  const prints = await db.getRepository(Print).find({ where: { userId } });
  const images = await db.getRepository(Image).find({ where: { userId } });
  const user = await db.getRepository(User).findOneByOrFail({ _id: userId });
  return {
    pendingPrints: prints.filter((p) => p.status === PrintStatus.InDraft).length,
    totalPrints: prints.length,
    printedImages: images.filter((i) => !i.deletedAt && i.usedInPrint > 0).length,
    usedCredits: user.usedCredits,
  };
}

async function fill(db: DataSource): Promise<string> {
  const hash = await hashPassword(BENCH_SELLER.password);
  const ids: string[] = [];
  for (const name of ['benchseller', 'neighbour']) {
    const [{ id }] = await db.query(
      `INSERT INTO users (first_name, last_name, username, email, password_hash, email_verified_at, used_credits)
       VALUES ('Bench', 'Seller', $1, $2, $3, now(), 123456) RETURNING id`,
      [name, `${name}@example.com`, hash],
    );
    ids.push(id);
    // Completed prints look like real ones: settings, one stored sheet file and a layout.
    await db.query(
      `INSERT INTO prints (user_id, status, attempt, credit_cost, settings, files, printed_at, created_at, updated_at)
       SELECT $1, ($3::text[])[1 + g % ${STATUSES.length}], 1, 10 + g % 50,
              '{"width":22,"maxLength":100,"gap":0.25,"margin":0.25,"dpi":300,"rotate":true,"nesting":"shape"}'::jsonb,
              CASE WHEN g % ${STATUSES.length} IN (2, 3, 4)
                   THEN jsonb_build_array(jsonb_build_object('n', 1, 'key', 'users/x/prints/' || g || '/1/sheet-1.png', 'previewKey', 'p.webp', 'widthPx', 6600, 'heightPx', 9000, 'lengthIn', 30, 'bytes', 12345678))
                   ELSE '[]'::jsonb END,
              now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval, now()
         FROM generate_series(1, $2::int) g`,
      [id, PRINTS, STATUSES],
    );
    await db.query(
      `INSERT INTO images (user_id, name, score, used_in_print, original_name, file_key, mime, bytes, width, height, status)
       SELECT $1, 'Design ' || g, 0, CASE WHEN g % 2 = 0 THEN g % 17 ELSE 0 END, 'd.png', 'users/' || $2 || '/images/' || g || '.png', 'image/png', 1000, 100, 100, 'ready'
         FROM generate_series(1, 5000) g`,
      [id, String(id)],
    );
  }
  await db.query('VACUUM ANALYZE prints');
  await db.query('VACUUM ANALYZE images');
  return ids[0];
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
