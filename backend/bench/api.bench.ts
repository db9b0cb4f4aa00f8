/**
 * The API at a real shop's volume, against its ceilings, in one run.
 *
 * For each server under test (the compiled API, `node <dir>/dist/main.js`, NODE_ENV=production, so
 * as many API processes as a production node starts here, their CPU summed;
 * PostgreSQL + Redis): a fresh database holding one seller with 50,000 images and 10,000
 * prints (≈60,000 items, 60 % completed with files and a ~59 KB stored layout), 1,000 synced
 * orders, and two sellers with 1,000 and 100,000 prints for the history check. Every route
 * of the table is driven by autocannon at 10 and at 100 connections.
 *
 * With several builds (BENCH_SERVERS), all are started and seeded first, then they take
 * turns on every measurement (the order alternating), so a change of load falls on both.
 *
 * Ceilings, measured in the same run on the same data: a bare `node:http` hello world (the
 * HTTP floor), a bare NestJS app on Fastify with one route (the framework's floor, beside the
 * hello world) and a raw `pg` Pool of the API's size running each route's own SQL in a closed
 * loop (the database floor). Each route is reported as a share of its ceiling.
 *
 *   npm run bench:api
 *   BENCH_SERVERS="after=backend,before=/work/baseline/backend" npm run bench:api   (A/B in one run)
 *   BENCH_SERVERS="two=backend,one=backend+API_PROCESSES=1"   (the same build with other environment)
 *   BENCH_SECONDS (10), BENCH_HISTORY=0 skips the 100,000-print seller, BENCH_ROUTES=images,profile
 *   measures only the routes whose name contains one of the words, BENCH_NODE_ARGS="--cpu-prof
 *   --cpu-prof-dir=/tmp/prof" passes options to the servers' node (to profile them under load).
 *
 * The machine's load can change during a run (other work on the same cores), so each ceiling is
 * measured right after the routes it bounds: a route's raw SQL after that route, the hello world
 * after each route that has no SQL of its own.
 *
 * Each server directory must be built (`npm run build -w backend`).
 */
// @ts-expect-error autocannon publishes no types
import autocannon from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'pg';
import { hashPassword } from '../src/common/password';
import { itemStatusSql, ORDER_COUNTS_SQL, orderStatusJoin } from '../src/orders/order-status.sql';
import { LIST_SELECT } from '../src/images/image-list-row';
import { ITEM_ROWS_SQL, PRINT_COLUMNS, PRINT_ROWS_SQL } from '../src/prints/print-list.sql';
import { CLOSED_SHOP_STATUSES } from '../src/orders/shop-status';
import { PRODUCTION_ORDER_COUNTS_SQL } from '../src/production/production.repository';
import { freePort } from '../test/utils/free-port';
import { admin, BASE_URL, BENCH_SELLER } from './bench-app';
import { descendants, procCpuSeconds } from './proc-memory';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const HISTORY = process.env.BENCH_HISTORY !== '0';
const POOL = 10; // DB_POOL_MAX's default: the raw-SQL ceiling gets the API's connections
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROUTE_FILTER = process.env.BENCH_ROUTES?.split(',').filter(Boolean);
const NODE_ARGS = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const SERVERS = (process.env.BENCH_SERVERS ?? 'current=backend').split(',').map((s) => {
  const label = s.slice(0, s.indexOf('='));
  const [dir, ...vars] = s.slice(s.indexOf('=') + 1).split('+');
  const env = Object.fromEntries(vars.map((v) => [v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1)]));
  return { label, dir: resolve(__dirname, '..', '..', dir), env };
});

interface Run {
  rps: number;
  p50: number;
  p975: number;
  p99: number;
  errors: number;
  s503: number;
  non2xx: number;
  /** The server process's CPU time per completed request (user + system), when its pid was given. */
  cpuMs?: number;
}

interface Ids {
  seller: string;
  print40: string;
  small: string;
  big: string | null;
}

