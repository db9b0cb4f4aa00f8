/**
 * API latency while someone uploads SVG bombs: 160 KB of "<a", which a backtracking SVG check
 * would spend seconds on. Boots the real app on loopback (fresh PostgreSQL database,
 * in-process jobs), gives a seller a library of 1,000 images, and drives GET /api/health and
 * GET /api/images with autocannon, first quiet, then while another client uploads the bomb
 * over and over. Prints a Markdown table. Run it on two checkouts to compare before/after.
 *
 *   npm run bench:eventloop     (BENCH_SECONDS=10, BENCH_CONNECTIONS=100, BENCH_BOMB_KB=160 by default)
 */
// @ts-expect-error autocannon publishes no types
import autocannon from 'autocannon';
import { DataSource } from 'typeorm';
import { BENCH_SELLER, loginBenchSeller, ORIGIN, startBenchApp } from './bench-app';
import { hashPassword } from '../src/common/password';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const BOMB_KB = Number(process.env.BENCH_BOMB_KB ?? 160);

interface Row {
  label: string;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  rps: number;
  errors: number;
  bombs?: number;
}

async function main() {
  const { app, base, close } = await startBenchApp(`gs_bench_el_${process.pid}`);
  try {
    await fill(app.get(DataSource));
    const cookie = await loginBenchSeller(base);
    const rows: Row[] = [];
    for (const [name, path] of [
      ['GET /api/health', '/api/health'],
      ['GET /api/images', '/api/images'],
    ]) {
      rows.push(await measure(`${name}, quiet`, base + path, cookie));
      rows.push(await underBombs(`${name}, SVG bombs uploading`, base + path, base, cookie));
    }
    report(rows);
  } finally {
    await close();
  }
}

async function fill(db: DataSource) {
  const [{ id }] = await db.query(
    `INSERT INTO users (first_name, last_name, username, email, password_hash, email_verified_at)
     VALUES ('Bench', 'Seller', 'benchseller', $2, $1, now()) RETURNING id`,
    [await hashPassword(BENCH_SELLER.password), BENCH_SELLER.email],
  );
  await db.query(
    `INSERT INTO images (user_id, name, score, used_in_print, original_name, file_key, mime, bytes, width, height, trim, preview_key, status)
     SELECT $1::uuid, 'Design ' || g, 0, 0, 'd' || g || '.png', 'users/' || $1::text || '/images/' || g || '.png', 'image/png', 1000, 100, 100,
            '{"left":0,"top":0,"width":100,"height":100}'::jsonb, NULL, 'ready'
       FROM generate_series(1, 1000) g`,
    [id],
  );
  await db.query('VACUUM ANALYZE images');
}

async function uploadBomb(base: string, cookie: string): Promise<number> {
  const form = new FormData();
  const svg = `<svg xmlns="http://www.w3.org/2000/svg">${'<a'.repeat((BOMB_KB * 1024) / 2)}`;
  form.append('files', new Blob([svg], { type: 'image/svg+xml' }), 'bomb.svg');
  const res = await fetch(`${base}/api/images/bulk-upload`, {
    method: 'POST',
    headers: { cookie, Origin: ORIGIN, 'X-Requested-With': 'XMLHttpRequest' },
    body: form,
  });
  await res.arrayBuffer();
  return res.status;
}

/** The same measurement while one client uploads bombs back to back. */
async function underBombs(label: string, url: string, base: string, cookie: string): Promise<Row> {
  let stop = false;
  let bombs = 0;
  const statuses = new Set<number>();
  const uploader = (async () => {
    while (!stop) {
      statuses.add(await uploadBomb(base, cookie));
      bombs++;
    }
  })();
  // let the first bomb reach the check
  await new Promise((r) => setTimeout(r, 200));
  const row = await measure(label, url, cookie, false);
  stop = true;
  await uploader;
  console.error(`  ${bombs} bomb upload(s) answered, statuses ${[...statuses].join(', ')}`);
  return { ...row, bombs };
}

async function measure(label: string, url: string, cookie: string, warm = true): Promise<Row> {
  if (warm) await autocannon({ url, headers: { cookie }, connections: CONNECTIONS, duration: 1 });
  const times: number[] = [];
  const instance = autocannon({ url, headers: { cookie }, connections: CONNECTIONS, duration: SECONDS, timeout: 60 });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => times.push(ms));
  const result = await instance;
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? NaN;
  const row = { label, p50: pct(50), p95: pct(95), p99: pct(99), max: times[times.length - 1] ?? NaN, rps: result.requests.average, errors: result.errors + result.non2xx };
  console.error(`${label.padEnd(44)} p50 ${row.p50.toFixed(1)} ms  p95 ${row.p95.toFixed(1)}  p99 ${row.p99.toFixed(1)}  max ${row.max.toFixed(0)}  ${row.rps.toFixed(0)} req/s`);
  return row;
}

function report(rows: Row[]) {
  const f = (n: number) => n.toFixed(1);
  console.log(`\n${CONNECTIONS} connections, ${SECONDS} s per row, loopback; bomb = ${BOMB_KB} KB of "<a"\n`);
  console.log('| load | p50 ms | p95 ms | p99 ms | max ms | req/s | errors | bombs answered |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.label} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.p99)} | ${r.max.toFixed(0)} | ${r.rps.toFixed(0)} | ${r.errors} | ${r.bombs ?? ''} |`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
