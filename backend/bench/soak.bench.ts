/**
 * The soak: 20 sellers upload, print, sync shop orders and buy credits at once
 * against the compiled app in production mode (PostgreSQL, Redis, an API node with
 * PROCESS_JOBS=false and a separate worker), while the worker is SIGKILLed (at 1/3) and
 * Redis is restarted empty (at 1/2). Then every charged print attempt must be Completed or
 * refunded, every balance equal to its ledger, no 5xx, and /api/health fast throughout.
 *
 *   npm run bench:soak                        (30 minutes)
 *   SOAK_MINUTES=5 npm run bench:soak         (the fault times scale with it)
 *
 * Settings: SOAK_SELLERS (20), SOAK_DRAIN_MINUTES (5: the most the end waits for prints still
 * Processing), SOAK_REDIS_DOWN_SECONDS (5), SOAK_HEALTH_P99_MS (1000), SOAK_CANCEL_SHARE (0.08
 * of processed prints are cancelled by their seller), SOAK_KEEP=1 (keep the database and data
 * folder), DATABASE_URL (the PostgreSQL server to create the soak's database on),
 * SOAK_APP_<NAME> (passed to the app as <NAME>), SOAK_APP_DIR (run another backend's dist/).
 * Needs redis-server on PATH; the machine's own Redis is never touched. Writes its logs and
 * report to backend/bench-out/soak-<time>/. Exits 1 when a check fails.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execSync } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Client as Pg } from 'pg';
import { Rng } from '../src/gangsheet/pack/rng';
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET, FAKE_WEBHOOK_ID, FakePayPal } from '../test/fakes/paypal.fake';
import { MailCatcher } from '../test/utils/mail-catcher';
import { artworkPng, KINDS, makeArtwork } from './artwork';
import { Check, inspectLedger, latencySummary, waitForProcessingToEnd } from './soak/checks';
import { Client, Recorder, Sample } from './soak/http';
import { APP_DIR, BACKEND, ensureBuilt, freePort, Proc, startApi, startRedis, startWorker, stopProc } from './soak/processes';
import { Design, Seller, SoakWorld } from './soak/seller';

const num = (name: string, dflt: number) => {
  const v = Number(process.env[name] ?? dflt);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return v;
};
const MINUTES = num('SOAK_MINUTES', 30);
const SELLERS = num('SOAK_SELLERS', 20);
const DRAIN_MS = num('SOAK_DRAIN_MINUTES', 5) * 60_000;
const REDIS_DOWN_MS = num('SOAK_REDIS_DOWN_SECONDS', 5) * 1000;
const HEALTH_P99_MS = num('SOAK_HEALTH_P99_MS', 1000);
const CANCEL_SHARE = Number(process.env.SOAK_CANCEL_SHARE ?? 0.08);
const KEEP = process.env.SOAK_KEEP === '1';
/** A fault's window in the report: from the fault until this long after it. */
const AFTER_FAULT_MS = 60_000;
/** /api/health may answer 503 while Redis is down and this long after it is back. */
const HEALTH_GRACE_MS = 15_000;
const BASE_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ADMIN = { email: 'soak-admin@example.com', password: 'soak-admin-password-1' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const s = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
const f0 = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '-');

