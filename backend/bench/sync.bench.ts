/**
 * Order sync of 1,000 WooCommerce orders (2 items each) through the real app: the Sync
 * orders call, the job on the job runner, paging through the local fake store (100 per
 * page, as WooCommerce allows), the batched upserts. Three runs: the first sync (all new),
 * a full re-sync (all present: must add nothing) and an incremental sync (nothing changed).
 * Needs PostgreSQL (DATABASE_URL); uses Bull when REDIS_URL is set, in-process otherwise.
 */
import { DataSource } from 'typeorm';
import { hashPassword } from '../src/common/password';
import { FakeWooCommerce, wooOrder } from '../test/fakes/woocommerce.fake';
import { BENCH_SELLER, loginBenchSeller, ORIGIN, startBenchApp } from './bench-app';

const ORDERS = Number(process.env.SYNC_ORDERS ?? 1000);

async function main() {
  const woo = await new FakeWooCommerce().start();
  const now = Date.now();
  woo.orders = Array.from({ length: ORDERS }, (_, k) =>
    wooOrder({
      id: 1 + k,
      created: new Date(now - (k % 25) * 86_400_000),
      items: [
        { id: 10_000 + k, name: `Design ${k} - A3`, sku: `SKU-${k}`, size: 'A3', quantity: 1 + (k % 3), upload: `${woo.baseUrl}/wp-content/uploads/product_addons_uploads/x/${k}.png` },
        { id: 20_000 + k, name: `Design ${k} back - A4`, sku: `SKU-${k}-B`, size: 'A4' },
      ],
    }),
  );
  const { app, base, close } = await startBenchApp('gs_bench_sync', {
    SHOPS_ALLOW_PRIVATE_URLS: 'true',
    ORDER_SYNC_INTERVAL_MINUTES: '0',
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, QUEUE_PREFIX: `gs_bench_sync_${Date.now()}` } : {}),
  });
  const db = app.get(DataSource);
  try {
    await db.query(
      `INSERT INTO users (first_name, last_name, username, email, password_hash, email_verified_at) VALUES ('Bench', 'Seller', 'benchseller', $1, $2, now())`,
      [BENCH_SELLER.email, await hashPassword(BENCH_SELLER.password)],
    );
    const cookie = await loginBenchSeller(base);
    const headers = { Cookie: cookie, Origin: ORIGIN, 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' };
    const created = await fetch(`${base}/api/integrations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Bench shop', type: 'WordPress', keys: [{ key: 'baseUrl', value: woo.baseUrl }, { key: 'consumerKey', value: woo.consumerKey }, { key: 'consumerSecret', value: woo.consumerSecret }] }),
    });
    const id = (await created.json()).data._id;
    const run = async (label: string) => {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/integrations/${id}/orders`, { headers });
      if (res.status !== 200) throw new Error(`sync: ${res.status} ${await res.text()}`);
      for (;;) {
        const i = (await (await fetch(`${base}/api/integrations/${id}`, { headers })).json()).data;
        if (i.syncStatus === 'done') break;
        if (i.syncStatus === 'failed') throw new Error(`sync failed: ${i.syncError}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const ms = performance.now() - t0;
      const [c] = await db.query(`SELECT (SELECT count(*)::int FROM orders) AS orders, (SELECT count(*)::int FROM order_items) AS items`);
      console.log(`${label.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms  ${((ORDERS / ms) * 1000).toFixed(0).padStart(6)} orders/s   stored: ${c.orders} orders, ${c.items} items`);
      return c;
    };
    console.log(`Order sync, ${ORDERS} WooCommerce orders × 2 items, ${process.env.REDIS_URL ? 'Bull on Redis' : 'in-process jobs'}`);
    await run('first sync (all new)');
    await db.query(`UPDATE integrations SET last_sync = NULL WHERE id = $1`, [id]);
    const again = await run('full re-sync (all already stored)');
    if (again.orders !== ORDERS || again.items !== ORDERS * 2) throw new Error('re-sync created duplicates');
    await run('incremental sync (nothing changed)');
    console.log('re-sync duplicate-free: yes');
  } finally {
    await close();
    await woo.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
