/**
 * `npm run bench:pipeline`: prints per hour through the real job pipeline (HTTP request, Bull
 * queue, the print job's layout in the CPU pool, render, store) on this machine, for a shop's
 * mix: prints of 60 copies (PIPE_COPIES) of realistic artwork (bench/artwork.ts: 3–8 designs
 * each, uploaded through the API, so their ink masks are measured at upload), half nested by
 * true shape and half as rectangles, with the product's sheet settings otherwise.
 *
 * The prints run in batches, one batch per arm, one seller per app:
 * - "product": an app with the product's defaults (PRINT_JOB_CONCURRENCY, threads per layout
 *   as the pool's load allows, a true-shape layout stops once it has converged);
 * - "serial": the scheduling the product had before: a second app with one print at a time
 *   (PRINT_JOB_CONCURRENCY 1), every true-shape layout on PRINT_LAYOUT_THREADS threads and
 *   run to its whole budget — the baseline the product is measured against;
 * - "budget": the product's app with true-shape layouts run to their budget (`converge: false`);
 * - "scaled" (with PIPE_SCALE): the product converging with that share of the true-shape budget.
 * Arms alternate round by round (PIPE_ROUNDS, default 2: A B, then B A), so all see the same
 * load. A batch's prints are all submitted at once and the batch's time runs from the first
 * request to the last print Completed; prints per hour = prints / that time.
 *
 *   npm run bench:pipeline     (needs the local PostgreSQL and Redis, like the e2e tests)
 *   PIPE_ORDERS=4 PIPE_ROUNDS=2 PIPE_COPIES=60 PIPE_ARMS=serial,product[,budget][,scaled] PIPE_SCALE=0.5
 */
import 'reflect-metadata';
import Bull from 'bull';
import passport from 'passport';
import { JwtStrategy } from '../src/auth/jwt.strategy';
import { CpuPool } from '../src/cpu/cpu-pool';
import { PRINT_ENGINE, PrintEngine, workerEngine } from '../src/prints/engine.adapter';
import { addSize, setCredits, waitDone, waitFor } from '../test/prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from '../test/utils/create-test-app';
import { REDIS_URL } from '../test/utils/test-env';
import { artworkOrders, artworkPng } from './artwork';

const ORDERS = Number(process.env.PIPE_ORDERS ?? 4);
const ROUNDS = Number(process.env.PIPE_ROUNDS ?? 2);
const COPIES = Number(process.env.PIPE_COPIES ?? 60);
const SCALE = process.env.PIPE_SCALE ? Number(process.env.PIPE_SCALE) : undefined;
const ARMS = (process.env.PIPE_ARMS ?? `serial,product${SCALE !== undefined ? ',scaled' : ''}`).split(',').filter(Boolean) as Arm[];

type Arm = 'product' | 'serial' | 'budget' | 'scaled';
type Nesting = 'shape' | 'box';

interface Done {
  arm: Arm;
  order: string;
  nesting: Nesting;
  film: number;
  timings: Record<string, number>;
}

/** Quantities of an order's designs scaled to `copies` in all (each at least 1). */
function scaled(quantities: number[], copies: number): number[] {
  const total = quantities.reduce((a, b) => a + b, 0);
  let left = copies;
  return quantities.map((q, i) => {
    const n = i === quantities.length - 1 ? Math.max(1, left) : Math.max(1, Math.round((copies * q) / total));
    left -= n;
    return n;
  });
}

interface Shop {
  t: TestApp;
  agent: Awaited<ReturnType<typeof signUpAndLogin>>['agent'];
  items: Array<{ name: string; items: Array<{ imageId: string; sizeId: string; quantity: number }> }>;
  queue: Bull.Queue;
  /** The engine the job's layouts go to for the next batch. */
  use: (e: PrintEngine) => void;
  engines: { converged: PrintEngine; budget: PrintEngine };
}

