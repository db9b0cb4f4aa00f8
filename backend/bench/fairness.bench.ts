/**
 * Fairness of the image queue: one seller uploads a small SVG that takes minutes to rasterise
 * (3.3 KB: 50 full-size rectangles under a large Gaussian blur), another seller uploads 20
 * small PNGs right after. Reports how long each PNG waits from "upload accepted" (the
 * response) to "image Ready" (polled in the database), and what became of the SVG.
 *
 * The app runs in-process with its real modules: PostgreSQL (DATABASE_URL) + Bull (REDIS_URL)
 * when REDIS_URL is set, else embedded (PGlite + the in-process job runner).
 *
 *   REDIS_URL=redis://127.0.0.1:6379 DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:fairness
 *   npm run bench:fairness          (embedded)
 *
 * BENCH_PNGS (20), BENCH_GAP_MS (2000: the PNGs start this long after the SVG was accepted),
 * BENCH_RECTS (50), BENCH_TIMEOUT_S (1800) change the run; BENCH_SVG=0 uploads the PNGs alone
 * (the floor: what the PNGs wait for each other). Variables of the app's own (IMAGE_*, QUEUE_*,
 * CPU_WORKERS, UPLOAD_*) reach its configuration.
 */
import 'reflect-metadata';
import Redis from 'ioredis';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { hashPassword } from '../src/common/password';
import { AppConfig } from '../src/config/configuration';
import { APP_CONFIG } from '../src/config/config.module';
import { CpuPool } from '../src/cpu/cpu-pool';
import { ORIGIN, startBenchApp } from './bench-app';

const PNGS = Number(process.env.BENCH_PNGS ?? 20);
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 2000);
const RECTS = Number(process.env.BENCH_RECTS ?? 50);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_S ?? 1800) * 1000;
const PASSWORD = 'bench-password-1';
const REDIS = !!process.env.REDIS_URL;
const WITH_SVG = process.env.BENCH_SVG !== '0';