async function waitHealthy(base: string, child: ChildProcess, ms = 120_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${base}/api/health`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error('server did not become healthy');
}

/** One seller's history, all in SQL (minutes through the API). */
async function seed(db: Pool, users: { name: string; prints: number; images: number; layout: boolean; orders: number }[]) {
  const hash = await hashPassword(BENCH_SELLER.password);
  const layout = JSON.stringify({
    sheets: [
      {
        widthIn: 22,
        lengthIn: 120,
        placements: Array.from({ length: 420 }, (_, n) => ({
          itemId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
          x: (n * 37) % 2000,
          y: n * 71,
          w: 300 + (n % 50),
          h: 280 + (n % 40),
          rotated: n % 3 === 0,
          copy: n,
        })),
      },
    ],
  });
  const ids: Record<string, string> = {};
  for (const u of users) {
    const email = u.name === 'benchseller' ? BENCH_SELLER.email : `${u.name}@example.com`;
    const [{ id }] = (
      await db.query(
        `INSERT INTO users (first_name, last_name, username, email, password_hash, email_verified_at)
         VALUES ('Bench', 'Seller', $1, $2, $3, now()) RETURNING id`,
        [u.name, email, hash],
      )
    ).rows;
    ids[u.name] = id;
    await db.query(
      `INSERT INTO images (user_id, name, original_name, file_key, mime, bytes, width, height, trim, preview_key, status, used_in_print, created_at, updated_at)
       SELECT $1::uuid, (ARRAY['tiger','rose','skull','retro','sunset','floral','vintage','cat','dog','boho'])[1 + g % 10] || ' design ' || g,
              'd' || g || '.png', 'users/' || $1::text || '/images/' || g || '.png', 'image/png', 400000, 3000, 3000,
              '{"left":5,"top":5,"width":2990,"height":2990}'::jsonb, 'users/' || $1::text || '/images/' || g || '.webp', 'ready',
              g % 3, now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval
         FROM generate_series(1, $2::int) g`,
      [id, u.images],
    );
    await db.query(`INSERT INTO sizes (user_id, name, value) SELECT $1, g || ' in', g FROM generate_series(2, 12) g`, [id]);
    // prints: 60 % completed with files (and the stored layout for the main seller)
    await db.query(
      `INSERT INTO prints (user_id, type, status, attempt, credit_cost, settings, files, layout, printed_at, created_at, updated_at)
       SELECT $1, 'Manual', CASE WHEN g % 5 < 3 THEN 'Completed' WHEN g % 5 = 3 THEN 'In Draft' ELSE 'Error' END,
              1, 6, '{"width":22,"dpi":300,"gap":0.25}'::jsonb,
              CASE WHEN g % 5 < 3 THEN jsonb_build_array(jsonb_build_object('n', 1, 'key', 'users/x/prints/' || g || '/sheet-1.png',
                   'previewKey', 'users/x/prints/' || g || '/sheet-1.webp', 'widthPx', 6600, 'heightPx', 36000, 'lengthIn', 120,
                   'bytes', 48000000, 'formats', jsonb_build_array(jsonb_build_object('format', 'png', 'key', 'k', 'bytes', 48000000))))
                   ELSE '[]'::jsonb END,
              CASE WHEN g % 5 < 3 AND $3 THEN $4::jsonb ELSE NULL END,
              CASE WHEN g % 5 < 3 THEN now() - (g || ' minutes')::interval END,
              now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval
         FROM generate_series(1, $2::int) g`,
      [id, u.prints, u.layout, layout],
    );
    // 1–11 items per print (≈6 on average), each a different image and size
    await db.query(
      `WITH p AS (SELECT id, row_number() OVER (ORDER BY created_at) AS r FROM prints WHERE user_id = $1),
            img AS (SELECT array_agg(id ORDER BY created_at) AS a FROM images WHERE user_id = $1),
            sz AS (SELECT array_agg(id ORDER BY value) AS a FROM sizes WHERE user_id = $1)
       INSERT INTO print_items (print_id, image_id, size_id, quantity, created_at)
       SELECT p.id, img.a[1 + ((p.r * 13 + k * 7) % array_length(img.a, 1))], sz.a[1 + (k % 11)], 1 + k % 4, now() - (k || ' seconds')::interval
         FROM p, img, sz, generate_series(1, 1 + (p.r * 5 % 11)::int) k`,
      [id],
    );
    if (u.orders) {
      const [{ id: integrationId }] = (
        await db.query(`INSERT INTO integrations (user_id, name, type, connected) VALUES ($1, 'Shop', 'WordPress', false) RETURNING id`, [id])
      ).rows;
      await db.query(
        `INSERT INTO orders (user_id, integration_id, external_id, number, shop_status, buyer_info, total_amount, integration_order_created_date)
         SELECT $1, $2, g, g, 'processing', '{"name":"Buyer"}'::jsonb, 42, now() - (g || ' hours')::interval FROM generate_series(1, $3::int) g`,
        [id, integrationId, u.orders],
      );
      await db.query(
        `INSERT INTO order_items (order_id, user_id, external_id, title, sku, size, quantity, price)
         SELECT o.id, $1, k, 'Tee ' || k, 'SKU' || k, '10 in', 1, 14 FROM orders o, generate_series(1, 3) k WHERE o.user_id = $1`,
        [id],
      );
    }
  }
  // the detail route's print: 40 items
  const seller = ids.benchseller;
  const [{ id: print40 }] = (
    await db.query(`SELECT id FROM prints WHERE user_id = $1 AND status = 'Completed' ORDER BY created_at DESC LIMIT 1`, [seller])
  ).rows;
  await db.query(`DELETE FROM print_items WHERE print_id = $1`, [print40]);
  await db.query(
    `INSERT INTO print_items (print_id, image_id, size_id, quantity)
     SELECT $1, i.id, (SELECT id FROM sizes WHERE user_id = $2 ORDER BY value LIMIT 1), 1
       FROM (SELECT id FROM images WHERE user_id = $2 ORDER BY created_at LIMIT 40) i`,
    [print40, seller],
  );
  await db.query('VACUUM ANALYZE');
  return { seller, print40, small: ids.hist1k, big: ids.hist100k ?? null };
}

async function login(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base, 'X-Requested-With': 'XMLHttpRequest' },
    body: JSON.stringify({ email, password: BENCH_SELLER.password }),
  });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

function pct(times: number[], p: number) {
  times.sort((a, b) => a - b);
  return times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? NaN;
}

/** User + system CPU time so far of process `pid` and its children (a node's API processes), in ms. */
function cpuTimeMs(pid: number): number {
  return [pid, ...descendants(pid)].reduce((t, p) => t + (procCpuSeconds(p) ?? 0) * 1000, 0);
}

async function drive(url: string, cookie: string | null, connections: number, seconds = SECONDS, pid?: number): Promise<Run> {
  const headers = cookie ? { cookie } : {};
  await autocannon({ url, headers, connections: Math.min(connections, 10), duration: 1 });
  const times: number[] = [];
  let s503 = 0;
  const cpu0 = pid ? cpuTimeMs(pid) : 0;
  const instance = autocannon({ url, headers, connections, duration: seconds, timeout: 30 });
  instance.on('response', (_c: unknown, status: number, _b: number, ms: number) => {
    times.push(ms);
    if (status === 503) s503++;
  });
  const r = await instance;
  const cpuMs = pid && times.length ? (cpuTimeMs(pid) - cpu0) / times.length : undefined;
  return { rps: r.requests.average, p50: pct(times, 50), p975: pct(times, 97.5), p99: pct(times, 99), errors: r.errors + r.timeouts, s503, non2xx: r.non2xx, cpuMs };
}

/** A closed loop of `concurrency` callers on a pool of POOL connections: completed calls per second. */
async function closedLoop(fn: () => Promise<unknown>, concurrency: number, seconds = SECONDS): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        await fn();
        done++;
      }
    }),
  );
  return done / seconds;
}

async function helloCeiling(connections: number): Promise<Run> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', `require('http').createServer((q, s) => s.end('{"status":"ok"}')).listen(${port}, '127.0.0.1')`], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 400));
  try {
    return await drive(`http://127.0.0.1:${port}/`, null, connections);
  } finally {
    child.kill();
  }
}

