/**
 * Production batching of shop orders through the real app: ORDERS orders with ITEMS items of
 * mixed irregular artwork (bench/artwork.ts) in the fake WooCommerce store, synced, batched
 * by "Batch now" into 22 in sheets with true-shape nesting, order labels and auto-process,
 * and rendered. Reports, in one run:
 *   - the film of the batches against each order laid out on its own sheet (what a seller
 *     without batching prints) and against the ink-area bound (BATCH_BOUND_ONLY=1 prints
 *     only the bound, without the app);
 *   - the film spent on labels (each batch laid out again without them, same engine);
 *   - the time from "Batch now" to every file ready;
 *   - the exactly-once check: every order item in exactly one Completed batch.
 * Needs PostgreSQL (DATABASE_URL); uses Bull when REDIS_URL is set, in-process otherwise.
 * Size: BATCH_ORDERS (400), BATCH_ITEMS (1000), BATCH_DESIGNS (48), BATCH_DPI (100: film
 * lengths do not depend on it, render time does), BATCH_MAX_COPIES (per batch, 500),
 * BATCH_SHEET_LENGTH (200 in), BATCH_LAYOUT_MS (baseline layouts' time limit per layout, 2000).
 */
import { DataSource } from 'typeorm';
import { hashPassword } from '../src/common/password';
import { labelSpace, orderLabelText } from '../src/gangsheet';
import { Rng } from '../src/gangsheet/pack/rng';
import { LayoutDesign, layoutSheets } from '../src/gangsheet/pack/layout';
import { FakeWooCommerce, wooOrder } from '../test/fakes/woocommerce.fake';
import { Artwork, artworkPng, grownInkArea, KINDS, makeArtwork } from './artwork';
import { BENCH_SELLER, loginBenchSeller, ORIGIN, startBenchApp } from './bench-app';

const env = (k: string, d: number) => Number(process.env[k] ?? d);
const ORDERS = env('BATCH_ORDERS', 400);
const ITEMS = Math.max(ORDERS, env('BATCH_ITEMS', 1000));
const DESIGNS = env('BATCH_DESIGNS', 48);
const DPI = env('BATCH_DPI', 100);
const MAX_COPIES = env('BATCH_MAX_COPIES', 500);
const SHEET_LENGTH = env('BATCH_SHEET_LENGTH', 200);
const LAYOUT_MS = env('BATCH_LAYOUT_MS', 2000);
const SIZES: Array<[string, number]> = [['XS', 2], ['S', 3], ['M', 4.5], ['L', 6], ['XL', 8.5], ['Back', 11]];
const SHEET = { width: 22, maxLength: SHEET_LENGTH, gap: 0.25, margin: 0.25, dpi: DPI, rotate: true, nesting: 'shape' as const };

