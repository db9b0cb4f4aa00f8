import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { FakeWooCommerce, wooOrder } from './fakes/woocommerce.fake';
import { addDesign, addSize, setCredits, waitDone, waitFor } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';
import { shopEnv, syncAndWait, wooKeys } from './utils/shops';
import { Clock } from '../src/production/clock';
import { ProductionService } from '../src/production/production.service';
import { FulfilmentService } from '../src/orders/fulfilment.service';
import { PrintFailureService } from '../src/prints/print-failure.service';
import { WebhooksService } from '../src/webhooks/webhooks.service';

const HOUR = 3_600_000;

describe('Production (e2e)', () => {
  let t: TestApp;
  let woo: FakeWooCommerce;
  let db: DataSource;
  let seller: Awaited<ReturnType<typeof signUpAndLogin>>;
  let other: Awaited<ReturnType<typeof signUpAndLogin>>;
  let admin: any;
  let wooId: string;
  let clock: Clock;
  let production: ProductionService;
  let nextId = 1000;

  beforeAll(async () => {
    woo = await new FakeWooCommerce().start();
    t = await createTestApp(shopEnv(woo, null, { PRODUCTION_TICK_SECONDS: '0' }));
    db = t.app.get(DataSource);
    clock = t.app.get(Clock);
    production = t.app.get(ProductionService);
    seller = await signUpAndLogin(t, 'prodseller');
    other = await signUpAndLogin(t, 'prodother');
    admin = await adminAgent(t);
    wooId = (await seller.agent.post('/api/integrations').send({ name: 'Woo', type: 'WordPress', keys: wooKeys(woo) }).expect(201)).body.data._id;
    await addDesign(t, seller.user._id, { name: 'RED' });
    await addDesign(t, seller.user._id, { name: 'BLUE', width: 400, height: 400 });
    await addDesign(t, seller.user._id, { name: 'HUGE', width: 400, height: 4000, border: 0 });
    await addSize(t, seller.user._id, 'A3', 4);
    await addSize(t, seller.user._id, 'Poster', 30);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t.close();
    await woo.stop();
  });

  /** Adds orders to the fake shop (each `items` a list of [sku, size, quantity]) and syncs them. */
  const addOrders = async (
    orders: Array<{ items: Array<[string, string, number]>; ageHours?: number; upload?: string; rush?: boolean; shipping?: { title: string; id: string }; meta?: Array<{ key: string; value: unknown }> }>,
  ) => {
    const ids: number[] = [];
    for (const o of orders) {
      const id = nextId++;
      ids.push(id);
      const w = wooOrder({
        id,
        created: new Date(Date.now() - (o.ageHours ?? 1) * HOUR),
        items: o.items.map(([sku, size, quantity], k) => ({ id: id * 10 + k, name: `${sku} tee`, sku, size, quantity, ...(o.upload && k === 0 ? { upload: o.upload } : {}) })),
        shipping: o.shipping,
        meta: o.meta,
      });
      if (o.rush) for (const li of w.line_items) li.meta_data.push({ id: 9, key: 'Shipping', value: 'Express', display_key: 'Shipping', display_value: 'Express' });
      woo.orders.push(w);
    }
    await db.query(`UPDATE integrations SET last_sync = NULL WHERE id = $1`, [wooId]);
    await syncAndWait(seller.agent, wooId);
    return ids.map(String);
  };
  const queue = async (agent = seller.agent, qs = 'limit=200') => {
    const r = await agent.get(`/api/production/queue?${qs}`);
    if (r.status !== 200) throw new Error(`queue: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  /** Order items held by more than one live print, and the live prints holding each item. */
  const liveHolders = async () =>
    db.query(
      `SELECT pi.order_item_id, count(*)::int AS n FROM print_items pi JOIN prints p ON p.id = pi.print_id
        WHERE pi.order_item_id IS NOT NULL AND (p.type <> 'Batch' OR p.printed_at IS NOT NULL OR p.status IN ('In Draft', 'Processing', 'Completed'))
        GROUP BY pi.order_item_id`,
    );

  it('the queue: every synced item not in a print, rush first then oldest, with the reason for the ones that cannot be batched', async () => {
    await seller.agent.put('/api/production/settings').send({ rush: { tags: ['express'] } }).expect(200);
    const [ready, noImage, noSize, download, rush, huge] = await addOrders([
      { items: [['RED', 'A3', 2], ['BLUE', 'a3', 1]], ageHours: 30 },
      { items: [['NOPE', 'A3', 1]], ageHours: 20 },
      { items: [['RED', 'XXL', 1]], ageHours: 10 },
      { items: [['', 'A3', 1]], ageHours: 5, upload: `${woo.baseUrl}/wp-content/uploads/missing/art.png` },
      { items: [['BLUE', 'A3', 3]], ageHours: 1, rush: true },
      { items: [['HUGE', 'Poster', 1]], ageHours: 2 },
    ]);
    const q = await queue();
    const byOrder = (n: string) => q.data.filter((i: any) => i.orderNumber === n);
    expect(q.data.map((i: any) => i.orderNumber)).toEqual([rush, ready, ready, noImage, noSize, download, huge]);
    expect(byOrder(rush)[0]).toMatchObject({ rush: true, copies: 3, reason: null, imageName: 'BLUE', widthIn: 4, shop: 'Woo', shopType: 'WordPress' });
    expect(byOrder(ready)[0]).toMatchObject({ title: 'RED tee', sku: 'RED', size: 'A3', copies: 2, rush: false, reason: null, previewUrl: expect.stringMatching(/^\/api\/images\//) });
    expect(byOrder(ready)[0].ageHours).toBeGreaterThanOrEqual(29.9);
    expect(byOrder(noImage)[0].reason).toBe('Image is missing. Please add the missing item.');
    expect(byOrder(noSize)[0].reason).toBe('Size is missing. Please add the missing item.');
    expect(byOrder(huge)[0].reason).toBe('The design at this size does not fit the batch sheet');
    // the design file is downloaded when the item is batched: until then it counts as ready
    expect(byOrder(download)[0]).toMatchObject({ designToDownload: true, reason: null });
    expect(q.summary).toMatchObject({ readyItems: 4, readyCopies: 7, blockedItems: 3, blockedCopies: 3, readyOrders: 3 });
    expect(q.summary.estimatedLengthIn).toBeGreaterThan(0);
    expect(q.summary.unmeasuredItems).toBe(1); // the design still to download is not in the estimate
    expect((await queue(seller.agent, 'status=blocked&limit=2')).pagination).toEqual({ totalDocuments: 3, totalPages: 2 });
    expect((await queue(seller.agent, 'status=ready&limit=200')).data.every((i: any) => i.reason === null)).toBe(true);
    await seller.agent.get('/api/production/queue?status=nope').expect(400);
    // another seller sees nothing of it
    expect((await queue(other.agent)).data).toEqual([]);
  });

  it('settings: defaults, validation with clear messages, and what is sent is kept', async () => {
    const d = (await other.agent.get('/api/production/settings').expect(200)).body.data;
    expect(d).toMatchObject({ presetId: null, triggers: { minLengthIn: null, cutoffs: [], maxWaitHours: null }, timeZone: 'UTC', autoProcess: false, labels: true, auto: false, nextCutoffAt: null });
    expect(d.resolvedSheet.width).toBeGreaterThan(0);
    const bad = async (body: object, msg: RegExp) => {
      const r = await seller.agent.put('/api/production/settings').send(body).expect(400);
      expect(JSON.stringify(r.body)).toMatch(msg);
    };
    await bad({ triggers: { cutoffs: ['25:00'] } }, /Cut-off times must be 'HH:MM'/);
    await bad({ triggers: { density: 2 } }, /Density must be at most 1/);
    await bad({ triggers: { minLengthIn: 0 } }, /Minimum film length must be at least 1 in/);
    await bad({ timeZone: 'Mars/Olympus' }, /Time zone must be an IANA name/);
    await bad({ presetId: '00000000-0000-4000-8000-000000000000' }, /Sheet preset not found/);
    await bad({ sheet: { width: 500 } }, /Sheet width must be at most/);
    await bad({ autoProcess: 'yes' }, /Auto-process must be true or false/);
    await bad({ surprise: 1 }, /surprise/);
    const s = (
      await seller.agent
        .put('/api/production/settings')
        .send({ sheet: { width: 22, maxLength: 120, nesting: 'shape' }, triggers: { cutoffs: ['14:00', '09:00', '14:00'] }, timeZone: 'Europe/Vienna', labels: false })
        .expect(200)
    ).body.data;
    expect(s).toMatchObject({ triggers: { cutoffs: ['09:00', '14:00'] }, timeZone: 'Europe/Vienna', labels: false, auto: true, rush: { tags: ['express'] } });
    expect(s.resolvedSheet).toMatchObject({ width: 22, maxLength: 120, nesting: 'shape' });
    expect(s.nextCutoffAt).toBeTruthy();
    // back to manual only for the next tests
    await seller.agent.put('/api/production/settings').send({ triggers: { cutoffs: [] }, labels: true }).expect(200);
  });

  it('Batch now: ready items into one Batch print (one print item per order item), In Draft with a bell notice without credits; the rest stay queued with reasons', async () => {
    const publish = jest.spyOn(t.app.get(WebhooksService), 'publish');
    const r = (await seller.agent.post('/api/production/batches').expect(200)).body;
    expect(r.data).toHaveLength(1);
    const b = r.data[0];
    expect(b).toMatchObject({ status: 'In Draft', trigger: 'manual', orders: 2, items: 3, copies: 6, note: null });
    const print = (await seller.agent.get(`/api/print/${b.printId}`).expect(200)).body.data;
    expect(print.type).toBe('Batch');
    const items = await db.query(`SELECT order_item_id, quantity FROM print_items WHERE print_id = $1`, [b.printId]);
    expect(items).toHaveLength(3);
    expect(items.every((i: any) => i.order_item_id)).toBe(true);
    const bell = (await seller.agent.get('/api/notifications').expect(200)).body.data;
    expect(bell.map((n: any) => n.message)).toContain('Batch of 6 copies ready — needs 6 credits');
    expect(publish.mock.calls.find((c) => c[1] === 'batch.created')?.[2]).toMatchObject({ printId: b.printId, copies: 6, status: 'In Draft' });
    publish.mockRestore();
    const q = await queue();
    expect(q.summary).toMatchObject({ readyItems: 0, blockedItems: 4 });
    // the design file that could not be downloaded now says why
    expect(q.data.find((i: any) => i.designToDownload === false && /downloaded/.test(i.reason ?? ''))?.reason).toMatch(/The design file could not be downloaded: the shop answered 404/);
    expect((await seller.agent.get('/api/production/batches').expect(200)).body.data[0]).toMatchObject({ printId: b.printId, copies: 6 });
    // nothing ready: nothing made
    expect((await seller.agent.post('/api/production/batches').expect(200)).body).toEqual({ data: [], message: 'Nothing is ready to batch' });
    // the dashboard counts orders queued and in production
    const stats = (await seller.agent.get('/api/statistics').expect(200)).body.data;
    expect(stats).toMatchObject({ queuedOrders: 4, inProductionOrders: 2 });
  });

  it('user isolation: another seller cannot batch my orders or see my batches', async () => {
    expect((await other.agent.post('/api/production/batches').expect(200)).body.data).toEqual([]);
    expect((await other.agent.get('/api/production/batches').expect(200)).body.data).toEqual([]);
    expect((await queue(other.agent)).summary.readyItems).toBe(0);
  });

  it('a cancelled, failed or deleted batch returns its items to the queue', async () => {
    const [draft] = (await seller.agent.get('/api/production/batches').expect(200)).body.data;
    // deleted while a draft: the items are queued again
    await seller.agent.delete(`/api/print/${draft.printId}/force`).expect((r) => expect([200, 204]).toContain(r.status));
    expect((await queue()).summary.readyItems).toBe(3);
    // failed: the batch is retired (Cancelled) and its items queued again
    const [failing] = (await seller.agent.post('/api/production/batches').expect(200)).body.data;
    await db.query(`UPDATE prints SET status = 'Processing', attempt = 1, credit_cost = 0 WHERE id = $1`, [failing.printId]);
    expect((await queue()).summary.readyItems).toBe(0);
    await t.app.get(PrintFailureService).fail(failing.printId, 1, 'test failure');
    await waitFor(async () => (await seller.agent.get(`/api/print/${failing.printId}`)).body.data.status === 'Cancelled', 10_000, 'failed batch retired');
    expect((await queue()).summary.readyItems).toBe(3);
    // a retired batch cannot be processed again (its items may be in another batch by now)
    await seller.agent.post(`/api/print/${failing.printId}/process`).send({}).expect((r) => expect(r.status).toBeGreaterThanOrEqual(400));
    // cancelled while processing: back to In Draft by the prints rules, then retired by production
    await setCredits(t, admin, seller.user._id, 100);
    const [cancelling] = (await seller.agent.post('/api/production/batches').expect(200)).body.data;
    await seller.agent.post(`/api/print/${cancelling.printId}/process`).send({}).expect(201);
    await seller.agent.post(`/api/print/${cancelling.printId}/cancel`).expect((r) => expect(r.status).toBeLessThan(300));
    await waitFor(async () => (await seller.agent.get(`/api/print/${cancelling.printId}`)).body.data.status === 'Cancelled', 10_000, 'cancelled batch retired');
    expect((await queue()).summary.readyItems).toBe(3);
    expect((await liveHolders()).every((h: any) => h.n === 1)).toBe(true);
  });

  it('auto-process: a batch is charged and processed; on completion batch.completed is sent and fulfilment requested once', async () => {
    const fulfil = jest.spyOn(t.app.get(FulfilmentService), 'requestForBatch');
    const publish = jest.spyOn(t.app.get(WebhooksService), 'publish');
    await setCredits(t, admin, seller.user._id, 100);
    await seller.agent.put('/api/production/settings').send({ autoProcess: true }).expect(200);
    const [b] = (await seller.agent.post('/api/production/batches').expect(200)).body.data;
    expect(b).toMatchObject({ status: 'Processing', copies: 6 });
    const done = await waitDone(seller.agent, b.printId);
    expect(done.status).toBe('Completed');
    expect((await seller.agent.get('/api/profile').expect(200)).body.data.credit.availableCredits).toBe(94);
    await waitFor(async () => fulfil.mock.calls.length > 0, 10_000, 'fulfilment requested');
    expect(fulfil).toHaveBeenCalledWith(seller.user._id, b.printId);
    const completed = publish.mock.calls.filter((c) => c[1] === 'batch.completed');
    expect(completed).toHaveLength(1);
    expect((completed[0][2] as any).orderIds).toHaveLength(2);
    // the sweep finds nothing left to announce
    await production.sweep();
    expect(publish.mock.calls.filter((c) => c[1] === 'batch.completed')).toHaveLength(1);
    fulfil.mockRestore();
    publish.mockRestore();
    expect((await seller.agent.get('/api/statistics').expect(200)).body.data).toMatchObject({ inProductionOrders: 0 });
    // the fulfilment feature marks both orders fulfilled in the shop; the dashboard counts them
    await waitFor(async () => (await seller.agent.get('/api/statistics').expect(200)).body.data.fulfilledOrders === 2, 30_000, 'orders fulfilled');
  });

  it('auto-process without the credits: left In Draft with "needs N credits"', async () => {
    await setCredits(t, admin, seller.user._id, 1);
    await addOrders([{ items: [['RED', 'A3', 4]] }]);
    const [b] = (await seller.agent.post('/api/production/batches').expect(200)).body.data;
    expect(b).toMatchObject({ status: 'In Draft', copies: 4, note: 'Needs 4 credits' });
    const bell = (await seller.agent.get('/api/notifications').expect(200)).body.data;
    expect(bell.map((n: any) => n.message)).toContain('Batch of 4 copies ready — needs 4 credits');
    await seller.agent.delete(`/api/print/${b.printId}/force`).expect((r) => expect([200, 204]).toContain(r.status));
    await seller.agent.put('/api/production/settings').send({ autoProcess: false }).expect(200);
  });

  it('cut-off: with the clock moved past 14:00 in the seller time zone the ready items are batched, once per cut-off', async () => {
    const now = jest.spyOn(clock, 'now').mockReturnValue(new Date('2026-07-01T11:30:00Z')); // 13:30 in Vienna
    await seller.agent.put('/api/production/settings').send({ triggers: { cutoffs: ['14:00'] }, timeZone: 'Europe/Vienna' }).expect(200);
    expect(await production.evaluate(seller.user._id)).toEqual([]);
    expect((await queue()).summary.readyItems).toBe(1);
    now.mockReturnValue(new Date('2026-07-01T12:01:00Z')); // 14:01
    const made = await production.evaluate(seller.user._id);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ trigger: 'cutoff', copies: 4 });
    await addOrders([{ items: [['BLUE', 'A3', 1]] }]);
    // the same cut-off does not fire twice; the next one does
    expect(await production.evaluate(seller.user._id)).toEqual([]);
    now.mockReturnValue(new Date('2026-07-02T12:00:00Z'));
    expect(await production.evaluate(seller.user._id)).toHaveLength(1);
    now.mockRestore();
    await seller.agent.put('/api/production/settings').send({ triggers: { cutoffs: [] } }).expect(200);
  });

  it('exactly once: a sync, a cut-off and clicks at the same moment put every item into exactly one live batch', async () => {
    await addOrders(Array.from({ length: 30 }, (_, k) => ({ items: [['RED', 'A3', 1 + (k % 3)], ['BLUE', 'A3', 1]] as Array<[string, string, number]>, ageHours: k })));
    const ready = (await queue()).summary.readyItems;
    expect(ready).toBe(60);
    const now = jest.spyOn(clock, 'now').mockReturnValue(new Date('2026-08-01T08:00:00Z'));
    await seller.agent.put('/api/production/settings').send({ triggers: { cutoffs: ['09:00'], minLengthIn: 1 }, timeZone: 'UTC', maxCopiesPerBatch: 40 }).expect(200);
    now.mockReturnValue(new Date('2026-08-01T09:00:30Z'));
    const before = (await db.query(`SELECT count(*)::int AS n FROM production_batches`))[0].n;
    await Promise.all([
      production.evaluate(seller.user._id, 'sync'),
      production.evaluate(seller.user._id, 'schedule'),
      seller.agent.post('/api/production/batches').expect(200),
      seller.agent.post('/api/production/batches').expect(200),
      production.batch(seller.user._id, 'manual'),
    ]);
    now.mockRestore();
    const holders = await liveHolders();
    expect(holders.filter((h: any) => h.n > 1)).toEqual([]);
    const batched = await db.query(
      `SELECT count(*)::int AS n FROM print_items pi JOIN production_batches b ON b.print_id = pi.print_id JOIN prints p ON p.id = b.print_id
        WHERE p.status = 'In Draft' AND b.created_at > now() - interval '5 minutes'`,
    );
    expect(batched[0].n).toBeGreaterThanOrEqual(60);
    expect((await queue()).summary.readyItems).toBe(0);
    const made = (await db.query(`SELECT count(*)::int AS n FROM production_batches`))[0].n - before;
    expect(made).toBeGreaterThanOrEqual(3); // 100 copies at 40 per batch at most, whole orders
    const sizes = await db.query(`SELECT copies FROM production_batches ORDER BY created_at DESC LIMIT ${made}`);
    expect(sizes.every((s: any) => s.copies <= 40)).toBe(true);
    await seller.agent.put('/api/production/settings').send({ triggers: { cutoffs: [], minLengthIn: null } }).expect(200);
  });

  it('rush by shipping method or shop tag: stored at sync, such orders are batched first when the copy limit cuts the batch', async () => {
    await seller.agent.put('/api/production/settings').send({ rush: { tags: ['VIP'], shippingMethods: ['express'] }, maxCopiesPerBatch: 3, autoProcess: false }).expect(200);
    // a design still to download only: the film is not known yet (null, not 0)
    woo.files.set('/wp-content/uploads/product_addons_uploads/rush/art.png', {
      type: 'image/png',
      body: await sharp({ create: { width: 300, height: 300, channels: 4, background: '#22aa44' } }).png().toBuffer(),
    });
    const [later] = await addOrders([{ items: [['', 'A3', 1]], ageHours: 0.5, upload: `${woo.baseUrl}/wp-content/uploads/product_addons_uploads/rush/art.png` }]);
    expect((await queue(seller.agent, 'status=ready')).summary).toMatchObject({ readyItems: 1, unmeasuredItems: 1, estimatedLengthIn: null });
    const [old, byShipping, byTag] = await addOrders([
      { items: [['RED', 'A3', 3]], ageHours: 50 },
      { items: [['BLUE', 'A3', 3]], ageHours: 2, shipping: { title: 'Express', id: 'flat_rate' } },
      { items: [['RED', 'A3', 2], ['BLUE', 'A3', 1]], ageHours: 1, meta: [{ key: 'order_tag', value: 'vip' }] },
    ]);
    const stored = await db.query(`SELECT number, shipping_methods, shop_tags FROM orders WHERE integration_id = $1 AND number = ANY($2::text[]) ORDER BY number`, [wooId, [old, byShipping, byTag]]);
    expect(stored).toEqual([
      { number: old, shipping_methods: ['Flat rate', 'flat_rate'], shop_tags: [] },
      { number: byShipping, shipping_methods: ['Express', 'flat_rate'], shop_tags: [] },
      { number: byTag, shipping_methods: ['Flat rate', 'flat_rate'], shop_tags: ['order_tag', 'vip'] },
    ]);
    const q = await queue(seller.agent, 'status=ready');
    expect(q.data.map((i: any) => i.orderNumber)).toEqual([byShipping, byTag, byTag, old, later]);
    expect(q.data[0]).toMatchObject({ rush: true, shipping: 'Express' });
    expect(q.data[3]).toMatchObject({ rush: false, shipping: 'Flat rate' });
    // three copies per batch at most: the rush orders make the first batches, oldest first
    const made = (await seller.agent.post('/api/production/batches').expect(200)).body.data;
    expect(made).toHaveLength(4);
    const batches = await db.query(
      `SELECT b.print_id, array_agg(DISTINCT o.number) AS orders FROM production_batches b
         JOIN print_items pi ON pi.print_id = b.print_id JOIN order_items oi ON oi.id = pi.order_item_id JOIN orders o ON o.id = oi.order_id
        WHERE b.print_id = ANY($1::uuid[]) GROUP BY b.print_id, b.created_at ORDER BY b.created_at`,
      [made.map((b: any) => b.printId)],
    );
    expect(batches.map((b: any) => b.orders)).toEqual([[byShipping], [byTag], [old], [later]]);
    await seller.agent.put('/api/production/settings').send({ rush: { tags: ['express'], shippingMethods: [] }, maxCopiesPerBatch: 1000 }).expect(200);
  });
});