/** A slow file: small in bytes, minutes of rasterising (a large blur over page-sized shapes). */
export function filterSvg(rects = RECTS): string {
  const shapes = Array.from({ length: rects }, () => '<rect width="16000" height="16000" fill="red" filter="url(#f)"/>').join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="16000" height="16000"><filter id="f"><feGaussianBlur stdDeviation="500"/></filter>${shapes}</svg>`;
}

/** The app's own settings given to the bench (IMAGE_*, QUEUE_*, CPU_WORKERS ...). */
function passThrough(): Record<string, string> {
  const keys = Object.keys(process.env).filter((k) => /^(IMAGE_|QUEUE_|CPU_WORKERS|UPLOAD_)/.test(k));
  return Object.fromEntries(keys.map((k) => [k, process.env[k]!]));
}

async function login(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: ORIGIN, 'X-Requested-With': 'XMLHttpRequest' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

/** Uploads one file; returns the new image's id once the upload was accepted. */
async function upload(base: string, cookie: string, file: Buffer, name: string, type: string): Promise<string> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(file)], { type }), name);
  const res = await fetch(`${base}/api/images/bulk-upload`, {
    method: 'POST',
    headers: { Cookie: cookie, Origin: ORIGIN, 'X-Requested-With': 'XMLHttpRequest' },
    body: form,
  });
  const body = await res.json();
  if (res.status !== 201 || !body.data?.[0]?._id) throw new Error(`upload of ${name} refused: ${res.status} ${JSON.stringify(body)}`);
  return body.data[0]._id;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const mode = REDIS ? 'PostgreSQL + Redis (Bull)' : 'embedded (PGlite, in-process jobs)';
  const prefix = `gs_bench_fair_${process.pid}`;
  const bench = REDIS ? await startBenchApp(prefix, { REDIS_URL: process.env.REDIS_URL!, QUEUE_PREFIX: prefix, ...passThrough() }) : await startBenchApp(null, passThrough());
  const db = bench.app.get(DataSource);
  try {
    const hash = await hashPassword(PASSWORD);
    for (const name of ['slowseller', 'smallseller'])
      await db.query(
        `INSERT INTO users (first_name, last_name, username, email, password_hash, email_verified_at) VALUES ('Bench', 'Seller', $1, $2, $3, now())`,
        [name, `${name}@example.com`, hash],
      );
    const slow = await login(bench.base, 'slowseller@example.com');
    const small = await login(bench.base, 'smallseller@example.com');
    const pngs = await Promise.all(
      Array.from({ length: PNGS }, (_, i) =>
        sharp({ create: { width: 600, height: 400, channels: 4, background: { r: (i * 37) % 256, g: 80, b: 160, alpha: 1 } } })
          .png()
          .toBuffer(),
      ),
    );

    // Every CPU worker started first: under ts-node a worker's start compiles the engine, which
    // on a loaded machine can outlast an upload's check (not what is measured here).
    const workers = bench.app.get<AppConfig>(APP_CONFIG).cpu.workers;
    await Promise.all(Array.from({ length: workers }, () => bench.app.get(CpuPool).run('spin', [500])));

    const t0 = Date.now();
    const svgId = WITH_SVG ? await upload(bench.base, slow, Buffer.from(filterSvg()), 'blur.svg', 'image/svg+xml') : null;
    if (WITH_SVG) await new Promise((r) => setTimeout(r, GAP_MS));
    const accepted = new Map<string, number>();
    for (let i = 0; i < PNGS; i++) {
      const id = await upload(bench.base, small, pngs[i], `small-${i + 1}.png`, 'image/png');
      accepted.set(id, Date.now());
    }
    const ready = new Map<string, number>();
    const deadline = Date.now() + TIMEOUT_MS;
    let svg: { status: string; error: string | null; at?: number } = { status: 'processing', error: null };
    while (ready.size < PNGS && Date.now() < deadline) {
      const rows: Array<{ id: string; status: string; error: string | null }> = await db.query(`SELECT id, status, error FROM images WHERE id = ANY($1)`, [
        [...accepted.keys(), ...(svgId ? [svgId] : [])],
      ]);
      const now = Date.now();
      for (const r of rows) {
        if (r.id === svgId) {
          if (r.status !== 'processing' && !svg.at) svg = { status: r.status, error: r.error, at: now };
        } else if (r.status !== 'processing' && !ready.has(r.id)) {
          if (r.status !== 'ready') throw new Error(`PNG ${r.id} ended ${r.status}: ${r.error}`);
          ready.set(r.id, now);
        }
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    if (ready.size < PNGS) throw new Error(`only ${ready.size}/${PNGS} PNGs were Ready after ${TIMEOUT_MS / 1000} s`);
    const waits = [...accepted].map(([id, at]) => ready.get(id)! - at).sort((a, b) => a - b);
    const result = {
      mode,
      pngs: PNGS,
      waitMs: { min: waits[0], p50: pct(waits, 50), p95: pct(waits, 95), max: waits[waits.length - 1], mean: Math.round(waits.reduce((a, b) => a + b, 0) / waits.length) },
      svg: !WITH_SVG
        ? { status: 'none uploaded (BENCH_SVG=0)', afterMs: 0 }
        : svg.at
          ? { status: svg.status, error: svg.error, afterMs: svg.at - t0 }
          : { status: 'still processing when the last PNG was ready', afterMs: Date.now() - t0 },
    };
    const what = WITH_SVG ? `while another seller's blur SVG (${RECTS} rects) is prepared` : 'alone (BENCH_SVG=0)';
    console.log(`\n### Fairness: ${PNGS} small PNGs of one seller ${what} — ${mode}\n`);
    console.log('| PNG wait (accepted → Ready) | min | p50 | p95 | max | mean |');
    console.log('|---|---|---|---|---|---|');
    console.log(`| | ${s(result.waitMs.min)} | ${s(result.waitMs.p50)} | ${s(result.waitMs.p95)} | ${s(result.waitMs.max)} | ${s(result.waitMs.mean)} |`);
    console.log(`\nSVG: ${result.svg.status}${'error' in result.svg && result.svg.error ? ` (${result.svg.error})` : ''} after ${s(result.svg.afterMs)}`);
    console.log(JSON.stringify(result));
  } finally {
    await bench.close();
    if (REDIS) await dropKeys(prefix);
  }
}

/** The run's queue keys (Redis is shared with other runs and tests). */
async function dropKeys(prefix: string) {
  const redis = new Redis(process.env.REDIS_URL!);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

if (require.main === module)
  main().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