/**
 * The stack's own floor: a bare NestJS app on Fastify (the adapter the product uses) with one
 * route answering the same JSON, no middleware, guard or database. What the framework costs
 * before any of the product's code runs; the profile route is reported against it as well.
 */
const NEST_FLOOR = `require('reflect-metadata');
const { Controller, Get, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
class Health { get() { return { status: 'ok' }; } }
Controller('health')(Health);
Get()(Health.prototype, 'get', Object.getOwnPropertyDescriptor(Health.prototype, 'get'));
class App {}
Module({ controllers: [Health] })(App);
NestFactory.create(App, new FastifyAdapter(), { logger: false }).then((app) => { app.setGlobalPrefix('api'); return app.listen(Number(process.env.PORT), '127.0.0.1'); });`;

async function nestFloor(connections: number): Promise<Run> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', NEST_FLOOR], { cwd: __dirname, stdio: 'ignore', env: { ...process.env, NODE_ENV: 'production', PORT: String(port) } });
  await new Promise((r) => setTimeout(r, 2000));
  try {
    return await drive(`http://127.0.0.1:${port}/api/health`, null, connections);
  } finally {
    child.kill();
  }
}

/**
 * What each route asks PostgreSQL, for the raw-SQL ceiling: the statements the code sends
 * for the default query (the prints' and the library's are imported from the code), in the
 * same order and side by side where the code runs them side by side.
 */