/** An app with one seller whose designs are uploaded, as a seller uploads them (the upload measures trim and ink mask). */
async function openShop(env: Record<string, string>): Promise<Shop> {
  const t = await createTestApp(env);
  const admin = await adminAgent(t);
  const s = await signUpAndLogin(t, 'pipeline');
  await setCredits(t, admin, s.user._id, 100000);
  const items: Shop['items'] = [];
  const sizes = new Map<number, string>();
  for (const order of artworkOrders(ORDERS)) {
    const req = s.agent.post('/api/images/bulk-upload');
    for (const d of order.designs) req.attach('files', await artworkPng(d.art), `${d.id}.png`);
    const uploaded = (await req.expect(201)).body.data as Array<{ _id: string; name: string }>;
    for (const u of uploaded)
      await waitFor(async () => {
        const d = (await s.agent.get(`/api/images/${u._id}`).expect(200)).body.data;
        if (d.status === 'failed') throw new Error(`upload ${u.name} failed`);
        return d.status === 'ready' ? d : null;
      });
    const quantities = scaled(
      order.designs.map((d) => d.quantity),
      COPIES,
    );
    const list = [];
    for (const [k, d] of order.designs.entries()) {
      if (!sizes.has(d.width)) sizes.set(d.width, (await addSize(t, s.user._id, `${d.width} in`, d.width))._id);
      const u = uploaded.find((x) => x.name === d.id || x.name === `${d.id}.png`)!;
      list.push({ imageId: u._id, sizeId: sizes.get(d.width)!, quantity: quantities[k] });
    }
    items.push({ name: order.name, items: list });
  }
  // the arm switch: the job's engine object, its layout taken from the product's engine or from
  // one whose true-shape layouts run to their budget (same CPU pool, same threads rule)
  const engine = t.app.get<PrintEngine>(PRINT_ENGINE);
  const pool = t.app.get(CpuPool);
  const engines = {
    converged: workerEngine(pool, t.config.uploads.maxPixels, t.config.prints.layoutThreads, true),
    budget: workerEngine(pool, t.config.uploads.maxPixels, t.config.prints.layoutThreads, false),
  };
  let current = engines.converged;
  engine.layout = (...a) => current.layout(...a);
  const queue = new Bull('prints', REDIS_URL, { prefix: t.config.redis.prefix });
  return { t, agent: s.agent, items, queue, engines, use: (e) => (current = e) };
}

