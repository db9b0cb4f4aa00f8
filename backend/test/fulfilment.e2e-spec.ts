import { DataSource } from 'typeorm';
import { etsyReceipt, FakeEtsy } from './fakes/etsy.fake';
import { FakeWooCommerce, wooOrder } from './fakes/woocommerce.fake';
import { FulfilmentService } from '../src/orders/fulfilment.service';
import { WebhooksService } from '../src/webhooks/webhooks.service';
import { createTestApp, ORIGIN, signUpAndLogin, TestApp } from './utils/create-test-app';
import { shopEnv, syncAndWait, wooKeys } from './utils/shops';

async function waitUntil<T>(fn: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function follow(url: string): Promise<string> {
  const res = await fetch(url, { redirect: 'manual' });
  const loc = res.headers.get('location');
  if (!loc) throw new Error(`no redirect from ${url}: ${res.status} ${await res.text()}`);
  return loc;
}

describe('Fulfilment back to the shop (e2e)', () => {
  let t: TestApp;
  let woo: FakeWooCommerce;
  let etsy: FakeEtsy;
  let db: DataSource;
  let seller: Awaited<ReturnType<typeof signUpAndLogin>>;
  let other: Awaited<ReturnType<typeof signUpAndLogin>>;
  let wooId: string;
  let etsyId: string;
  /** Shop order number → our order id. */
  const ids = new Map<string, string>();

  beforeAll(async () => {
    woo = await new FakeWooCommerce().start();
    etsy = await new FakeEtsy().start();
    t = await createTestApp(shopEnv(woo, etsy));
    db = t.app.get(DataSource);
    etsy.redirectUris.add(`${ORIGIN}/api/integrations/etsy/callback`);
    seller = await signUpAndLogin(t, 'fulfilseller');
    other = await signUpAndLogin(t, 'fulfilother');
    const now = Date.now();
    woo.orders = [101, 102, 103, 104, 105, 106, 107].map((id) => wooOrder({ id, created: new Date(now - 3600_000 - id) }));
    // two lines: one printed, one not (for the batch rule)
    woo.orders.push(wooOrder({ id: 108, created: new Date(now - 3600_000), items: [{ id: 1081, name: 'Photo Print - A3', size: 'A3' }, { id: 1082, name: 'Photo Print - A4', size: 'A4' }] }));
    wooId = (await seller.agent.post('/api/integrations').send({ name: 'Woo', type: 'WordPress', keys: wooKeys(woo) }).expect(201)).body.data._id;
    await syncAndWait(seller.agent, wooId);
    // Etsy: connect through consent (the scopes now include transactions_w)
    etsy.receipts = [etsyReceipt(5001, { created: new Date(now - 3600_000) }), etsyReceipt(5002, { created: new Date(now - 3600_000) })];
    const created = await seller.agent.post('/api/integrations').send({ name: 'Etsy', type: 'Etsy' }).expect(201);
    etsyId = created.body.data._id;
    const cb = new URL(await follow(created.body.connectUrl));
    await t.agent().get(cb.pathname + cb.search).expect(302);
    await syncAndWait(seller.agent, etsyId);
    const list = (await seller.agent.get('/api/orders?limit=100').expect(200)).body.data;
    for (const o of list) ids.set(o.orderId, o._id);
    expect(ids.size).toBe(10);
  });
  afterAll(async () => {
    await t.close();
    await woo.stop();
    await etsy.stop();
  });

  const order = async (num: string) => (await seller.agent.get(`/api/orders?id=${ids.get(num)}`).expect(200)).body.data[0];
  const settled = (num: string) => waitUntil(async () => {
    const o = await order(num);
    return o.fulfilment.status !== 'pending' && o;
  });

  it('an order never marked shipped has fulfilment none; the list filters by fulfilment', async () => {
    const o = await order('101');
    expect(o.fulfilment).toEqual({ status: 'none', source: null, carrier: null, trackingNumber: null, error: null, requestedAt: null, fulfilledAt: null });
    const none = (await seller.agent.get('/api/orders?fulfilment=none&limit=100').expect(200)).body;
    expect(none.pagination.totalDocuments).toBe(10);
    const bad = await seller.agent.get('/api/orders?fulfilment=shipped').expect(400);
    expect(bad.body.message).toContain('fulfilment must be one of none, pending, fulfilled, failed');
  });

  it('WooCommerce: Mark shipped sets the status (default completed) and posts one note with the tracking, once — even when asked again and the job runs again', async () => {
    const webhooks = t.app.get(WebhooksService);
    const record = jest.spyOn(webhooks, 'record');
    const r = await seller.agent.post(`/api/orders/${ids.get('101')}/ship`).send({ carrier: 'DHL', trackingNumber: '1Z999AA10123456784' }).expect(200);
    expect(r.body.data).toMatchObject({ status: expect.stringMatching(/pending|fulfilled/), source: 'manual', carrier: 'DHL', trackingNumber: '1Z999AA10123456784' });
    const o = await settled('101');
    expect(o.fulfilment).toMatchObject({ status: 'fulfilled', error: null, carrier: 'DHL', trackingNumber: '1Z999AA10123456784' });
    expect(o.fulfilment.fulfilledAt).toBeTruthy();
    // asked again (double click), and the job run again by hand: nothing more reaches the shop
    await seller.agent.post(`/api/orders/${ids.get('101')}/ship`).send({ carrier: 'DHL', trackingNumber: '1Z999AA10123456784' }).expect(200);
    await seller.agent.post(`/api/orders/${ids.get('101')}/ship`).send({}).expect(200);
    expect(await t.app.get(FulfilmentService).run(ids.get('101')!)).toBe('skipped');
    await new Promise((res) => setTimeout(res, 300));
    expect(woo.statusUpdates.filter((u) => u.orderId === 101)).toEqual([{ orderId: 101, status: 'completed' }]);
    const notes = woo.notes.filter((n) => n.orderId === 101);
    expect(notes).toHaveLength(1);
    expect(notes[0].note).toContain('Shipped with DHL, tracking number 1Z999AA10123456784');
    expect(notes[0].customer_note).toBe(false);
    expect(woo.orders.find((x) => x.id === 101).status).toBe('completed');
    // the webhook event, recorded with the change
    const ev = record.mock.calls.find((c) => c[2] === 'order.fulfilled');
    record.mockRestore();
    expect(ev?.[3]).toMatchObject({ orderId: ids.get('101'), orderNumber: '101', shop: 'WordPress', source: 'manual', carrier: 'DHL', trackingNumber: '1Z999AA10123456784' });
    // other tracking details for an order already shipped: refused, nothing sent
    const again = await seller.agent.post(`/api/orders/${ids.get('101')}/ship`).send({ carrier: 'UPS', trackingNumber: 'OTHER123' }).expect(409);
    expect(again.body.message).toContain('already marked shipped with tracking number 1Z999AA10123456784');
    // filter
    const fulfilled = (await seller.agent.get('/api/orders?fulfilment=fulfilled').expect(200)).body.data.map((x: any) => x.orderId);
    expect(fulfilled).toEqual(['101']);
  });

  it('the WooCommerce status is the shop connection\'s setting; without tracking the note says shipped', async () => {
    const bad = await seller.agent.put(`/api/integrations/${wooId}`).send({ name: 'Woo', type: 'WordPress', fulfilmentStatus: 'Not a status!' }).expect(400);
    expect(bad.body.message).toContain('fulfilmentStatus must be a WooCommerce order status');
    const i = (await seller.agent.put(`/api/integrations/${wooId}`).send({ name: 'Woo', type: 'WordPress', fulfilmentStatus: 'shipped' }).expect(200)).body.data;
    expect(i).toMatchObject({ fulfilmentStatus: 'shipped', connected: true });
    await seller.agent.post(`/api/orders/${ids.get('102')}/ship`).send({}).expect(200);
    expect((await settled('102')).fulfilment).toMatchObject({ status: 'fulfilled', carrier: null, trackingNumber: null });
    expect(woo.statusUpdates.filter((u) => u.orderId === 102)).toEqual([{ orderId: 102, status: 'shipped' }]);
    expect(woo.notes.filter((n) => n.orderId === 102).map((n) => n.note)).toEqual([expect.stringMatching(/^Marked shipped in GangSheet Studio\. \[ref /)]);
    await seller.agent.put(`/api/integrations/${wooId}`).send({ name: 'Woo', type: 'WordPress', fulfilmentStatus: 'completed' }).expect(200);
  });

  it('validation: clear 400s; another seller\'s order is 404', async () => {
    const noCarrier = await seller.agent.post(`/api/orders/${ids.get('103')}/ship`).send({ trackingNumber: 'ABC123' }).expect(400);
    expect(noCarrier.body.message).toBe('Give the carrier together with the tracking number');
    const badTracking = await seller.agent.post(`/api/orders/${ids.get('103')}/ship`).send({ carrier: 'dhl', trackingNumber: '<script>' }).expect(400);
    expect([badTracking.body.message].flat()).toEqual(expect.arrayContaining(['trackingNumber may contain only letters, digits, spaces and . _ / -']));
    const long = await seller.agent.post(`/api/orders/${ids.get('103')}/ship`).send({ carrier: 'x'.repeat(61) }).expect(400);
    expect([long.body.message].flat()).toEqual(expect.arrayContaining(['carrier must be at most 60 characters']));
    expect((await other.agent.post(`/api/orders/${ids.get('103')}/ship`).send({}).expect(404)).body.message).toBe('Order not found');
    await other.agent.post(`/api/orders/${ids.get('103')}/fulfilment/retry`).expect(404);
    await seller.agent.post('/api/orders/not-a-uuid/ship').send({}).expect(404);
    expect((await seller.agent.post(`/api/orders/${ids.get('103')}/fulfilment/retry`).expect(409)).body.code).toBe('fulfilment_not_requested');
    expect(woo.statusUpdates.some((u) => u.orderId === 103)).toBe(false);
  });

  it('a refusal (4xx) is stored with the shop\'s message and shown on the order; retry sends what was not accepted', async () => {
    woo.refuseWrites = { status: 400, code: 'woocommerce_rest_cannot_edit', message: 'This order is locked by another plugin.' };
    await seller.agent.post(`/api/orders/${ids.get('103')}/ship`).send({ carrier: 'UPS', trackingNumber: 'UPS777' }).expect(200);
    const failed = await settled('103');
    expect(failed.fulfilment).toMatchObject({ status: 'failed', carrier: 'UPS', trackingNumber: 'UPS777' });
    expect(failed.fulfilment.error).toBe('WooCommerce refused: This order is locked by another plugin. (woocommerce_rest_cannot_edit)');
    expect((await seller.agent.get('/api/orders?fulfilment=failed').expect(200)).body.data.map((x: any) => x.orderId)).toEqual(['103']);
    expect(woo.statusUpdates.some((u) => u.orderId === 103)).toBe(false);
    woo.refuseWrites = null;
    const r = await seller.agent.post(`/api/orders/${ids.get('103')}/fulfilment/retry`).expect(200);
    expect(r.body.data).toMatchObject({ error: null });
    expect((await settled('103')).fulfilment).toMatchObject({ status: 'fulfilled', error: null });
    expect(woo.statusUpdates.filter((u) => u.orderId === 103)).toHaveLength(1);
    expect(woo.notes.filter((n) => n.orderId === 103)).toHaveLength(1);
    expect((await seller.agent.post(`/api/orders/${ids.get('103')}/fulfilment/retry`).expect(409)).body.code).toBe('fulfilment_not_failed');
  });

  it('transient failures (500, and an accepted note whose answer was lost) are retried with backoff; the note is not posted twice', async () => {
    woo.failWritesNext = 1; // the status PUT answers 500 once
    await seller.agent.post(`/api/orders/${ids.get('104')}/ship`).send({}).expect(200);
    await waitUntil(async () => (await order('104')).fulfilment.error?.includes('WooCommerce answered 500'));
    expect((await order('104')).fulfilment.status).toBe('pending');
    expect((await settled('104')).fulfilment).toMatchObject({ status: 'fulfilled', error: null });
    expect(woo.statusUpdates.filter((u) => u.orderId === 104)).toHaveLength(1);
    // the note reaches the shop but the connection drops before the answer
    woo.dropAfterWriteNext = 1; // the status PUT (harmless to send again)
    woo.dropAfterNoteNext = 1;
    await seller.agent.post(`/api/orders/${ids.get('105')}/ship`).send({ carrier: 'GLS', trackingNumber: 'GLS1' }).expect(200);
    expect((await settled('105')).fulfilment).toMatchObject({ status: 'fulfilled' });
    expect(woo.notes.filter((n) => n.orderId === 105)).toHaveLength(1);
    expect(woo.statusUpdates.filter((u) => u.orderId === 105).length).toBeGreaterThanOrEqual(2);
    expect(woo.log.some((l) => l.method === 'GET' && l.url.startsWith('/wp-json/wc/v3/orders/105/notes'))).toBe(true);
  }, 60_000);

  it('Etsy: a shipment with tracking (createReceiptShipment, form-encoded), once; without tracking nothing is sent but the order is fulfilled here', async () => {
    await seller.agent.post(`/api/orders/${ids.get('5001')}/ship`).send({ carrier: 'royal-mail', trackingNumber: 'RM123456789GB' }).expect(200);
    expect((await settled('5001')).fulfilment).toMatchObject({ status: 'fulfilled', carrier: 'royal-mail', trackingNumber: 'RM123456789GB' });
    expect(etsy.shipments).toEqual([{ receiptId: 5001, tracking_code: 'RM123456789GB', carrier_name: 'royal-mail', note_to_buyer: null }]);
    await seller.agent.post(`/api/orders/${ids.get('5001')}/ship`).send({ carrier: 'royal-mail', trackingNumber: 'RM123456789GB' }).expect(200);
    const before = etsy.log.length;
    await seller.agent.post(`/api/orders/${ids.get('5002')}/ship`).send({}).expect(200);
    expect((await settled('5002')).fulfilment).toMatchObject({ status: 'fulfilled', trackingNumber: null });
    expect(etsy.log.slice(before).filter((l) => l.method === 'POST')).toEqual([]);
    expect(etsy.shipments).toHaveLength(1);
  });

  it('Etsy: a refusal shows Etsy\'s message; the retry posts the shipment', async () => {
    etsy.receipts.push(etsyReceipt(5003, { created: new Date(Date.now() - 1000) }));
    await syncAndWait(seller.agent, etsyId);
    ids.set('5003', (await seller.agent.get('/api/orders?limit=100').expect(200)).body.data.find((o: any) => o.orderId === '5003')._id);
    etsy.refuseShipments = { status: 400, error: 'carrier_name is not a supported carrier' };
    await seller.agent.post(`/api/orders/${ids.get('5003')}/ship`).send({ carrier: 'pigeon', trackingNumber: 'P1' }).expect(200);
    expect((await settled('5003')).fulfilment).toMatchObject({ status: 'failed', error: 'Etsy refused: carrier_name is not a supported carrier' });
    etsy.refuseShipments = null;
    // Mark shipped again on a failed one: sent again with the corrected carrier
    await seller.agent.post(`/api/orders/${ids.get('5003')}/ship`).send({ carrier: 'usps', trackingNumber: 'P1' }).expect(200);
    expect((await settled('5003')).fulfilment).toMatchObject({ status: 'fulfilled', carrier: 'usps' });
    expect(etsy.shipments.filter((s) => s.receiptId === 5003)).toEqual([{ receiptId: 5003, tracking_code: 'P1', carrier_name: 'usps', note_to_buyer: null }]);
  });

  it('Etsy: a shipment accepted but whose answer was lost is found on the receipt, not sent again', async () => {
    etsy.receipts.push(etsyReceipt(5004, { created: new Date(Date.now() - 1000) }));
    await syncAndWait(seller.agent, etsyId);
    ids.set('5004', (await seller.agent.get('/api/orders?limit=100').expect(200)).body.data.find((o: any) => o.orderId === '5004')._id);
    etsy.dropAfterShipmentNext = 1;
    await seller.agent.post(`/api/orders/${ids.get('5004')}/ship`).send({ carrier: 'fedex', trackingNumber: 'FX42' }).expect(200);
    expect((await settled('5004')).fulfilment).toMatchObject({ status: 'fulfilled' });
    expect(etsy.shipments.filter((s) => s.receiptId === 5004)).toHaveLength(1);
    expect(etsy.log.some((l) => l.method === 'GET' && l.url === `/v3/application/shops/${etsy.shopId}/receipts/5004`)).toBe(true);
  }, 30_000);

  it('requestForBatch fulfils only orders all of whose items are in completed prints, once', async () => {
    const items = async (num: string) => (await order(num)).orderItems.map((i: any) => i._id as string);
    const print = async (status: string, orderItemIds: string[]) => {
      const [p] = await db.query(`INSERT INTO prints (user_id, status, printed_at) VALUES ($1, $2::varchar, CASE WHEN $2::varchar = 'Completed' THEN now() END) RETURNING id`, [seller.user._id, status]);
      for (const id of orderItemIds) await db.query(`INSERT INTO print_items (print_id, quantity, order_item_id) VALUES ($1, 1, $2)`, [p.id, id]);
      return p.id as string;
    };
    const [a1, a2] = await items('108');
    const done = await print('Completed', [...(await items('106')), a1]);
    await print('In Draft', [a2]);
    const svc = t.app.get(FulfilmentService);
    await svc.requestForBatch(seller.user._id, done);
    await svc.requestForBatch(seller.user._id, done); // twice: still once
    expect((await settled('106')).fulfilment).toMatchObject({ status: 'fulfilled', source: 'batch' });
    expect((await order('108')).fulfilment.status).toBe('none'); // one item still in a draft
    expect((await order('107')).fulfilment.status).toBe('none'); // not in the batch
    expect(woo.statusUpdates.filter((u) => u.orderId === 106)).toEqual([{ orderId: 106, status: 'completed' }]);
    expect(woo.notes.filter((n) => n.orderId === 106).map((n) => n.note)).toEqual([expect.stringMatching(/^Printed and marked fulfilled by GangSheet Studio\./)]);
    // another seller's call with this print does nothing
    await svc.requestForBatch(other.user._id, done);
    expect(woo.statusUpdates.some((u) => u.orderId === 108)).toBe(false);
  });
});