async function adminQuery(sql: string) {
  const c = new Pg({ connectionString: BASE_DATABASE_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

async function makeDesigns(): Promise<Design[]> {
  const rng = new Rng(28);
  const out: Design[] = [];
  for (let i = 0; i < 12; i++) {
    const art = makeArtwork(KINDS[i % KINDS.length], rng, 300 + rng.int(300));
    out.push({ name: `${art.kind}-${i}.png`, type: 'image/png', body: await artworkPng(art) });
    out.push({ name: `${art.kind}-${i}.svg`, type: 'image/svg+xml', body: Buffer.from(art.svg) });
  }
  return out;
}

async function main() {
  const started = new Date();
  const runDir = join(BACKEND, 'bench-out', `soak-${started.toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(runDir, { recursive: true });
  let loadStart = performance.now();
  const log = (line: string) => {
    const text = `[${((performance.now() - loadStart) / 1000).toFixed(1).padStart(7)} s] ${line}`;
    console.log(text);
    appendFileSync(join(runDir, 'soak.log'), text + '\n');
  };
  log(`soak: ${MINUTES} min, ${SELLERS} sellers; logs and report in ${runDir}`);
  log(ensureBuilt(log));

  const cleanups: Array<() => Promise<unknown>> = [];
  const procs: Proc[] = [];
  const onSignal = () => {
    log('interrupted: stopping what the soak started');
    void Promise.allSettled(procs.map((p) => stopProc(p, 2000))).then(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const dbName = `gs_soak_${process.pid}_${randomBytes(3).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${dbName}`);
  if (!KEEP) cleanups.push(() => adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));
  const dbUrl = new URL(BASE_DATABASE_URL);
  dbUrl.pathname = `/${dbName}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'gs-soak-'));
  if (!KEEP) cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));

  const mail = await new MailCatcher().start();
  cleanups.push(() => mail.stop());
  const paypal = await new FakePayPal().start();
  cleanups.push(() => paypal.stop());

  const redisPort = await freePort();
  let redis = await startRedis(redisPort, join(runDir, 'redis.log'));
  procs.push(redis);
  const apiPort = await freePort();
  const appUrl = `http://127.0.0.1:${apiPort}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    PORT: String(apiPort),
    APP_URL: appUrl,
    DATA_DIR: dataDir,
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    QUEUE_PREFIX: 'soak',
    SMTP_URL: mail.url,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    INTEGRATIONS_SECRET_KEY: randomBytes(32).toString('base64url'),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    // every seller of the soak comes from 127.0.0.1
    RATE_LIMIT_PER_IP: '1000000',
    RATE_LIMIT_PER_ACCOUNT: '1000000',
    API_KEY_RATE_LIMIT: '1000000',
    PAYMENT_PROVIDER: 'paypal',
    PAYPAL_CLIENT_ID: FAKE_CLIENT_ID,
    PAYPAL_CLIENT_SECRET: FAKE_CLIENT_SECRET,
    PAYPAL_WEBHOOK_ID: FAKE_WEBHOOK_ID,
    PAYPAL_API_URL: paypal.url,
    // the sellers' shops are local fake servers
    SHOPS_ALLOW_PRIVATE_URLS: 'true',
    // SOAK_APP_<NAME>=v sets <NAME>=v for the API and the worker (e.g. SOAK_APP_PRINT_JOB_CONCURRENCY=2)
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('SOAK_APP_') && k !== 'SOAK_APP_DIR').map(([k, v]) => [k.slice(9), v])),
  };
  const api = await startApi({ ...env, PROCESS_JOBS: 'false' }, join(runDir, 'api.log'));
  procs.push(api);
  let worker = await startWorker('worker-1', env, join(runDir, 'worker-1.log'));
  procs.push(worker);
  log(`API pid ${api.child.pid} on ${appUrl} (PROCESS_JOBS=false), worker-1 pid ${worker.child.pid}, redis-server pid ${redis.child.pid} on ${redisPort}, database ${dbName}`);

  const db = new Pg({ connectionString: dbUrl.toString() });
  await db.connect();
  cleanups.push(() => db.end());

  const rec = new Recorder();
  const admin = new Client(appUrl, appUrl, rec, 'admin');
  await admin.post('/api/login', ADMIN);
  const world: SoakWorld = {
    base: appUrl,
    origin: appUrl,
    rec,
    mail,
    paypal,
    admin,
    designs: await makeDesigns(),
    stopAt: Infinity,
    printWaitMs: 4 * 60_000,
    cancelShare: CANCEL_SHARE,
    log,
  };
  const sellers = Array.from({ length: SELLERS }, (_, i) => new Seller(i + 1, world));
  cleanups.push(() => Promise.all(sellers.map((x) => x.stop())));

  let healthTimer: NodeJS.Timeout | undefined;
  const healthInFlight = new Set<Promise<unknown>>();
  const loop = monitorEventLoopDelay({ resolution: 20 });
  const events: Record<string, number> = {};
  let exitCode = 1;
  try {
    await Promise.all(sellers.map((x) => x.setUp()));
    log(`${SELLERS} sellers signed up (verification mail through SMTP), each with a WooCommerce shop`);

    // ---- the load, with its two faults ----
    loadStart = performance.now();
    rec.start = loadStart;
    const durationMs = MINUTES * 60_000;
    world.stopAt = loadStart + durationMs;
    const loadStartDate = new Date();
    const health = new Client(appUrl, appUrl, rec, 'health');
    healthTimer = setInterval(() => {
      const p = health.get('/api/health', { ok: [503], timeoutMs: 10_000 }).catch(() => undefined);
      healthInFlight.add(p);
      void p.finally(() => healthInFlight.delete(p));
    }, 200);
    loop.enable();
    const processing = async () => (await db.query(`SELECT count(*)::int AS n FROM prints WHERE status = 'Processing'`)).rows[0].n;
    const inFlight = async () => (await db.query(`SELECT id, attempt FROM prints WHERE status = 'Processing'`)).rows as InFlight[];
    const atFault: Record<'workerKill' | 'redisStop', InFlight[]> = { workerKill: [], redisStop: [] };

    const faults = (async () => {
      await sleep(durationMs / 3);
      events.workerKill = rec.now();
      events.workerKillWall = Date.now();
      atFault.workerKill = await inFlight();
      log(`FAULT: kill -9 worker-1 (pid ${worker.child.pid}); ${atFault.workerKill.length} print(s) Processing`);
      process.kill(worker.child.pid!, 'SIGKILL');
      await worker.exited;
      worker = await startWorker('worker-2', env, join(runDir, 'worker-2.log'));
      procs.push(worker);
      events.workerUp = rec.now();
      log(`worker-2 started (pid ${worker.child.pid}) ${s(events.workerUp - events.workerKill)} after the kill`);

      await sleep(Math.max(0, durationMs / 2 - rec.now()));
      events.redisStop = rec.now();
      atFault.redisStop = await inFlight();
      log(`FAULT: stopping redis-server (pid ${redis.child.pid}); ${atFault.redisStop.length} print(s) Processing`);
      await stopProc(redis, 5000);
      await sleep(REDIS_DOWN_MS);
      redis = await startRedis(redisPort, join(runDir, 'redis.log'));
      procs.push(redis);
      events.redisUp = rec.now();
      events.redisUpWall = Date.now();
      log(`redis-server started again EMPTY (pid ${redis.child.pid}) after ${s(events.redisUp - events.redisStop)} down`);
    })();

    const progress = setInterval(() => {
      const done = sellers.reduce((a, x) => a + x.stats.completedSeen, 0);
      void processing().then((n) => log(`progress: ${done} prints completed (seen by sellers), ${n} Processing, ${rec.samples.length} requests`), () => undefined);
    }, 60_000);
    await Promise.all([faults, ...sellers.map((x) => x.run())]);
    clearInterval(progress);
    events.loadEnd = rec.now();
    const loadEndDate = new Date();
    log('load over: waiting for the prints still Processing');

    const drain = await waitForProcessingToEnd(db, DRAIN_MS, log);
    events.drainEnd = rec.now();
    clearInterval(healthTimer);
    await Promise.allSettled([...healthInFlight]);
    loop.disable();
    log(drain.left ? `${drain.left} print(s) still Processing after ${s(drain.waitedMs)}` : `no print Processing (waited ${s(drain.waitedMs)})`);

    // ---- checks ----
    const ledger = await inspectLedger(db, loadStartDate, loadEndDate, new Date(events.redisUpWall));
    const fates = {
      'worker kill': await fateOf(db, atFault.workerKill, events.workerKillWall),
      'Redis restart': await fateOf(db, atFault.redisStop, events.redisUpWall),
    };
    const report = buildReport({ rec, events, sellers, ledger, drain, fates, loadMs: events.loadEnd, loopP99: loop.percentile(99) / 1e6, loopMax: loop.max / 1e6 });
    writeFileSync(join(runDir, 'report.txt'), report.text);
    writeFileSync(join(runDir, 'report.json'), JSON.stringify({ events, ledger, fates, checks: report.checks, sellers: sellers.map((x) => x.stats), unexpected: rec.unexpected }, null, 2));
    console.log('\n' + report.text);
    exitCode = report.checks.every((c) => c.pass) ? 0 : 1;
  } finally {
    clearInterval(healthTimer);
    for (const p of procs.reverse()) await stopProc(p).catch(() => undefined);
    for (const c of cleanups.reverse()) await c().catch((e) => log(`cleanup: ${e}`));
    if (KEEP) log(`kept database ${dbName} and ${dataDir}`);
  }
  process.exit(exitCode);
}

interface InFlight {
  id: string;
  attempt: number;
}

type Fate = Awaited<ReturnType<typeof fateOf>>;

/** What became of the attempts that were Processing when a fault hit, and when. */
async function fateOf(db: Pg, attempts: InFlight[], sinceWall: number) {
  const out = { n: attempts.length, completed: 0, refunded: 0, other: [] as string[], lastCompletedS: 0 };
  for (const a of attempts) {
    const [p] = (await db.query(`SELECT status, attempt, printed_at FROM prints WHERE id = $1`, [a.id])).rows;
    const [r] = (await db.query(`SELECT 1 FROM credit_transactions WHERE reason = 'refund' AND reference = $1`, [`print:${a.id}:${a.attempt}`])).rows;
    if (p.status === 'Completed' && p.attempt === a.attempt) {
      out.completed++;
      out.lastCompletedS = Math.max(out.lastCompletedS, (new Date(p.printed_at).getTime() - sinceWall) / 1000);
    } else if (r) out.refunded++;
    else out.other.push(`${a.id} ${p.status} at attempt ${p.attempt}`);
  }
  return out;
}

interface ReportInput {
  fates: Record<string, Fate>;
  rec: Recorder;
  events: Record<string, number>;
  sellers: Seller[];
  ledger: Awaited<ReturnType<typeof inspectLedger>>;
  drain: { waitedMs: number; left: number };
  loadMs: number;
  loopP99: number;
  loopMax: number;
}

/** The commit the soak ran on, and whether backend/src had uncommitted changes (others' work in progress is built too). */
function gitState(): string {
  if (APP_DIR !== BACKEND) return `SOAK_APP_DIR=${APP_DIR}`;
  try {
    const head = execSync('git rev-parse --short HEAD', { cwd: BACKEND, encoding: 'utf8' }).trim();
    const dirty = execSync('git status --porcelain -- src', { cwd: BACKEND, encoding: 'utf8' }).split('\n').filter(Boolean).length;
    return dirty ? `${head} + ${dirty} uncommitted file(s) in backend/src` : head;
  } catch {
    return 'unknown (no git)';
  }
}

function windowOf(at: number, e: Record<string, number>): string {
  if (at < 0) return 'setup';
  if (at >= e.redisStop && at < e.redisUp) return 'Redis down';
  if (at >= e.redisUp && at < e.redisUp + AFTER_FAULT_MS) return 'Redis back, first 60 s';
  if (at >= e.workerKill && at < e.workerKill + AFTER_FAULT_MS) return 'worker killed, first 60 s';
  if (at >= e.loadEnd) return 'drain (no new work)';
  return 'steady load';
}

function buildReport(r: ReportInput) {
  const { rec, events: e, sellers, ledger: l } = r;
  const lines: string[] = [];
  const out = (x = '') => lines.push(x);
  const sum = (k: keyof Seller['stats']) => sellers.reduce((a, x) => a + (x.stats[k] as number), 0);
  const health = rec.samples.filter((x) => x.route === 'GET /api/health');
  const rest = rec.samples.filter((x) => x.route !== 'GET /api/health');
  const hours = r.loadMs / 3_600_000;

  out(`SOAK REPORT — ${MINUTES} min of load, ${SELLERS} sellers, ${new Date().toISOString()}`);
  const overrides = Object.keys(process.env).filter((k) => k.startsWith('SOAK_APP_') && k !== 'SOAK_APP_DIR');
  out(`code: ${gitState()}; compiled dist/, NODE_ENV=production, API (PROCESS_JOBS=false) + one worker process${overrides.length ? `; app settings ${overrides.map((k) => `${k.slice(9)}=${process.env[k]}`).join(' ')}` : ''}`);
  out(`faults: worker SIGKILL at ${s(e.workerKill)} (worker-2 up ${s(e.workerUp - e.workerKill)} later); Redis down ${s(e.redisStop)} → ${s(e.redisUp)} (restarted empty); load ended ${s(e.loadEnd)}, drain ${s(r.drain.waitedMs)}`);
  for (const [fault, x] of Object.entries(r.fates))
    out(`  in flight at the ${fault}: ${x.n} print(s) → ${x.completed} completed (the last ${x.lastCompletedS.toFixed(0)} s after the fault), ${x.refunded} refunded${x.other.length ? `, ${x.other.length} neither: ${x.other.join('; ')}` : ''}`);
  out();
  out('Prints (database, final state):');
  out(`  by status: ${Object.entries(l.byStatus).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`);
  out(`  charged attempts ${l.charges}: completed ${l.completedAttempts}, refunded ${l.refunds} (${l.refundedCredits} credits), still Processing ${l.stuck.length}`);
  out(`  completed during the load: ${l.completedInWindow} prints, ${l.copiesInWindow} copies → ${(l.completedInWindow / hours).toFixed(0)} prints/hour, ${(l.copiesInWindow / hours).toFixed(0)} copies/hour`);
  out(`  completed after Redis came back: ${l.completedAfter}`);
  out();
  out(`Sellers (sum of ${SELLERS}): rounds ${sum('rounds')} (${sum('failedRounds')} failed), prints created ${sum('printsCreated')} (${sum('orderPrints')} from shop orders), processed ${sum('processed')}, ` +
    `seen Completed ${sum('completedSeen')}, seen Error ${sum('errorSeen')}, cancelled ${sum('cancelled')}, gave up waiting ${sum('gaveUpWaiting')}, ` +
    `downloads ${sum('downloads')} (${sum('badDownloads')} not a PNG), order syncs ${sum('syncs')} (${sum('syncsFailed')} failed), ` +
    `PayPal purchases ${sum('purchases')} (+${sum('purchasesCancelled')} cancelled at PayPal), admin grants ${sum('grants')}; completed payments in the database ${l.paymentsCompleted}`);
  const failures = sellers.flatMap((x) => x.stats.failures.map((m) => `seller${x.n}: ${m}`));
  for (const m of failures.slice(0, 15)) out(`  failed round: ${m}`);
  out();
  out('/api/health every 200 ms (latency ms; a request that got no answer counts with the time it waited):');
  out(`  ${'window'.padEnd(28)} ${'n'.padStart(6)} ${'p50'.padStart(6)} ${'p95'.padStart(6)} ${'p99'.padStart(6)} ${'max'.padStart(6)}  statuses`);
  const windows = ['all', 'steady load', 'worker killed, first 60 s', 'Redis down', 'Redis back, first 60 s', 'drain (no new work)'];
  for (const w of windows) {
    const xs = w === 'all' ? health : health.filter((x) => windowOf(x.at, e) === w);
    const h = latencySummary(xs);
    out(`  ${w.padEnd(28)} ${String(h.n).padStart(6)} ${f0(h.p50).padStart(6)} ${f0(h.p95).padStart(6)} ${f0(h.p99).padStart(6)} ${f0(h.max).padStart(6)}  ${JSON.stringify(h.statuses)}`);
  }
  const lastBad = health.filter((x) => x.at >= e.redisUp && x.status !== 200).pop();
  out(`  after Redis came back, the last non-200 health answer was sent ${lastBad ? s(lastBad.at - e.redisUp) : '0 s'} after the restart`);
  out(`  the soak's own event loop (sellers + fakes + poller): p99 delay ${r.loopP99.toFixed(0)} ms, max ${r.loopMax.toFixed(0)} ms`);
  out();
  out('Answers by route (all sellers; ms):');
  const byRoute = new Map<string, Sample[]>();
  for (const x of rest) {
    if (!byRoute.has(x.route)) byRoute.set(x.route, []);
    byRoute.get(x.route)!.push(x);
  }
  out(`  ${'route'.padEnd(44)} ${'n'.padStart(6)} ${'2xx'.padStart(6)} ${'3xx'.padStart(5)} ${'4xx'.padStart(5)} ${'5xx'.padStart(5)} ${'none'.padStart(5)} ${'p50'.padStart(6)} ${'p99'.padStart(6)}`);
  for (const [route, xs] of [...byRoute].sort((a, b) => b[1].length - a[1].length)) {
    const c = (lo: number, hi: number) => xs.filter((x) => x.status >= lo && x.status < hi).length;
    const h = latencySummary(xs);
    out(`  ${route.padEnd(44)} ${String(xs.length).padStart(6)} ${String(c(200, 300)).padStart(6)} ${String(c(300, 400)).padStart(5)} ${String(c(400, 500)).padStart(5)} ${String(c(500, 600)).padStart(5)} ${String(c(0, 1)).padStart(5)} ${f0(h.p50).padStart(6)} ${f0(h.p99).padStart(6)}`);
  }
  const bad = rest.filter((x) => x.status >= 500 || x.status === 0);
  if (bad.length) {
    out('  5xx / no answer by route and window:');
    const k = new Map<string, number>();
    for (const x of bad) k.set(`${x.route} ${x.status || x.error} (${windowOf(x.at, e)})`, (k.get(`${x.route} ${x.status || x.error} (${windowOf(x.at, e)})`) ?? 0) + 1);
    for (const [key, n] of [...k].sort((a, b) => b[1] - a[1])) out(`    ${n} × ${key}`);
  }
  const unexpected4xx = rec.unexpected.filter((u) => u.status >= 400 && u.status < 500);
  if (unexpected4xx.length) {
    out('  unexpected 4xx (first 10):');
    for (const u of unexpected4xx.slice(0, 10)) out(`    ${s(u.at)} ${u.who} ${u.route} ${u.status}: ${u.message}`);
  }
  const five = rec.unexpected.filter((u) => u.status >= 500);
  if (five.length) {
    out('  5xx messages (first 10):');
    for (const u of five.slice(0, 10)) out(`    ${s(u.at)} ${u.who} ${u.route} ${u.status}: ${u.message}`);
  }
  out();

  const outsideRedis = health.filter((x) => x.at >= 0 && !(x.at >= e.redisStop && x.at < e.redisUp + HEALTH_GRACE_MS));
  const healthBadOutside = outsideRedis.filter((x) => x.status !== 200);
  const hp = latencySummary(outsideRedis);
  const list = (xs: string[]) => (xs.length ? `: ${xs.slice(0, 5).join('; ')}${xs.length > 5 ? ` … (${xs.length})` : ''}` : '');
  const checks: Check[] = [
    { name: 'every print left Processing', pass: l.stuck.length === 0, detail: `${l.stuck.length} still Processing after ${s(r.drain.waitedMs)}${list(l.stuck)}` },
    {
      name: 'every charged attempt Completed or refunded, once',
      pass: !l.unrefunded.length && !l.doubleDealt.length && !l.orphanRefunds.length && !l.wrongRefundAmount.length,
      detail: `${l.completedAttempts} completed, ${l.refunds} refunded; not refunded ${l.unrefunded.length}${list(l.unrefunded)}; completed and refunded ${l.doubleDealt.length}${list(l.doubleDealt)}; refund without charge ${l.orphanRefunds.length}; wrong amount ${l.wrongRefundAmount.length}${list(l.wrongRefundAmount)}`,
    },
    {
      name: 'ledger sums equal balances (every user), none negative',
      pass: !l.ledgerMismatch.length && !l.negative.length,
      detail: `${l.ledgerMismatch.length} mismatched${list(l.ledgerMismatch)}; ${l.negative.length} negative${list(l.negative)}`,
    },
    { name: 'every completed payment credited once', pass: !l.paymentsNotCredited.length, detail: `${l.paymentsCompleted} completed payments; ${l.paymentsNotCredited.length} wrong${list(l.paymentsNotCredited)}` },
    { name: 'no 5xx (routes other than /api/health)', pass: !rest.some((x) => x.status >= 500), detail: `${rest.filter((x) => x.status >= 500).length} of ${rest.length} answers` },
    { name: 'every request answered (no reset/timeout)', pass: !rest.some((x) => x.status === 0), detail: `${rest.filter((x) => x.status === 0).length} without an answer` },
    {
      name: `/api/health 200 except while Redis is down (+${HEALTH_GRACE_MS / 1000} s)`,
      pass: healthBadOutside.length === 0,
      detail: `${healthBadOutside.length} of ${outsideRedis.length} not 200 outside${healthBadOutside.length ? `: ${JSON.stringify(latencySummary(healthBadOutside).statuses)}` : ''}; during: ${JSON.stringify(latencySummary(health.filter((x) => x.at >= e.redisStop && x.at < e.redisUp + HEALTH_GRACE_MS)).statuses)}`,
    },
    { name: `/api/health p99 ≤ ${HEALTH_P99_MS} ms (outside the Redis outage)`, pass: hp.p99 <= HEALTH_P99_MS, detail: `p50 ${f0(hp.p50)}, p95 ${f0(hp.p95)}, p99 ${f0(hp.p99)}, max ${f0(hp.max)} ms over ${hp.n}` },
    { name: 'prints complete after the Redis restart', pass: l.completedAfter > 0, detail: `${l.completedAfter} completed after it` },
    { name: 'every downloaded sheet is a PNG', pass: sum('badDownloads') === 0 && sum('downloads') > 0, detail: `${sum('downloads')} downloads, ${sum('badDownloads')} bad` },
    { name: 'no seller round failed', pass: sum('failedRounds') === 0, detail: `${sum('failedRounds')} of ${sum('rounds')} rounds${list(failures)}` },
  ];
  out('Checks:');
  for (const c of checks) out(`  ${c.pass ? 'PASS' : 'FAIL'}  ${c.name} — ${c.detail}`);
  out();
  out(checks.every((c) => c.pass) ? 'RESULT: PASS' : `RESULT: FAIL (${checks.filter((c) => !c.pass).length} of ${checks.length} checks)`);
  return { text: lines.join('\n') + '\n', checks };
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