function routeSql(ids: Ids): Record<string, (p: Pool) => Promise<unknown>> {
  // the library's page carries its total in a column (ImagesService.list)
  const library = (p: Pool, where: string, total: string, params: unknown[]) =>
    p.query(
      `SELECT ${LIST_SELECT}, ${total} AS total FROM images i LEFT JOIN image_categories c ON c.id = i.category_id
        WHERE ${where} ORDER BY i.created_at DESC, i.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, 51, 0],
    );
  const seller = ids.seller;
  const search = 'i.user_id = $1 AND i.deleted_at IS NULL AND i.name ILIKE $2';
  return {
    'GET /api/print': async (p) => {
      const page = await p.query(
        `SELECT ${PRINT_COLUMNS}, (SELECT coalesce(sum(prints), 0)::int FROM print_counts WHERE user_id = $1) AS total
           FROM prints p WHERE p.user_id = $1 ORDER BY p.created_at DESC, p.id DESC LIMIT $2 OFFSET $3`,
        [seller, 11, 0],
      );
      await p.query(ITEM_ROWS_SQL, [page.rows.slice(0, 10).map((r) => r.id)]);
    },
    'GET /api/print/{id} (40 items)': (p) => Promise.all([p.query(PRINT_ROWS_SQL, [[ids.print40], seller]), p.query(ITEM_ROWS_SQL, [[ids.print40]])]),
    'GET /api/images': (p) =>
      library(p, 'i.user_id = $1 AND i.deleted_at IS NULL', '(SELECT coalesce(sum(images), 0)::int FROM image_library_counts WHERE user_id = $1)', [seller]),
    'GET /api/images?search=tiger': (p) =>
      library(p, search, `(SELECT count(*)::int FROM (SELECT 1 FROM images i WHERE ${search} LIMIT 1001) m)`, [seller, '%tiger%']),
    'GET /api/statistics': (p) =>
      Promise.all([
        p.query(
          `SELECT (SELECT coalesce(sum(prints) FILTER (WHERE status = $2), 0) FROM print_counts WHERE user_id = $1 AND NOT test)::int AS in_draft,
                  (SELECT coalesce(sum(prints), 0) FROM print_counts WHERE user_id = $1 AND NOT test)::int AS total`,
          [seller, 'In Draft'],
        ),
        p.query(
          `SELECT (SELECT coalesce(sum(printed), 0) FROM image_library_counts WHERE user_id = $1)::int AS printed_images,
                  (SELECT used_credits FROM users WHERE id = $1) AS used_credits`,
          [seller],
        ),
        p.query(ORDER_COUNTS_SQL, [seller]),
        p.query(`SELECT count(*)::int AS n FROM integrations WHERE user_id = $1`, [seller]),
        // production's order counts (ProductionRepository.orderCounts)
        p.query(PRODUCTION_ORDER_COUNTS_SQL, [seller, CLOSED_SHOP_STATUSES]),
      ]),
    'GET /api/orders': async (p) => {
      const from = `FROM orders o ${orderStatusJoin('o', 'os')} JOIN integrations i ON i.id = o.integration_id WHERE o.user_id = $1`;
      const [page] = await Promise.all([
        p.query(`SELECT o.*, os.status, i.name ${from} ORDER BY o.integration_order_created_date DESC, o.id DESC LIMIT 10`, [ids.seller]),
        p.query(`SELECT count(*)::int ${from}`, [ids.seller]),
      ]);
      await p.query(
        `SELECT oi.*, ${itemStatusSql('oi')} AS status FROM order_items oi JOIN orders o ON o.id = oi.order_id
          WHERE oi.user_id = $1 AND oi.order_id = ANY($2::uuid[])`,
        [ids.seller, page.rows.map((r) => r.id)],
      );
    },
    'GET /api/profile': (p) =>
      p.query(`SELECT u.* FROM users u JOIN sessions s ON s.user_id = u.id AND s.expires_at > now() WHERE u.id = $1 LIMIT 1`, [ids.seller]),
    'GET /api/health': (p) => p.query('SELECT 1'),
  };
}

const ROUTES = (ids: Ids): [string, string][] => [
  ['GET /api/print', '/api/print'],
  ['GET /api/print/{id} (40 items)', `/api/print/${ids.print40}`],
  ['GET /api/images', '/api/images'],
  ['GET /api/images?search=tiger', '/api/images?search=tiger'],
  ['GET /api/statistics', '/api/statistics'],
  ['GET /api/orders', '/api/orders'],
  ['GET /api/profile', '/api/profile'],
  ['GET /api/health', '/api/health'],
];

interface ServerResult {
  label: string;
  routes: Record<string, { c10: Run; c100: Run }>;
  history?: { small: Run; big: Run };
  healthAlone: Run;
  healthBeside: Run;
}

interface Server {
  label: string;
  base: string;
  cookie: string;
  ids: Ids;
  dbUrl: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts one build on its own database and seeds it; nothing is measured yet. */
async function startServer(label: string, dir: string, env: Record<string, string>, dbName: string): Promise<Server> {
  await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${dbName}`);
  const url = new URL(BASE_URL);
  url.pathname = `/${dbName}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'gs-bench-api-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...NODE_ARGS, join(dir, 'dist', 'main.js')], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      APP_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
      REDIS_URL,
      QUEUE_PREFIX: `gs_bench_api_${process.pid}_${label}`,
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
      RATE_LIMIT_PER_IP: '100000000',
      RATE_LIMIT_PER_ACCOUNT: '100000000',
      ADMIN_EMAIL: 'admin@bench.local',
      ADMIN_PASSWORD: 'admin-password-1',
      ...env,
    },
  });
  const stop = async () => {
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
    if (process.env.BENCH_KEEP === '1') console.error(`kept database ${dbName}`);
    else await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  };
  const db = new Pool({ connectionString: url.toString(), max: POOL });
  try {
    await waitHealthy(base, child);
    const t0 = Date.now();
    const ids = await seed(db, [
      { name: 'benchseller', prints: 10_000, images: 50_000, layout: true, orders: 1_000 },
      { name: 'hist1k', prints: 1_000, images: 100, layout: false, orders: 0 },
      ...(HISTORY ? [{ name: 'hist100k', prints: 100_000, images: 100, layout: false, orders: 0 }] : []),
    ]);
    const [{ n: items }] = (await db.query(`SELECT count(*)::int AS n FROM print_items`)).rows;
    console.error(`[${label}] seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s (${items.toLocaleString('en')} print items in all)`);
    const cookie = await login(base, BENCH_SELLER.email);
    for (const [name, path] of ROUTES(ids)) {
      const check = await fetch(base + path, { headers: { cookie } });
      if (check.status !== 200) throw new Error(`[${label}] ${name}: ${check.status} ${(await check.text()).slice(0, 200)}`);
    }
    return { label, base, cookie, ids, dbUrl: url.toString(), pid: child.pid!, stop };
  } catch (e) {
    await stop();
    throw e;
  } finally {
    await db.end();
  }
}

/**
 * Runs `measure` on every server, the order alternating with `turn`: the builds under test
 * take turns on the same machine, so a change of load between runs falls on both.
 */
async function interleaved<T>(servers: Server[], turn: number, measure: (s: Server) => Promise<T>): Promise<Map<string, T>> {
  const order = turn % 2 === 0 ? servers : [...servers].reverse();
  const out = new Map<string, T>();
  for (const s of order) {
    out.set(s.label, await measure(s));
    await settle(s);
  }
  return out;
}

/**
 * Waits until a server has worked off what a run left in flight: when autocannon stops, the
 * queries of up to 100 abandoned requests still occupy the pool and PostgreSQL, and would
 * slow the next build's run. Done when a pooled route answers quickly twice in a row.
 */
async function settle(s: Server) {
  const deadline = Date.now() + 120_000;
  let quick = 0;
  while (quick < 2 && Date.now() < deadline) {
    const t0 = performance.now();
    await fetch(`${s.base}/api/profile`, { headers: { cookie: s.cookie } }).then((r) => r.arrayBuffer(), () => undefined);
    quick = performance.now() - t0 < 100 ? quick + 1 : 0;
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function main() {
  const servers: Server[] = [];
  try {
    for (const [n, s] of SERVERS.entries()) servers.push(await startServer(s.label, s.dir, s.env, `gs_bench_api_${process.pid}_${n}`));
    const results = new Map<string, ServerResult>(
      servers.map((s) => [s.label, { label: s.label, routes: {}, healthAlone: undefined as never, healthBeside: undefined as never }]),
    );
    const pool = new Pool({ connectionString: servers[0].dbUrl, max: POOL });
    const sqlOf = routeSql(servers[0].ids);
    const sql: Record<string, { c10: number; c100: number }> = {};
    const hellos: { c10: Run; c100: Run }[] = [];
    const floors: { c10: Run; c100: Run }[] = [];
    let turn = 0;
    const routes = ROUTES(servers[0].ids).filter(([name]) => !ROUTE_FILTER || ROUTE_FILTER.some((w) => name.includes(w)));
    for (const [name] of routes) {
      for (const connections of [10, 100]) {
        const runs = await interleaved(servers, turn++, (s) => drive(s.base + ROUTES(s.ids).find(([n]) => n === name)![1], s.cookie, connections, SECONDS, s.pid));
        for (const [label, run] of runs) {
          const r = results.get(label)!;
          r.routes[name] ??= { c10: run, c100: run };
          r.routes[name][connections === 10 ? 'c10' : 'c100'] = run;
          console.error(`[${label}] ${name.padEnd(32)} ${connections} conns: ${run.rps.toFixed(0)} req/s p97.5 ${run.p975.toFixed(0)} ms, ${run.cpuMs?.toFixed(2)} ms CPU/req, ${run.errors} errors, ${run.s503} × 503`);
        }
      }
      // this route's ceilings, measured now under the same load
      const fn = sqlOf[name];
      await closedLoop(() => fn(pool), 10, 1);
      sql[name] = { c10: await closedLoop(() => fn(pool), 10), c100: await closedLoop(() => fn(pool), 100) };
      console.error(`[raw SQL] ${name.padEnd(32)} 10: ${sql[name].c10.toFixed(0)} q/s | 100: ${sql[name].c100.toFixed(0)} q/s`);
      if (name === 'GET /api/profile' || name === 'GET /api/health') {
        hellos.push({ c10: await helloCeiling(10), c100: await helloCeiling(100) });
        console.error(`[hello world] 10: ${hellos.at(-1)!.c10.rps.toFixed(0)} req/s | 100: ${hellos.at(-1)!.c100.rps.toFixed(0)} req/s`);
        floors.push({ c10: await nestFloor(10), c100: await nestFloor(100) });
        console.error(`[bare NestJS] 10: ${floors.at(-1)!.c10.rps.toFixed(0)} req/s | 100: ${floors.at(-1)!.c100.rps.toFixed(0)} req/s`);
      }
    }
    await pool.end();
    if (HISTORY) {
      const runs = await interleaved(servers, turn++, async (s) => ({
        small: await drive(`${s.base}/api/print`, await login(s.base, 'hist1k@example.com'), 10),
        big: await drive(`${s.base}/api/print`, await login(s.base, 'hist100k@example.com'), 10),
      }));
      for (const [label, h] of runs) results.get(label)!.history = h;
    }
    // /api/health alone, then beside 100 connections on the print list
    const alone = await interleaved(servers, turn++, (s) => drive(`${s.base}/api/health`, null, 10));
    const beside = await interleaved(servers, turn++, async (s) => (await Promise.all([drive(`${s.base}/api/health`, null, 10), drive(`${s.base}/api/print`, s.cookie, 100)]))[0]);
    for (const s of servers) Object.assign(results.get(s.label)!, { healthAlone: alone.get(s.label), healthBeside: beside.get(s.label) });
    if (!hellos.length) hellos.push({ c10: await helloCeiling(10), c100: await helloCeiling(100) });
    if (!floors.length) floors.push({ c10: await nestFloor(10), c100: await nestFloor(100) });
    const mean = (xs: { c10: Run; c100: Run }[], k: 'c10' | 'c100'): Run => ({ ...xs[0][k], rps: xs.reduce((t, h) => t + h[k].rps, 0) / xs.length });
    const hello = { c10: mean(hellos, 'c10'), c100: mean(hellos, 'c100') };
    const nest = { c10: mean(floors, 'c10'), c100: mean(floors, 'c100') };
    report([...results.values()], { hello, nest, sql });
  } finally {
    for (const s of servers) await s.stop();
  }
}

function report(
  results: ServerResult[],
  ceilings: { hello: { c10: Run; c100: Run }; nest: { c10: Run; c100: Run }; sql: Record<string, { c10: number; c100: number }> },
) {
  const f0 = (n: number) => n.toFixed(0);
  const pct = (v: number, c: number) => `${((100 * v) / c).toFixed(0)} %`;
  console.log(`\n## bench:api — ${SECONDS} s per run, compiled server (NODE_ENV=production), PostgreSQL + Redis, loopback\n`);
  console.log(
    `Ceilings: hello world ${f0(ceilings.hello.c10.rps)} req/s (10 connections), ${f0(ceilings.hello.c100.rps)} (100); a bare NestJS app on Fastify, one route, ${f0(ceilings.nest.c10.rps)} req/s (${pct(ceilings.nest.c10.rps, ceilings.hello.c10.rps)} of hello world), ${f0(ceilings.nest.c100.rps)} (${pct(ceilings.nest.c100.rps, ceilings.hello.c100.rps)}); raw SQL per route below (pool of ${POOL}).\n`,
  );
  for (const r of results) {
    console.log(`### ${r.label}\n`);
    console.log('| route | 10 conns req/s | p97.5 ms | share of ceiling | API CPU ms/req | 100 conns req/s | p97.5 ms | errors | 503 | share of ceiling |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const [name, { c10, c100 }] of Object.entries(r.routes)) {
      const profile = name === 'GET /api/profile';
      const ceil10 = profile ? ceilings.hello.c10.rps : ceilings.sql[name]?.c10;
      const ceil100 = profile ? ceilings.hello.c100.rps : ceilings.sql[name]?.c100;
      const nestOf = (v: number, k: 'c10' | 'c100') => (profile ? `, ${pct(v, ceilings.nest[k].rps)} of bare NestJS` : '');
      const share = (v: number, k: 'c10' | 'c100', c?: number) => (c ? `${pct(v, c)}${profile ? ' of hello' : ''}${nestOf(v, k)}` : '—');
      console.log(
        `| ${name} | ${f0(c10.rps)} | ${f0(c10.p975)} | ${share(c10.rps, 'c10', ceil10)} | ${c10.cpuMs?.toFixed(2) ?? '—'} | ${f0(c100.rps)} | ${f0(c100.p975)} | ${c100.errors + c100.non2xx - c100.s503} | ${c100.s503} | ${share(c100.rps, 'c100', ceil100)} |`,
      );
    }
    console.log(
      `\n/api/health at 10 connections: alone ${f0(r.healthAlone.rps)} req/s p97.5 ${f0(r.healthAlone.p975)} ms; beside 100 connections on GET /api/print ${f0(r.healthBeside.rps)} req/s p97.5 ${f0(r.healthBeside.p975)} ms, ${r.healthBeside.errors + r.healthBeside.non2xx} errors`,
    );
    if (r.history) {
      const ratio = r.history.small.rps / r.history.big.rps;
      console.log(
        `History: GET /api/print for 1,000 prints ${f0(r.history.small.rps)} req/s (p97.5 ${f0(r.history.small.p975)} ms) vs 100,000 prints ${f0(r.history.big.rps)} req/s (p97.5 ${f0(r.history.big.p975)} ms): ${ratio.toFixed(2)}× (goal ≤ 1.5×)`,
      );
    }
    console.log('');
  }
  console.log('| raw SQL ceiling | 10 callers q/s | 100 callers q/s |\n|---|---:|---:|');
  for (const [name, s] of Object.entries(ceilings.sql)) console.log(`| ${name} | ${f0(s.c10)} | ${f0(s.c100)} |`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