async function main() {
  const product = await openShop({});
  // the old scheduling: one print at a time, so the pool is idle when a layout starts and
  // every layout gets PRINT_LAYOUT_THREADS threads, as before
  const serial = ARMS.includes('serial') ? await openShop({ PRINT_JOB_CONCURRENCY: '1' }) : null;
  try {
    const converged = product.engines.converged;
    const setups: Record<Arm, () => Shop> = {
      product: () => (product.use(converged), product),
      budget: () => (product.use(product.engines.budget), product),
      scaled: () => (product.use({ ...converged, layout: (d, st, ms, o) => converged.layout(d, st, st.nesting === 'shape' ? Math.round(ms * (SCALE ?? 1)) : ms, o) }), product),
      serial: () => (serial!.use(serial!.engines.budget), serial!),
    };
    const results: Done[] = [];
    const batches: Array<{ arm: Arm; prints: number; ms: number }> = [];
    const runBatch = async (which: Arm) => {
      const shop = setups[which]();
      // passport keeps one strategy per name for the whole process, and each app registers its
      // own: the app whose batch runs gets its sessions checked against its own database
      passport.use('jwt', shop.t.app.get(JwtStrategy));
      const { items, queue: q } = shop;
      const agent = shop.agent;
      const created: Array<{ id: string; order: string; nesting: Nesting }> = [];
      for (const o of items)
        for (const nesting of ['shape', 'box'] as const) created.push({ id: (await agent.post('/api/print').send({ printItems: o.items }).expect(201)).body.data._id, order: o.name, nesting });
      const t0 = performance.now();
      for (const c of created) await agent.post(`/api/print/${c.id}/process`).send({ settings: { nesting: c.nesting } }).expect(201);
      for (const c of created) {
        const done = await waitDone(agent, c.id, 60 * 60_000);
        if (done.status !== 'Completed') throw new Error(`print ended ${done.status}: ${done.error}`);
        const film = done.fileId
          .filter((f: any, i: number, all: any[]) => all.findIndex((g) => g.sheet === f.sheet) === i)
          .reduce((a: number, f: any) => a + f.lengthIn, 0);
        const job = await waitFor(async () => {
          const j = await q.getJob(`print:${c.id}:1`);
          return j && (await j.getState()) === 'completed' ? j : null;
        });
        results.push({ arm: which, order: c.order, nesting: c.nesting, film, timings: job.returnvalue?.timingsMs ?? {} });
      }
      const ms = performance.now() - t0;
      batches.push({ arm: which, prints: created.length, ms });
      console.log(`batch ${batches.length} (${which}): ${created.length} prints in ${(ms / 1000).toFixed(1)} s = ${Math.round((created.length * 3600_000) / ms)} prints/hour`);
    };
    const order = ARMS;
    const about = (shop: Shop) => `job concurrency ${shop.t.config.prints.jobConcurrency}, CPU workers ${shop.t.config.cpu.workers}, layout threads up to ${shop.t.config.prints.layoutThreads}`;
    console.log(
      `## pipeline: ${ORDERS} orders × (shape, box) of ${COPIES} copies per batch, ${ROUNDS} round(s)${SCALE !== undefined ? `, scaled arm: ${SCALE} of the true-shape budget` : ''}; product: ${about(product)}${serial ? `; serial: ${about(serial)}` : ''}`,
    );
    for (let r = 0; r < ROUNDS; r++) for (const a of r % 2 ? [...order].reverse() : order) await runBatch(a);

    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    console.log(`\n${'arm'.padEnd(10)} ${'prints/h'.padStart(8)}  ${'shape film in'.padStart(13)} ${'box film in'.padStart(11)}  ${'shape layout s'.padStart(14)} ${'shape render s'.padStart(14)} ${'box layout s'.padStart(12)} ${'box render s'.padStart(12)}`);
    const perHour: Partial<Record<Arm, number>> = {};
    const film: Partial<Record<Arm, number>> = {};
    for (const a of order) {
      const bs = batches.filter((b) => b.arm === a);
      perHour[a] = (bs.reduce((x, b) => x + b.prints, 0) * 3600_000) / bs.reduce((x, b) => x + b.ms, 0);
      const rs = results.filter((x) => x.arm === a);
      const of = (n: Nesting) => rs.filter((x) => x.nesting === n);
      film[a] = mean(of('shape').map((x) => x.film));
      console.log(
        `${a.padEnd(10)} ${perHour[a]!.toFixed(0).padStart(8)}  ${film[a]!.toFixed(2).padStart(13)} ${mean(of('box').map((x) => x.film)).toFixed(2).padStart(11)}  ${(mean(of('shape').map((x) => x.timings.layout ?? 0)) / 1000).toFixed(1).padStart(14)} ${(mean(of('shape').map((x) => x.timings.render ?? 0)) / 1000).toFixed(1).padStart(14)} ${(mean(of('box').map((x) => x.timings.layout ?? 0)) / 1000).toFixed(1).padStart(12)} ${(mean(of('box').map((x) => x.timings.render ?? 0)) / 1000).toFixed(1).padStart(12)}`,
      );
    }
    console.log('\nfilm per print (in), per arm in batch order:');
    for (const o of product.items)
      for (const n of ['shape', 'box'] as const)
        console.log(`  ${o.name} ${n.padEnd(5)} ${order.map((a) => `${a}: ${results.filter((x) => x.arm === a && x.order === o.name && x.nesting === n).map((x) => x.film.toFixed(2)).join(', ')}`).join('   ')}`);
    const base: Arm | undefined = order.includes('serial') ? 'serial' : order.includes('budget') ? 'budget' : undefined;
    for (const a of order)
      if (base && a !== base)
        console.log(
          `\n${a} / ${base}: ${(perHour[a]! / perHour[base]!).toFixed(2)}x prints per hour; true-shape film ${((100 * (film[a]! - film[base]!)) / film[base]!).toFixed(2)} % (mean per shape print)`,
        );
  } finally {
    for (const shop of [product, serial]) {
      await shop?.queue.close();
      await shop?.t.close();
    }
  }
}

// Exits once the table is printed: a handle the test app leaves open would keep a piped run waiting.
void main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