async function main() {
  const rng = new Rng(31);
  const woo = await new FakeWooCommerce().start();
  const arts: Artwork[] = [];
  for (let d = 0; d < DESIGNS; d++) {
    const art = makeArtwork(KINDS[d % KINDS.length], rng, 600);
    arts.push(art);
    woo.files.set(`/wp-content/uploads/designs/art-${d}.png`, { type: 'image/png', body: await artworkPng(art) });
  }
  const lines: Array<{ d: number; width: number; quantity: number }> = [];
  const now = Date.now();
  let itemNo = 0;
  woo.orders = Array.from({ length: ORDERS }, (_, k) => {
    // ITEMS spread over the orders: every order 1+, the rest at random
    const count = Math.floor(ITEMS / ORDERS) + (k < ITEMS % ORDERS ? 1 : 0);
    return wooOrder({
      id: 5000 + k,
      created: new Date(now - (ORDERS - k) * 60_000),
      items: Array.from({ length: count }, () => {
        const [size] = SIZES[rng.int(SIZES.length)];
        const d = rng.int(DESIGNS);
        itemNo++;
        const quantity = rng.int(4) === 0 ? 2 : 1;
        lines.push({ d, width: SIZES.find(([n]) => n === size)![1], quantity });
        return { id: 100_000 + itemNo, name: `Transfer ${d} - ${size}`, sku: `ART-${d}`, size, quantity, upload: `${woo.baseUrl}/wp-content/uploads/designs/art-${d}.png` };
      }),
    });
  });
  // The ink-area bound: copies keeping the gap have disjoint inks grown by half of it, all on
  // film as wide as the sheet between its margins plus the gap (see grownInkArea).
  const grown = new Map<string, number>();
  let inkArea = 0;
  for (const l of lines) {
    const key = `${l.d}:${l.width}`;
    if (!grown.has(key)) grown.set(key, await grownInkArea(arts[l.d], l.width, SHEET.gap / 2));
    inkArea += l.quantity * grown.get(key)!;
  }
  const inkBound = inkArea / (SHEET.width - 2 * SHEET.margin + SHEET.gap) - SHEET.gap;
  if (process.env.BATCH_BOUND_ONLY) {
    console.log(`ink-area bound of ${lines.reduce((a, l) => a + l.quantity, 0)} copies: ${inkBound.toFixed(0)} in`);
    await woo.stop();
    return;
  }
  const { app, base, close } = await startBenchApp('gs_bench_batch', {
    SHOPS_ALLOW_PRIVATE_URLS: 'true',
    ORDER_SYNC_INTERVAL_MINUTES: '0',
    PRODUCTION_TICK_SECONDS: '0',
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, QUEUE_PREFIX: `gs_bench_batch_${Date.now()}` } : {}),
  });
  const db = app.get(DataSource);
  try {
    await db.query(
      `INSERT INTO users (first_name, last_name, username, email, password_hash, email_verified_at, available_credits) VALUES ('Bench', 'Seller', 'benchseller', $1, $2, now(), 1000000)`,
      [BENCH_SELLER.email, await hashPassword(BENCH_SELLER.password)],
    );
    const cookie = await loginBenchSeller(base);
    const headers = { Cookie: cookie, Origin: ORIGIN, 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' };
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = await res.json().catch(() => null);
      if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    for (const [name, value] of SIZES) await call('POST', '/sizes', { name, value });
    const shop = (await call('POST', '/integrations', { name: 'Bench shop', type: 'WordPress', keys: [{ key: 'baseUrl', value: woo.baseUrl }, { key: 'consumerKey', value: woo.consumerKey }, { key: 'consumerSecret', value: woo.consumerSecret }] })).data._id;
    await call('GET', `/integrations/${shop}/orders`);
    for (;;) {
      const i = (await call('GET', `/integrations/${shop}`)).data;
      if (i.syncStatus === 'done') break;
      if (i.syncStatus === 'failed') throw new Error(`sync failed: ${i.syncError}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await call('PUT', '/production/settings', { sheet: SHEET, autoProcess: true, labels: true, maxCopiesPerBatch: MAX_COPIES });
    const q = await call('GET', '/production/queue?limit=1');
    console.log(`Production batching: ${ORDERS} orders, ${ITEMS} items, ${q.summary.readyCopies} copies of ${DESIGNS} artworks; 22 in film, sheets up to ${SHEET_LENGTH} in, true shape, ${DPI} DPI, labels on, ≤ ${MAX_COPIES} copies per batch; ${process.env.REDIS_URL ? 'Bull on Redis' : 'in-process jobs'}`);

    // "Batch now" → every batch Completed
    const t0 = performance.now();
    const made = (await call('POST', '/production/batches')).data as Array<{ printId: string; copies: number; status: string }>;
    const tBatched = performance.now();
    const ids = made.map((b) => b.printId);
    for (;;) {
      const rows: Array<{ status: string }> = await db.query(`SELECT status FROM prints WHERE id = ANY($1::uuid[])`, [ids]);
      if (rows.every((r) => r.status !== 'Processing')) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const tDone = performance.now();
    const prints: Array<{ id: string; status: string; error: string | null; files: Array<{ lengthIn: number }> }> = await db.query(`SELECT id, status, error, files FROM prints WHERE id = ANY($1::uuid[])`, [ids]);
    const failed = prints.filter((p) => p.status !== 'Completed');
    if (failed.length) console.log(`NOT completed: ${failed.map((p) => `${p.id} ${p.status} ${p.error}`).join('; ')}`);
    const batchedFilm = prints.flatMap((p) => p.files).reduce((a, f) => a + f.lengthIn, 0);
    const sheets = prints.flatMap((p) => p.files).length;

    // Every order item in exactly one Completed batch
    const [once] = await db.query(
      `SELECT (SELECT count(*)::int FROM order_items) AS items,
              (SELECT count(DISTINCT pi.order_item_id)::int FROM print_items pi JOIN prints p ON p.id = pi.print_id WHERE p.status = 'Completed' AND p.type = 'Batch') AS in_completed,
              (SELECT count(*)::int FROM (SELECT pi.order_item_id FROM print_items pi WHERE pi.order_item_id IS NOT NULL GROUP BY 1 HAVING count(*) > 1) x) AS twice`,
    );

    // The same copies laid out again by the engine: each order alone, each batch without labels
    const rows: Array<{ print_id: string; order_id: string; number: string; item: string; w: number; h: number; width: number; quantity: number; mask: any }> = await db.query(
      `SELECT pi.print_id, oi.order_id, o.number, pi.id AS item, (img.trim->>'width')::float8 AS w, (img.trim->>'height')::float8 AS h, s.value::float8 AS width, pi.quantity, img.mask
         FROM print_items pi JOIN order_items oi ON oi.id = pi.order_item_id JOIN orders o ON o.id = oi.order_id
         JOIN images img ON img.id = pi.image_id JOIN sizes s ON s.id = pi.size_id
        WHERE pi.print_id = ANY($1::uuid[])`,
      [ids],
    );
    const design = (r: (typeof rows)[number], labels: boolean): LayoutDesign => ({
      id: r.item,
      widthPx: r.w,
      heightPx: r.h,
      width: r.width,
      quantity: r.quantity,
      mask: r.mask ?? undefined,
      ...(labels ? { label: labelSpace(Array.from({ length: r.quantity }, (_, i) => orderLabelText(r.number, i, r.quantity))) } : {}),
    });
    const group = <K extends string>(key: (r: (typeof rows)[number]) => K) => {
      const m = new Map<K, typeof rows>();
      for (const r of rows) m.set(key(r), [...(m.get(key(r)) ?? []), r]);
      return [...m.values()];
    };
    const film = (designs: LayoutDesign[]) => layoutSheets(designs, SHEET, { timeLimitMs: LAYOUT_MS }).totalLength;
    let ownFilm = 0;
    let ownLabelled = 0;
    const orders = group((r) => r.order_id);
    for (const o of orders) {
      ownFilm += film(o.map((r) => design(r, false)));
      ownLabelled += film(o.map((r) => design(r, true)));
    }
    let relaidWith = 0;
    let relaidWithout = 0;
    for (const b of group((r) => r.print_id)) {
      relaidWith += film(b.map((r) => design(r, true)));
      relaidWithout += film(b.map((r) => design(r, false)));
    }
    const printedArea = rows.reduce((a, r) => a + r.quantity * r.width * ((r.width * r.h) / r.w), 0);
    const boxBound = printedArea / SHEET.width;

    const inch = (v: number) => `${v.toFixed(0).padStart(6)} in`;
    const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(0).padStart(4)} %`;
    console.log('');
    console.log(`| measure | film | vs batched |`);
    console.log(`| --- | ---: | ---: |`);
    console.log(`| batched (rendered files, labels on) | ${inch(batchedFilm)} | 100 % |`);
    console.log(`| each order on its own sheet, labels on | ${inch(ownLabelled)} | ${pct(ownLabelled, batchedFilm)} |`);
    console.log(`| each order on its own sheet, no labels | ${inch(ownFilm)} | ${pct(ownFilm, batchedFilm)} |`);
    console.log(`| ink-area bound (inks grown by half the gap, no labels) | ${inch(inkBound)} | ${pct(inkBound, batchedFilm)} |`);
    console.log(`| trimmed boxes' area / film width (rectangles' bound; true shape goes below it) | ${inch(boxBound)} | ${pct(boxBound, batchedFilm)} |`);
    console.log(`| labels: batches laid out again with / without | ${inch(relaidWith)} / ${inch(relaidWithout).trim()} | +${(((relaidWith - relaidWithout) / relaidWithout) * 100).toFixed(1)} % |`);
    console.log('');
    console.log(`batches: ${made.length} (${made.map((b) => b.copies).join(', ')} copies), sheets: ${sheets}, orders: ${orders.length}`);
    console.log(`Batch now answered in ${((tBatched - t0) / 1000).toFixed(1)} s (design downloads and batches made); all files ready ${((tDone - t0) / 1000).toFixed(1)} s after the click`);
    console.log(`exactly once: ${once.items} order items, ${once.in_completed} in a Completed batch, ${once.twice} in more than one print → ${once.items === once.in_completed && once.twice === 0 ? 'yes' : 'NO'}`);
  } finally {
    await close();
    await woo.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
