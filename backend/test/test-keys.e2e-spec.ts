import request from 'supertest';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { CreditsService } from '../src/credits/credits.service';
import { WATERMARK_RGB } from '../src/gangsheet/render/watermark';
import { WebhookReceiver } from './fakes/webhook-receiver';
import { addDesign, addSize, binary, setCredits, waitDone, waitFor } from './prints.fixtures';
import { pdfText } from './utils/raster';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/** Small sheets at a low DPI: the renders of this suite take a moment each. */
const SETTINGS = { width: 10, dpi: 100, formats: ['png', 'pdf'] };

/** Pixels of the watermark's red, translucent, in an RGBA PNG: the watermark over empty film. */
async function watermarkPixels(png: Buffer): Promise<number> {
  const { data } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  let n = 0;
  for (let i = 0; i < data.length; i += 4)
    if (data[i + 3] > 0 && data[i + 3] < 255 && data[i] === WATERMARK_RGB[0] && data[i + 1] === WATERMARK_RGB[1] && data[i + 2] === WATERMARK_RGB[2]) n++;
  return n;
}


describe('Test keys (e2e)', () => {
  let t: TestApp;
  let db: DataSource;
  let admin: any;
  let receiver: WebhookReceiver;
  let http: () => ReturnType<typeof request>;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    db = t.app.get(DataSource);
    admin = await adminAgent(t);
    const server = t.app.getHttpServer();
    http = () => request(server);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  async function seller(name: string, credits = 0) {
    const s = await signUpAndLogin(t, name);
    if (credits) await setCredits(t, admin, s.user._id, credits);
    const key = async (mode?: 'live' | 'test') =>
      (await s.agent.post('/api/api-keys').send({ name: mode ?? 'default', scope: 'read-write', ...(mode && { mode }) }).expect(201)).body.data;
    const test = await key('test');
    const live = await key('live');
    return { ...s, test: { Authorization: `Bearer ${test.secret}` }, live: { Authorization: `Bearer ${live.secret}` }, testKey: test, liveKey: live };
  }

  const credits = async (agent: any) => (await agent.get('/api/profile').expect(200)).body.data.credit;
  const ledgerRows = async (userId: string) => (await t.app.get(CreditsService).ledger(userId)).length;

  async function draft(auth: Record<string, string>, userId: string, quantity = 2) {
    const image = await addDesign(t, userId, { width: 300, height: 200, border: 40 });
    const size = await addSize(t, userId, `S${Math.random().toString(36).slice(2, 8)}`, 2);
    return (await http().post('/api/print').set(auth).send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity }] }).expect(201)).body.data;
  }

  const file = async (auth: Record<string, string>, path: string) => (await http().get(path).set(auth).buffer(true).parse(binary).expect(200)).body as Buffer;

  it('creates and lists test keys: gsk_test_ secrets, the prefix keeps gsk_test_, mode in the list; live by default', async () => {
    const s = await signUpAndLogin(t, 'tk_keys');
    const test = (await s.agent.post('/api/api-keys').send({ name: 'Sandbox', scope: 'read-write', mode: 'test' }).expect(201)).body.data;
    expect(test.secret).toMatch(/^gsk_test_[A-Za-z0-9_-]{40}$/);
    expect(test).toMatchObject({ mode: 'test', prefix: test.secret.slice(0, 17) });
    expect(test.prefix).toMatch(/^gsk_test_.{8}$/);
    const live = (await s.agent.post('/api/api-keys').send({ name: 'Shop', scope: 'read' }).expect(201)).body.data;
    expect(live.secret).toMatch(/^gsk_[A-Za-z0-9_-]{40}$/);
    expect(live).toMatchObject({ mode: 'live', prefix: live.secret.slice(0, 12) });
    const list = (await s.agent.get('/api/api-keys').expect(200)).body.data;
    expect(list.map((k: any) => [k.name, k.mode, k.prefix])).toEqual([
      ['Shop', 'live', live.prefix],
      ['Sandbox', 'test', test.prefix],
    ]);
    const bad = await s.agent.post('/api/api-keys').send({ name: 'x', scope: 'read', mode: 'sandbox' }).expect(400);
    expect(bad.body.errors.map((e: any) => e.field)).toEqual(['mode']);
    // the key works like any key, on the same account
    const me = await http().get('/api/profile').set({ Authorization: `Bearer ${test.secret}` }).expect(200);
    expect(me.body.data.username).toBe('tk_keys');
  });

  it('processes a test print for 0 credits on an account with none: marked test, watermarked PNG and PDF, no ledger row', async () => {
    const s = await seller('tk_free');
    expect(await credits(s.agent)).toEqual({ availableCredits: 0, usedCredits: 0 });
    const print = await draft(s.test, s.user._id, 3);
    expect(print).toMatchObject({ test: true, creditCost: 0 });
    const started = await http().post(`/api/print/${print._id}/process`).set(s.test).send({ settings: SETTINGS }).expect(201);
    expect(started.body.data).toMatchObject({ status: 'Processing', test: true, creditCost: 0 });
    const done = await waitDone(s.agent, print._id);
    expect(done).toMatchObject({ status: 'Completed', test: true, creditCost: 0 });
    expect(await credits(s.agent)).toEqual({ availableCredits: 0, usedCredits: 0 });
    expect(await ledgerRows(s.user._id)).toBe(0);
    // the list shows it as test too
    const listed = (await http().get('/api/print').set(s.test).expect(200)).body.data.find((p: any) => p._id === print._id);
    expect(listed.test).toBe(true);

    const png = done.fileId.find((f: any) => f.format === 'png');
    const pdf = done.fileId.find((f: any) => f.format === 'pdf');
    expect(await watermarkPixels(await file(s.test, png.path))).toBeGreaterThan(500);
    expect(pdfText(await file(s.test, pdf.path))).toContain('TEST');

    // a copy made in the browser (live mode) is a live print
    const again = (await s.agent.post(`/api/print/${print._id}/duplicate`).expect(201)).body.data;
    expect(again.test).toBe(false);
  });

  it('a live print is charged and not watermarked; a test key cannot process it', async () => {
    const s = await seller('tk_live', 5);
    const print = await draft(s.live, s.user._id, 2);
    expect(print).toMatchObject({ test: false, creditCost: 2 });
    const refused = await http().post(`/api/print/${print._id}/process`).set(s.test).send({ settings: SETTINGS }).expect(403);
    expect(refused.body).toMatchObject({ code: 'test_mode_not_supported', message: 'A test key can process test prints only: this print was made in live mode.' });
    expect(await credits(s.agent)).toEqual({ availableCredits: 5, usedCredits: 0 });
    await http().post(`/api/print/${print._id}/process`).set(s.live).send({ settings: SETTINGS }).expect(201);
    const done = await waitDone(s.agent, print._id);
    expect(done).toMatchObject({ status: 'Completed', test: false, creditCost: 2 });
    expect(await credits(s.agent)).toEqual({ availableCredits: 3, usedCredits: 2 });
    const png = done.fileId.find((f: any) => f.format === 'png');
    const pdf = done.fileId.find((f: any) => f.format === 'pdf');
    expect(await watermarkPixels(await file(s.live, png.path))).toBe(0);
    expect(pdfText(await file(s.live, pdf.path))).not.toContain('TEST');
  });

  it('a test print may have at most 100 copies', async () => {
    const s = await seller('tk_cap');
    const print = await draft(s.test, s.user._id, 101);
    const res = await http().post(`/api/print/${print._id}/process`).set(s.test).send({ settings: SETTINGS }).expect(400);
    expect(res.body).toMatchObject({ code: 'test_print_too_large', message: 'A test print can have at most 100 copies; this one has 101.' });
  });

  it('statistics leave test prints out', async () => {
    const s = await seller('tk_stats', 5);
    const testPrint = await draft(s.test, s.user._id, 1);
    await draft(s.test, s.user._id, 1);
    await draft(s.live, s.user._id, 1);
    await http().post(`/api/print/${testPrint._id}/process`).set(s.test).send({ settings: SETTINGS }).expect(201);
    expect((await waitDone(s.agent, testPrint._id)).status).toBe('Completed');
    const stats = (await s.agent.get('/api/statistics').expect(200)).body.data;
    expect(stats).toMatchObject({ pendingPrints: 1, totalPrints: 1, printedImages: 0, usedCredits: 0 });
    // the prints list still counts every print
    expect((await s.agent.get('/api/print').expect(200)).body.pagination.totalDocuments).toBe(3);
  });

  it('events of a test print go to test endpoints only, live ones to live endpoints only; each mode lists its own events', async () => {
    const s = await seller('tk_hooks', 5);
    const events = ['print.completed', 'print.failed', 'print.cancelled'];
    const liveHook = (await s.agent.post('/api/webhooks').send({ url: receiver.url('/tk/live'), events }).expect(201)).body.data;
    expect(liveHook.mode).toBe('live');
    // a test key's endpoint is a test one unless it says otherwise; the browser may add one too
    const testHook = (await http().post('/api/webhooks').set(s.test).send({ url: receiver.url('/tk/test'), events }).expect(201)).body.data;
    expect(testHook.mode).toBe('test');
    const browserTest = (await s.agent.post('/api/webhooks').send({ url: receiver.url('/tk/test2'), events: ['print.completed'], mode: 'test' }).expect(201)).body.data;
    expect(browserTest.mode).toBe('test');
    expect((await s.agent.get('/api/webhooks').expect(200)).body.data.map((w: any) => w.mode).sort()).toEqual(['live', 'test', 'test']);

    const testPrint = await draft(s.test, s.user._id, 1);
    await http().post(`/api/print/${testPrint._id}/process`).set(s.test).send({ settings: SETTINGS }).expect(201);
    await waitDone(s.agent, testPrint._id);
    const [hook] = await waitFor(async () => receiver.at('/tk/test').length > 0 && receiver.at('/tk/test'), 30_000, 'the test webhook');
    const event = JSON.parse(hook.body);
    expect(event).toMatchObject({ type: 'print.completed', livemode: false, data: { printId: testPrint._id, test: true } });
    await waitFor(async () => receiver.at('/tk/test2').length > 0, 30_000, 'the second test webhook');

    const livePrint = await draft(s.live, s.user._id, 1);
    await http().post(`/api/print/${livePrint._id}/process`).set(s.live).send({ settings: SETTINGS }).expect(201);
    await waitDone(s.agent, livePrint._id);
    const [liveDelivery] = await waitFor(async () => receiver.at('/tk/live').length > 0 && receiver.at('/tk/live'), 30_000, 'the live webhook');
    expect(JSON.parse(liveDelivery.body)).toMatchObject({ type: 'print.completed', livemode: true, data: { printId: livePrint._id, test: false } });
    // give a stray delivery time to arrive: there must be none
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.at('/tk/live').map((h) => JSON.parse(h.body).data.printId)).toEqual([livePrint._id]);
    expect(receiver.at('/tk/test').map((h) => JSON.parse(h.body).data.printId)).toEqual([testPrint._id]);

    // the catch-up list: a test key sees the test events, a session and a live key the live ones
    const testEvents = (await http().get('/api/events').set(s.test).expect(200)).body.data;
    expect(testEvents.map((e: any) => [e.type, e.livemode, e.data.printId])).toEqual([['print.completed', false, testPrint._id]]);
    expect(testEvents[0].id).toBe(event.id);
    for (const auth of [s.live, null]) {
      const res = auth ? await http().get('/api/events').set(auth).expect(200) : await s.agent.get('/api/events').expect(200);
      expect(res.body.data.map((e: any) => [e.type, e.livemode, e.data.printId])).toEqual([['print.completed', true, livePrint._id]]);
    }
    // a cursor of the other mode is not one of this list's events
    expect((await http().get(`/api/events?after=${testEvents[0].id}`).set(s.live).expect(400)).body.code).toBe('invalid_cursor');

    // a ping carries its endpoint's mode
    await http().post(`/api/webhooks/${testHook._id}/test`).set(s.test).expect(200);
    const ping = await waitFor(async () => receiver.at('/tk/test').find((h) => JSON.parse(h.body).type === 'ping'), 30_000, 'the ping');
    expect(JSON.parse(ping.body).livemode).toBe(false);
  });

  it('a test key cannot buy credits or act on shops, orders and production (403 test_mode_not_supported); reading works', async () => {
    const s = await seller('tk_refused');
    const [{ id: shop }] = await db.query(`INSERT INTO integrations (user_id, name, type, connected) VALUES ($1, 'Shop', 'WordPress', true) RETURNING id`, [s.user._id]);
    const refused: Array<[string, string, object?]> = [
      ['post', '/api/buyCredits', { sku: 'credits500' }],
      ['post', '/api/payment/bank-transfer', { sku: 'credits500' }],
      ['post', '/api/integrations', { name: 'x', type: 'WordPress', url: 'https://shop.example.com' }],
      ['put', `/api/integrations/${shop}`, { name: 'y' }],
      ['delete', `/api/integrations/${shop}`],
      ['get', `/api/integrations/${shop}/orders`],
      ['get', `/api/integrations/${shop}/auth`],
      ['post', '/api/orders/print', { items: [] }],
      ['post', '/api/orders/review', {}],
      ['put', '/api/production/settings', {}],
      ['post', '/api/production/batches', {}],
    ];
    for (const [method, path, body] of refused) {
      const req = (http() as any)[method](path).set(s.test);
      const res = await (body ? req.send(body) : req);
      expect([method, path, res.status, res.body.code]).toEqual([method, path, 403, 'test_mode_not_supported']);
      expect(res.body.message).toBe('Test keys cannot buy credits or work with shops, orders and production. Use a live key for this.');
    }
    for (const path of ['/api/payment/packages', '/api/payment', '/api/integrations', '/api/orders', '/api/production/queue']) await http().get(path).set(s.test).expect(200);
    // the live key is not refused there (a validation or business answer, not test_mode_not_supported)
    const live = await http().post('/api/buyCredits').set(s.live).send({ sku: 'credits500' });
    expect(live.body.code).not.toBe('test_mode_not_supported');
    // nothing was bought
    expect(await credits(s.agent)).toEqual({ availableCredits: 0, usedCredits: 0 });
  });
});
