import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { FakeWooCommerce, wooOrder } from './fakes/woocommerce.fake';
import { transparentPng } from './fixtures/images';
import { RefetchOpenOrdersShipping1765001300000 } from '../src/database/migrations/1765001300000-RefetchOpenOrdersShipping';
import { OrderSyncService } from '../src/orders/order-sync.service';
import { OrdersService } from '../src/orders/orders.service';
import { RealtimeService } from '../src/realtime/realtime.service';
import { createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';
import { shopEnv, syncAndWait, wooKeys } from './utils/shops';

const DAY = 86_400_000;
async function waitUntil(fn: () => Promise<boolean>, ms = 30_000) {
  const until = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Orders (e2e)', () => {
  let t: TestApp;
  let woo: FakeWooCommerce;
  let seller: Awaited<ReturnType<typeof signUpAndLogin>>;
  let other: Awaited<ReturnType<typeof signUpAndLogin>>;
  let wooId: string;
  let db: DataSource;
  beforeAll(async () => {
    woo = await new FakeWooCommerce().start();
    // 60 KB: the "too large" design below is over it, the real PNGs are far under
    t = await createTestApp(shopEnv(woo, null, { DESIGN_DOWNLOAD_MAX_MB: '0.06' }));
    db = t.app.get(DataSource);
    seller = await signUpAndLogin(t, 'orderseller');
    other = await signUpAndLogin(t, 'orderother');
    wooId = (await seller.agent.post('/api/integrations').send({ name: 'Woo', type: 'WordPress', keys: wooKeys(woo) }).expect(201)).body.data._id;
  });
  afterAll(async () => {
    await t.close();
    await woo.stop();
  });

  const orders = async (qs = '') => {
    const q = new URLSearchParams(qs);
    if (!q.has('limit')) q.set('limit', '100');
    return (await seller.agent.get(`/api/orders?${q}`).expect(200)).body;
  };

  it('first sync: the configured window (30 days), buyer info, totals, items with size, SKU and design URL', async () => {
    const now = Date.now();
    woo.orders = [
      wooOrder({ id: 1, created: new Date(now - 40 * DAY) }), // outside the first-sync window
      wooOrder({ id: 2, created: new Date(now - 2 * DAY), items: [{ id: 21, name: 'Photo Print - A3', sku: 'PHOTO-A3', size: 'A3', quantity: 2, upload: `${woo.baseUrl}/wp-content/uploads/product_addons_uploads/abc/holiday.png` }] }),
      wooOrder({ id: 3, created: new Date(now - DAY) }),
    ];
    const emit = jest.spyOn(t.app.get(RealtimeService), 'emit');
    const r = await syncAndWait(seller.agent, wooId);
    expect(r.started).toEqual({ message: 'Order sync started', status: 'queued' });
    await new Promise((res) => setTimeout(res, 200));
    const events = emit.mock.calls.filter((c) => c[0] === seller.user._id && c[1] === 'order-sync').map((c) => c[2] as any);
    emit.mockRestore();
    expect(events[0]).toEqual({ integrationId: wooId, status: 'running', orders: 0 });
    expect(events.at(-1)).toMatchObject({ integrationId: wooId, status: 'done', orders: 2, created: 2, updated: 0 });
    expect(r.integration).toMatchObject({ syncStatus: 'done', syncError: null });
    expect(r.integration.lastSync).toBeTruthy();
    const list = await orders();
    expect(list.pagination).toEqual({ totalDocuments: 2, totalPages: 1 });
    expect(list.data.map((o: any) => o.orderId)).toEqual(['3', '2']);
    // one order.synced event per imported order (what a webhook endpoint would be sent)
    const published = (await seller.agent.get('/api/events?type=order.synced').expect(200)).body.data.map((e: any) => e.data);
    expect(published.map((d: any) => d.orderId).sort()).toEqual(list.data.map((o: any) => o._id).sort());
    expect(published[0]).toMatchObject({ source: 'WordPress', printId: null });
    const o2 = list.data[1];
    expect(o2).toMatchObject({
      integrationId: { _id: wooId, type: 'WordPress', name: 'Woo' },
      buyerInfo: { name: 'Lena Maier', email: 'lena.maier@example.com', phone: '+43 660 1234567', address: 'Bahnhofstr. 5, Graz, 8010', country: 'AT' },
      total: { amount: 37.73, currency: 'EUR' },
      status: 'Pending',
      shopStatus: 'processing',
    });
    expect(o2.orderItems).toEqual([
      expect.objectContaining({ orderId: '2', reference: '21', title: 'Photo Print - A3', sku: 'PHOTO-A3', size: 'A3', quantity: 2, price: 16.81, status: 'Pending', designUrl: `${woo.baseUrl}/wp-content/uploads/product_addons_uploads/abc/holiday.png` }),
    ]);
    expect(o2.orderItems[0].attributes[0]).toMatchObject({ fileUrl: o2.orderItems[0].designUrl });
  });

  it('incremental sync: only changed orders are asked for; a cancelled order is updated, a new one added, nothing duplicated', async () => {
    const before = (await seller.agent.get(`/api/integrations/${wooId}`)).body.data.lastSync;
    const o3 = woo.orders.find((o) => o.id === 3)!;
    o3.status = 'cancelled';
    o3.date_modified_gmt = new Date().toISOString().replace(/\.\d{3}Z$/, '');
    woo.orders.push(wooOrder({ id: 4 }));
    woo.log = [];
    await syncAndWait(seller.agent, wooId);
    const call = woo.log.find((l) => l.url.startsWith('/wp-json/wc/v3/orders'))!;
    const modifiedAfter = new URL(call.url, woo.baseUrl).searchParams.get('modified_after')!;
    expect(new Date(`${modifiedAfter}Z`).getTime()).toBeLessThan(new Date(before).getTime());
    expect(new URL(call.url, woo.baseUrl).searchParams.get('after')).toBeNull();
    const list = await orders();
    expect(list.pagination.totalDocuments).toBe(3);
    expect(list.data.find((o: any) => o.orderId === '3').shopStatus).toBe('cancelled');
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM order_items`);
    expect(n).toBe(3);
  });

  it('orders synced before shipping methods were stored: the migration makes the next sync read the open ones again, once', async () => {
    // as on an installation upgraded across 1765000600000: open order 2 and cancelled order 3 without methods or tags
    await db.query(`UPDATE orders SET shipping_methods = '{}', shop_tags = '{}' WHERE integration_id = $1 AND number IN ('2', '3')`, [wooId]);
    const lastSync = async (): Promise<Date> => (await db.query(`SELECT last_sync FROM integrations WHERE id = $1`, [wooId]))[0].last_sync;
    const migrate = async () => {
      const runner = db.createQueryRunner();
      try {
        await new RefetchOpenOrdersShipping1765001300000().up(runner);
      } finally {
        await runner.release();
      }
    };
    const before = await lastSync();
    await migrate();
    const rewound = await lastSync();
    const [{ updated }] = await db.query(`SELECT integration_order_updated_date AS updated FROM orders WHERE integration_id = $1 AND number = '2'`, [wooId]);
    // the next sync starts before the open order's last change in the shop (not before the cancelled one's: closed orders are left)
    expect(rewound.getTime()).toBeLessThan(updated.getTime());
    expect(rewound.getTime()).toBeLessThan(before.getTime());
    woo.log = [];
    await syncAndWait(seller.agent, wooId);
    const call = woo.log.find((l) => l.url.startsWith('/wp-json/wc/v3/orders'))!;
    expect(new Date(`${new URL(call.url, woo.baseUrl).searchParams.get('modified_after')}Z`).getTime()).toBeLessThan(updated.getTime());
    const [two] = await db.query(`SELECT shipping_methods FROM orders WHERE integration_id = $1 AND number = '2'`, [wooId]);
    expect(two.shipping_methods).toEqual(['Flat rate', 'flat_rate']);
    // with every open order's methods stored, running it again moves nothing
    const synced = await lastSync();
    await migrate();
    expect(await lastSync()).toEqual(synced);
  });

  it('the list filters by the shop: open (cancelled and completed there left out) or closed, any case; another word is a 400', async () => {
    // order 3 is cancelled in the shop (above); 4 is completed there, in upper case as a plugin may store it
    const [{ id: four }] = await db.query(`SELECT id FROM orders WHERE number = '4'`);
    await db.query(`UPDATE orders SET shop_status = 'Completed' WHERE id = $1`, [four]);
    const numbers = async (q: string) => {
      const body = (await seller.agent.get(`/api/orders?limit=100&${q}`).expect(200)).body;
      return { numbers: body.data.map((o: any) => o.orderId).sort(), total: body.pagination.totalDocuments };
    };
    expect(await numbers('shop=open')).toEqual({ numbers: ['2'], total: 1 });
    expect(await numbers('shop=closed')).toEqual({ numbers: ['3', '4'], total: 2 });
    expect(await numbers('shop=')).toEqual({ numbers: ['2', '3', '4'], total: 3 });
    const bad = await seller.agent.get('/api/orders?shop=shipped').expect(400);
    expect(bad.body.message).toContain('shop must be one of open, closed');
    await db.query(`UPDATE orders SET shop_status = 'processing' WHERE id = $1`, [four]);
  });

  it('the scheduled sync queues one job per connected shop (deterministic id), which syncs it', async () => {
    const before = (await seller.agent.get(`/api/integrations/${wooId}`)).body.data.lastSync;
    expect(await t.app.get(OrderSyncService).schedule()).toBe(1);
    await waitUntil(async () => (await seller.agent.get(`/api/integrations/${wooId}`)).body.data.lastSync > before);
    expect((await seller.agent.get(`/api/integrations/${wooId}`)).body.data.syncStatus).toBe('done');
  });

  it('1,000 orders re-synced: no duplicates', async () => {
    const now = Date.now();
    // two seconds older than any order made after this test: dates have whole seconds, and
    // orders created in the same second as these would tie with 50 of them in the newest-first list
    woo.orders = Array.from({ length: 1000 }, (_, k) => wooOrder({ id: 10_000 + k, created: new Date(now - (k % 20) * DAY - 2000), items: [{ id: 100_000 + k, name: `Design ${k}`, sku: `SKU-${k}`, size: 'A3' }, { id: 200_000 + k, name: `Design ${k} back`, size: 'A4' }] }));
    await db.query(`UPDATE integrations SET last_sync = NULL WHERE id = $1`, [wooId]);
    await syncAndWait(seller.agent, wooId, 120_000);
    await db.query(`UPDATE integrations SET last_sync = NULL WHERE id = $1`, [wooId]);
    await syncAndWait(seller.agent, wooId, 120_000);
    const [c] = await db.query(
      `SELECT count(*)::int AS orders, count(DISTINCT external_id)::int AS distinct_orders,
              (SELECT count(*)::int FROM order_items oi JOIN orders o2 ON o2.id = oi.order_id WHERE o2.external_id::int >= 10000) AS items
         FROM orders WHERE integration_id = $1 AND external_id::int >= 10000`,
      [wooId],
    );
    expect(c).toEqual({ orders: 1000, distinct_orders: 1000, items: 2000 });
    expect((await orders('limit=10&page=2')).pagination).toEqual({ totalDocuments: 1003, totalPages: 101 });
  });

  it('GET /api/orders filters: integrationId, status, dates; validation; only the owner\'s orders', async () => {
    expect((await orders(`integrationId=${wooId}&status=Pending&limit=1`)).pagination.totalDocuments).toBe(1003);
    expect((await orders('status=Completed')).pagination.totalDocuments).toBe(0);
    const day = new Date(Date.now() - 2 * DAY).toISOString().slice(0, 10);
    const onDay = await orders(`startDate=${day}&endDate=${day}`);
    expect(onDay.data.length).toBeGreaterThan(0);
    for (const o of onDay.data) expect(o.integrationOrderCreatedDate.slice(0, 10)).toBe(day);
    expect((await seller.agent.get('/api/orders?status=Shipped').expect(400)).body.message).toMatch(/status must be one of Pending, In Draft, Completed, Partially Completed/);
    expect((await other.agent.get('/api/orders').expect(200)).body.pagination.totalDocuments).toBe(0);
    // search: an item's SKU or title, the order number, any case, LIKE characters taken literally
    const bySku = await orders('search=sku-77&limit=50');
    expect(bySku.pagination.totalDocuments).toBe(11); // SKU-77 and SKU-770…779
    for (const o of bySku.data) expect(o.orderItems.some((i: any) => /SKU-77/.test(i.sku))).toBe(true);
    expect((await orders('search=10077')).data.map((o: any) => o.orderId)).toEqual(['10077']);
    expect((await orders(`search=${encodeURIComponent('Design 5 back')}`)).pagination.totalDocuments).toBe(1);
    expect((await orders('search=%25')).pagination.totalDocuments).toBe(0);
    expect((await other.agent.get('/api/orders?search=SKU').expect(200)).body.pagination.totalDocuments).toBe(0);
  });

  describe('orders → print', () => {
    let a3: string;
    let logo: string;
    let items: Record<string, any>;
    beforeAll(async () => {
      a3 = (await seller.agent.post('/api/sizes').send({ name: 'A3', value: 11 }).expect(201)).body.data._id;
      const up = await seller.agent.post('/api/images/bulk-upload').attach('files', await transparentPng(), 'logo-sku.png').expect(201);
      logo = up.body.data[0]._id;
      woo.files.set('/wp-content/uploads/product_addons_uploads/abc/holiday.png', { type: 'image/png', body: await transparentPng() });
      woo.files.set('/wp-content/uploads/product_addons_uploads/abc/notes.png', { type: 'image/png', body: Buffer.from('this is not an image at all') });
      const big = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#000' } })
        .composite([{ input: Buffer.from(Array.from({ length: 400 * 400 * 3 }, (_, i) => (i * 7919) % 251)), raw: { width: 400, height: 400, channels: 3 } }])
        .png({ compressionLevel: 0 })
        .toBuffer();
      woo.files.set('/wp-content/uploads/product_addons_uploads/abc/huge.png', { type: 'image/png', body: big });
      const up2 = (p: string) => `${woo.baseUrl}/wp-content/uploads/product_addons_uploads/abc/${p}`;
      woo.orders = [
        wooOrder({ id: 500, items: [
          { id: 5001, name: 'Design URL', size: 'A3', quantity: 3, upload: up2('holiday.png') },
          { id: 5002, name: 'By SKU', sku: 'LOGO-SKU', size: 'a3 ', quantity: 1 },
          { id: 5003, name: 'No size match', sku: 'LOGO-SKU', size: 'XXL', quantity: 1 },
          { id: 5004, name: 'Not an image', size: 'A3', quantity: 1, upload: up2('notes.png') },
          { id: 5005, name: 'Too large', size: 'A3', quantity: 1, upload: up2('huge.png') },
        ] }),
        wooOrder({ id: 501, items: [{ id: 5011, name: 'Second order', sku: 'LOGO-SKU', size: 'A3', quantity: 1 }] }),
      ];
      await syncAndWait(seller.agent, wooId);
      const list = await orders(`integrationId=${wooId}&limit=5`);
      items = {};
      for (const o of list.data) for (const it of o.orderItems) items[it.reference] = it;
      expect(Object.keys(items)).toEqual(expect.arrayContaining(['5001', '5002', '5003', '5004', '5005', '5011']));
    });

    it('POST /api/orders/review says where each image and size will come from and what is missing', async () => {
      const ids = ['5001', '5002', '5003'].map((r) => items[r]._id);
      const res = await seller.agent.post('/api/orders/review').send({ orderItems: ids }).expect(200);
      expect(res.body.data.map((r: any) => [r.title, r.imageSource, r.sizeName, r.problems])).toEqual([
        ['Design URL', 'designUrl', 'A3', []],
        ['By SKU', 'sku', 'A3', []],
        ['No size match', 'sku', null, ['Size is missing. Please add the missing item.']],
      ]);
      await other.agent.post('/api/orders/review').send({ orderItems: ids }).expect(404);
    });

    let printId: string;
    it('POST /api/orders/print: a WooCommerce draft; matched items get image and size, the others are listed with the reason', async () => {
      const ids = ['5001', '5002', '5003', '5004', '5005'].map((r) => items[r]._id);
      await other.agent.post('/api/orders/print').send({ orderItems: ids }).expect(404);
      const res = await seller.agent.post('/api/orders/print').send({ orderItems: ids }).expect(201);
      expect(res.body).toMatchObject({ type: 'WooCommerce', message: 'Print created successfully. Some items still need an image or a size.' });
      printId = res.body._id;
      const byId = Object.fromEntries(res.body.unresolved.map((u: any) => [u.title, u.problems]));
      expect(Object.keys(byId).sort()).toEqual(['No size match', 'Not an image', 'Too large']);
      expect(byId['No size match']).toEqual(['Size is missing. Please add the missing item.']);
      expect(byId['Not an image'][0]).toMatch(/^The design file is not a usable image: /);
      expect(byId['Not an image'][1]).toBe('Image is missing. Please add the missing item.');
      expect(byId['Too large'][0]).toBe('The design file could not be downloaded: it is larger than 0.1 MB');
      const print = (await seller.agent.get(`/api/print/${printId}`).expect(200)).body.data;
      expect(print).toMatchObject({ type: 'WooCommerce', status: 'In Draft' });
      const pi = Object.fromEntries(print.printItems.map((i: any) => [i.orderItemId, i]));
      expect(pi[items['5001']._id]).toMatchObject({ quantity: 3, sizeId: a3, image: expect.objectContaining({ name: 'holiday' }) });
      expect(pi[items['5002']._id]).toMatchObject({ quantity: 1, sizeId: a3, imageId: logo });
      expect(pi[items['5003']._id]).toMatchObject({ imageId: logo, sizeId: null });
      expect(pi[items['5004']._id]).toMatchObject({ imageId: null, sizeId: a3 });
      expect(print.printItems).toHaveLength(5);
      expect((await seller.agent.get('/api/print?type=WooCommerce').expect(200)).body.pagination.totalDocuments).toBe(1);
    });

    it('each print item names its shop order line (order number, buyer, title, order id) in one query, whatever the number of items', async () => {
      const o500 = (await orders(`integrationId=${wooId}&limit=5`)).data.find((o: any) => o.orderId === '500');
      const line = { orderId: o500._id, orderNumber: '500', buyerName: 'Lena Maier', title: 'Design URL' };
      const read = async (id: string) => {
        const spy = jest.spyOn(db, 'query');
        const body = (await seller.agent.get(`/api/print/${id}`).expect(200)).body.data;
        const n = spy.mock.calls.length;
        spy.mockRestore();
        return { body, queries: n };
      };
      const five = await read(printId);
      const byItem = Object.fromEntries(five.body.printItems.map((i: any) => [i.orderItemId, i.orderLine]));
      expect(byItem[items['5001']._id]).toEqual(line);
      expect(byItem[items['5004']._id]).toEqual({ orderId: o500._id, orderNumber: '500', buyerName: 'Lena Maier', title: 'Not an image' });
      // a print of one order item reads as many queries as one of five
      const single = await seller.agent.post('/api/orders/print').send({ orderItems: [items['5011']._id] }).expect(201);
      const one = await read(single.body._id);
      expect(one.body.printItems[0].orderLine).toMatchObject({ orderNumber: '501', title: 'Second order' });
      expect(five.queries).toBe(one.queries);
      await db.query(`DELETE FROM prints WHERE id = $1`, [single.body._id]);
      // the answers of changes carry it too, and an item added by hand has none
      const itemId = five.body.printItems.find((i: any) => i.orderItemId === items['5001']._id)._id;
      const changed = (await seller.agent.put(`/api/print/${printId}/${itemId}`).send({ quantity: 4 }).expect(200)).body.data;
      expect(changed.printItems.find((i: any) => i._id === itemId).orderLine).toEqual(line);
      // the order the line links to
      const linked = await orders(`id=${o500._id}`);
      expect(linked.data.map((o: any) => o.orderId)).toEqual(['500']);
      expect((await seller.agent.get('/api/orders?id=nope').expect(400)).body.message).toMatch(/Order not found/);
      expect((await other.agent.get(`/api/orders?id=${o500._id}`).expect(200)).body.data).toEqual([]);
      await seller.agent.put(`/api/print/${printId}/${itemId}`).send({ quantity: 3 }).expect(200);
    });

    it('statuses follow the print: In Draft, then Partially Completed / Completed when printed; an item is not printed twice by accident', async () => {
      const list = await orders(`integrationId=${wooId}&limit=5`);
      const o500 = list.data.find((o: any) => o.orderId === '500');
      expect(o500.status).toBe('In Draft');
      expect(o500.orderItems.every((i: any) => i.status === 'In Draft' && i.printIds[0] === printId)).toBe(true);
      // the same item again → 409, saying which
      const again = await seller.agent.post('/api/orders/print').send({ orderItems: [items['5001']._id, items['5011']._id] }).expect(409);
      expect(again.body).toMatchObject({ code: 'order_item_in_print', details: { orderItems: [{ _id: items['5001']._id, printIds: [printId] }] } });
      expect(again.body.message).toMatch(/Some order items are already in a print: "Design URL" \(order 500\)/);
      expect((await orders('status=In Draft')).pagination.totalDocuments).toBe(1);
      // printed (what the processing job sets when it completes)
      await db.query(`UPDATE prints SET status = 'Completed', printed_at = now() WHERE id = $1`, [printId]);
      expect((await orders('status=Completed')).data.map((o: any) => o.orderId)).toEqual(['500']);
      // a second print with order 501's item and, on purpose, one already printed item of order 500
      const second = await seller.agent.post('/api/orders/print').send({ orderItems: [items['5011']._id, items['5001']._id], allowReprint: true }).expect(201);
      const design = (await seller.agent.get(`/api/print/${second.body._id}`).expect(200)).body.data.printItems.find((i: any) => i.orderItemId === items['5001']._id);
      expect(design.imageId).toBe((await seller.agent.get(`/api/print/${printId}`)).body.data.printItems.find((i: any) => i.orderItemId === items['5001']._id).imageId);
      expect((await orders('status=In Draft')).data.map((o: any) => o.orderId)).toEqual(['501']);
      // order 500 split: one item removed from the print before it was printed → Partially Completed
      await db.query(`DELETE FROM print_items WHERE print_id = $1 AND order_item_id = $2`, [printId, items['5005']._id]);
      expect((await orders('status=Partially Completed')).data.map((o: any) => o.orderId)).toEqual(['500']);
      expect(await t.app.get(OrdersService).countsFor(seller.user._id)).toEqual({ pendingOrders: 1003, totalOrders: 1005, completedOrders: 0, totalIntegrations: 1 });
      expect(await t.app.get(OrdersService).countsFor(other.user._id)).toEqual({ pendingOrders: 0, totalOrders: 0, completedOrders: 0, totalIntegrations: 0 });
    });

    it('an imported design is kept once per seller: the same bytes from another order or address reuse the image, also when two imports race', async () => {
      const dir = '/wp-content/uploads/product_addons_uploads';
      const holiday = woo.files.get(`${dir}/abc/holiday.png`)!;
      woo.files.set(`${dir}/xyz/holiday-copy.png`, holiday);
      const fresh = await sharp({ create: { width: 30, height: 20, channels: 4, background: '#c0ffee' } }).png().toBuffer();
      woo.files.set(`${dir}/xyz/fresh.png`, { type: 'image/png', body: fresh });
      woo.files.set(`${dir}/xyz/fresh-again.png`, { type: 'image/png', body: fresh });
      const url = (p: string) => `${woo.baseUrl}${dir}/${p}`;
      woo.orders = [
        wooOrder({ id: 600, items: [{ id: 6001, name: 'Same design, new address', size: 'A3', upload: url('xyz/holiday-copy.png') }, { id: 6002, name: 'Same design, same address', size: 'A3', upload: url('abc/holiday.png') }] }),
        wooOrder({ id: 601, items: [{ id: 6011, name: 'Fresh design', size: 'A3', upload: url('xyz/fresh.png') }] }),
        wooOrder({ id: 602, items: [{ id: 6021, name: 'Fresh design again', size: 'A3', upload: url('xyz/fresh-again.png') }] }),
      ];
      await syncAndWait(seller.agent, wooId);
      const byRef: Record<string, string> = {};
      for (const o of (await orders(`integrationId=${wooId}&limit=10`)).data) for (const it of o.orderItems) byRef[it.reference] = it._id;
      const library = async (userId: string) => (await db.query(`SELECT count(*)::int AS n FROM images WHERE user_id = $1 AND deleted_at IS NULL`, [userId]))[0].n;
      const imageOf = async (printId: string) =>
        Object.fromEntries((await seller.agent.get(`/api/print/${printId}`).expect(200)).body.data.printItems.map((i: any) => [i.orderItemId, i.imageId]));
      const [{ image_id: holidayImage }] = await db.query(`SELECT image_id FROM order_items WHERE id = $1`, [items['5001']._id]);
      const before = await library(seller.user._id);

      const again = await seller.agent.post('/api/orders/print').send({ orderItems: [byRef['6001'], byRef['6002']] }).expect(201);
      expect(again.body.unresolved).toEqual([]);
      expect(await imageOf(again.body._id)).toEqual({ [byRef['6001']]: holidayImage, [byRef['6002']]: holidayImage });
      expect(await library(seller.user._id)).toBe(before);

      // two prints at once, each importing the same new file from its own address: one image
      const [a, b] = await Promise.all([
        seller.agent.post('/api/orders/print').send({ orderItems: [byRef['6011']] }).expect(201),
        seller.agent.post('/api/orders/print').send({ orderItems: [byRef['6021']] }).expect(201),
      ]);
      const imgA = (await imageOf(a.body._id))[byRef['6011']];
      expect(imgA).toBeTruthy();
      expect((await imageOf(b.body._id))[byRef['6021']]).toBe(imgA);
      expect(await library(seller.user._id)).toBe(before + 1);

      // another seller importing the same bytes gets an image of their own
      const otherWoo = (await other.agent.post('/api/integrations').send({ name: 'Woo too', type: 'WordPress', keys: wooKeys(woo) }).expect(201)).body.data._id;
      await syncAndWait(other.agent, otherWoo);
      const theirs = (await other.agent.get(`/api/orders?integrationId=${otherWoo}&limit=10`).expect(200)).body.data.find((o: any) => o.orderId === '600').orderItems[0]._id;
      const print = await other.agent.post('/api/orders/print').send({ orderItems: [theirs] }).expect(201);
      const [own] = (await other.agent.get(`/api/print/${print.body._id}`).expect(200)).body.data.printItems;
      expect(own.imageId).toBeTruthy();
      expect(own.imageId).not.toBe(holidayImage);
      expect(await library(other.user._id)).toBe(1);
    });
  });
});
