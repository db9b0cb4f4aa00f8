import { createHmac, timingSafeEqual } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { CreditsService } from '../src/credits/credits.service';
import { DeliveryLivemode1765000900000 } from '../src/database/migrations/1765000900000-DeliveryLivemode';
import { WebhookReceiver } from './fakes/webhook-receiver';
import { addDesign, addSize, binary, setCredits, waitDone, waitFor } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/** The verification docs/api.md tells integrators to do, written the same way. */
function verify(secret: string, header: string, body: string, toleranceSeconds = 300): boolean {
  const parts = header.split(',').map((p) => p.split('=') as [string, string]);
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!t || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  // one v1 per signing secret: two while a rolled secret's overlap lasts
  return parts.some(([k, v]) => {
    const given = Buffer.from(k === 'v1' ? v : '', 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

describe('Webhooks (e2e)', () => {
  let t: TestApp;
  let db: DataSource;
  let admin: any;
  let receiver: WebhookReceiver;
  let http: () => ReturnType<typeof request>;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    // A 4 s retry window with 200 ms backoff keeps the give-up test short; the receiver is on
    // 127.0.0.1, which only WEBHOOK_ALLOW_PRIVATE permits.
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_WINDOW_SECONDS: '4', WEBHOOK_BACKOFF_SECONDS: '0.2', WEBHOOK_TIMEOUT_MS: '2000' });
    db = t.app.get(DataSource);
    admin = await adminAgent(t);
    const server = t.app.getHttpServer();
    http = () => request(server);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  async function integrator(name: string, credits = 0) {
    const s = await signUpAndLogin(t, name);
    if (credits) await setCredits(t, admin, s.user._id, credits);
    const key = (await s.agent.post('/api/api-keys').send({ name: 'script', scope: 'read-write' }).expect(201)).body.data.secret as string;
    return { ...s, auth: { Authorization: `Bearer ${key}` } };
  }

  async function endpoint(auth: Record<string, string>, path: string, events = ['print.completed', 'print.failed']) {
    const res = await http().post('/api/webhooks').set(auth).send({ url: receiver.url(path), events, description: 'test' }).expect(201);
    return res.body.data as { _id: string; secret: string };
  }

  const deliveries = async (auth: Record<string, string>, id: string) => (await http().get(`/api/webhooks/${id}/deliveries`).set(auth).expect(200)).body.data;

  it('print.completed: signed, verifiable, with file URLs (downloadable with the key) and their expiry', async () => {
    const s = await integrator('hooked', 10);
    const ep = await endpoint(s.auth, '/completed');
    expect(ep.secret).toMatch(/^whsec_/);
    expect((await http().get('/api/webhooks').set(s.auth).expect(200)).body.data[0].secret).toBeUndefined();
    const image = await addDesign(t, s.user._id);
    const size = await addSize(t, s.user._id, 'Adult', 2);
    const print = await http().post('/api/print').set(s.auth).send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 2 }] }).expect(201);
    await http().post(`/api/print/${print.body.data._id}/process`).set(s.auth).send({}).expect(201);
    expect((await waitDone(s.agent, print.body.data._id)).status).toBe('Completed');
    const [hook] = await waitFor(async () => receiver.at('/completed').length > 0 && receiver.at('/completed'), 30_000, 'webhook');
    expect(hook.headers['gangsheet-event']).toBe('print.completed');
    expect(verify(ep.secret, String(hook.headers['gangsheet-signature']), hook.body)).toBe(true);
    expect(verify('whsec_wrong', String(hook.headers['gangsheet-signature']), hook.body)).toBe(false);
    expect(verify(ep.secret, String(hook.headers['gangsheet-signature']), hook.body.replace('Completed', 'completed'))).toBe(false);
    const event = JSON.parse(hook.body);
    expect(event).toMatchObject({ type: 'print.completed', data: { printId: print.body.data._id, status: 'Completed' } });
    const printedAt = new Date(event.data.printedAt).getTime();
    expect(new Date(event.data.filesExpireAt).getTime() - printedAt).toBe(7 * 86_400_000);
    expect(event.data.files).toHaveLength(1);
    const url = new URL(event.data.files[0].url);
    expect(url.pathname).toBe(`/api/print/${print.body.data._id}/files/1`);
    const file = await http().get(url.pathname).set(s.auth).buffer(true).parse(binary).expect(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect((file.body as Buffer).length).toBe(event.data.files[0].bytes);
    const log = await deliveries(s.auth, ep._id);
    expect(log[0]).toMatchObject({ event: 'print.completed', status: 'succeeded', attempts: 1, lastStatusCode: 200, eventId: event.id });
  });

  it('print.completed lists every file by format with a working URL (PDF only; PNG + PDF); the events list has the same event', async () => {
    const s = await integrator('formats', 10);
    await endpoint(s.auth, '/formats');
    const image = await addDesign(t, s.user._id);
    const size = await addSize(t, s.user._id, 'Adult', 2);
    const completed = async (formats: string[]) => {
      const before = receiver.at('/formats').length;
      const print = await http().post('/api/print').set(s.auth).send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 1 }] }).expect(201);
      await http().post(`/api/print/${print.body.data._id}/process`).set(s.auth).send({ settings: { formats } }).expect(201);
      expect((await waitDone(s.agent, print.body.data._id)).status).toBe('Completed');
      const hits = await waitFor(async () => receiver.at('/formats').length > before && receiver.at('/formats'), 30_000, 'webhook');
      return { printId: print.body.data._id as string, event: JSON.parse(hits.at(-1)!.body) };
    };
    const fetched = async (url: string) => {
      const res = await http().get(new URL(url).pathname).set(s.auth).buffer(true).parse(binary).expect(200);
      return { type: res.headers['content-type'], bytes: (res.body as Buffer).length };
    };

    const pdfOnly = await completed(['pdf']);
    expect(pdfOnly.event.data.files).toEqual([
      expect.objectContaining({ format: 'pdf', sheet: 1, n: 1, url: expect.stringMatching(new RegExp(`/api/print/${pdfOnly.printId}/files/1/pdf$`)) }),
    ]);
    const pdf = pdfOnly.event.data.files[0];
    expect(pdf.pageWidthIn).toBeCloseTo(22, 1);
    expect(pdf.pageHeightIn).toBe(pdf.lengthIn);
    expect(pdf.widthPx).toBeUndefined();
    expect(await fetched(pdf.url)).toEqual({ type: 'application/pdf', bytes: pdf.bytes });

    const both = await completed(['png', 'pdf']);
    expect(both.event.data.files.map((f: any) => [f.format, f.sheet])).toEqual([['png', 1], ['pdf', 1]]);
    for (const f of both.event.data.files) expect(await fetched(f.url)).toEqual({ type: f.format === 'png' ? 'image/png' : 'application/pdf', bytes: f.bytes });
    expect(both.event.data.files[0]).toMatchObject({ widthPx: expect.any(Number), heightPx: expect.any(Number) });

    // The catch-up list: the same events with the same ids, oldest first, paged by cursor.
    const all = (await http().get('/api/events?type=print.completed').set(s.auth).expect(200)).body;
    expect(all.hasMore).toBe(false);
    expect(all.data.map((e: any) => e.id)).toEqual([pdfOnly.event.id, both.event.id]);
    expect(all.data[1]).toEqual(both.event);
    const first = (await http().get('/api/events?type=print.completed&limit=1').set(s.auth).expect(200)).body;
    expect(first).toEqual({ data: [pdfOnly.event], hasMore: true });
    const next = (await http().get(`/api/events?type=print.completed&limit=1&after=${pdfOnly.event.id}`).set(s.auth).expect(200)).body;
    expect(next).toEqual({ data: [both.event], hasMore: false });
    const bad = await http().get('/api/events?after=00000000-0000-4000-8000-000000000000').set(s.auth).expect(400);
    expect(bad.body).toMatchObject({ code: 'invalid_cursor', message: expect.stringContaining('Events are kept for 30 days') });
    expect((await http().get('/api/events?type=print.exploded').set(s.auth).expect(400)).body.code).toBe('validation_failed');
    // another seller sees none of them, and cannot page from this seller's event
    const other = await integrator('formats-other');
    expect((await http().get('/api/events').set(other.auth).expect(200)).body).toEqual({ data: [], hasMore: false });
    await http().get(`/api/events?after=${pdfOnly.event.id}`).set(other.auth).expect(400);
  });

  it('print.cancelled when the seller stops processing; events are listed without a webhook endpoint too', async () => {
    const s = await integrator('stopper', 5);
    const image = await addDesign(t, s.user._id, { name: 'slow' });
    const size = await addSize(t, s.user._id, 'Adult', 2);
    // The job waits for the image to be ready, so the print stays Processing until cancelled.
    await db.query(`UPDATE images SET status = 'processing' WHERE id = $1`, [image._id]);
    const print = await http()
      .post('/api/print')
      .set(s.auth)
      .send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 2 }], externalId: 'po-77', metadata: { customer: 'Acme' } })
      .expect(201);
    await http().post(`/api/print/${print.body.data._id}/process`).set(s.auth).send({}).expect(201);
    await http().post(`/api/print/${print.body.data._id}/cancel`).set(s.auth).expect(200);
    const events = (await http().get('/api/events').set(s.auth).expect(200)).body.data;
    expect(events).toEqual([
      {
        id: expect.any(String),
        type: 'print.cancelled',
        createdAt: expect.any(String),
        livemode: true,
        data: { printId: print.body.data._id, status: 'In Draft', creditsRefunded: true, externalId: 'po-77', metadata: { customer: 'Acme' }, test: false },
      },
    ]);
    expect((await http().get('/api/profile').set(s.auth).expect(200)).body.data.credit.availableCredits).toBe(5);
  });

  it('payment.completed: once per completed payment, however often the buyer returns', async () => {
    const s = await integrator('buyer');
    const ep = await endpoint(s.auth, '/paid', ['payment.completed']);
    const bought = (await s.agent.post('/api/buyCredits').send({ sku: 'credits500' }).expect(200)).body.data;
    const page = await s.agent.get(bought.link).expect(200);
    const approve = page.text.match(/id="approve" href="([^"]+)"/)![1].replace(/&amp;/g, '&');
    await s.agent.get(approve).expect(302);
    await s.agent.get(approve).expect(302);
    const [hook] = await waitFor(async () => receiver.at('/paid').length > 0 && receiver.at('/paid'), 30_000, 'webhook');
    expect(hook.headers['gangsheet-event']).toBe('payment.completed');
    expect(verify(ep.secret, String(hook.headers['gangsheet-signature']), hook.body)).toBe(true);
    expect(JSON.parse(hook.body)).toMatchObject({
      type: 'payment.completed',
      data: { paymentId: bought.paymentId, credits: 500, amount: '50.00', currency: 'USD' },
    });
    // the second return changed nothing, so nothing more is sent
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.at('/paid')).toHaveLength(1);
    expect(await deliveries(s.auth, ep._id)).toHaveLength(1);
  });

  it('retries after 500s with backoff until a 2xx', async () => {
    const s = await integrator('flaky');
    const ep = await endpoint(s.auth, '/flaky');
    receiver.respond = (path, n) => (path === '/flaky' && n < 2 ? 500 : 200);
    const sent = await http().post(`/api/webhooks/${ep._id}/test`).set(s.auth).expect(200);
    expect(sent.body.data).toMatchObject({ event: 'ping', status: 'pending' });
    const d = await waitFor(async () => (await deliveries(s.auth, ep._id)).find((x: any) => x.status !== 'pending'), 20_000, 'delivery');
    expect(d).toMatchObject({ status: 'succeeded', attempts: 3, lastStatusCode: 200 });
    const hits = receiver.at('/flaky');
    expect(hits).toHaveLength(3);
    // the same event (id) each time, later attempts further apart
    expect(new Set(hits.map((h) => JSON.parse(h.body).id)).size).toBe(1);
    expect(hits[2].at - hits[1].at).toBeGreaterThan(hits[1].at - hits[0].at);
    for (const h of hits) expect(verify(ep.secret, String(h.headers['gangsheet-signature']), h.body)).toBe(true);
  });

  it('gives up when the retry window has passed; redeliver sends it again and logs the new status', async () => {
    const s = await integrator('down');
    const ep = await endpoint(s.auth, '/down');
    receiver.respond = (path) => (path === '/down' ? 503 : 200);
    await http().post(`/api/webhooks/${ep._id}/test`).set(s.auth).expect(200);
    const d = await waitFor(async () => (await deliveries(s.auth, ep._id)).find((x: any) => x.status === 'failed'), 30_000, 'give-up');
    expect(d.lastStatusCode).toBe(503);
    expect(d.attempts).toBeGreaterThanOrEqual(3);
    const firstTry = receiver.at('/down')[0].at;
    const lastTry = receiver.at('/down').at(-1)!.at;
    expect(lastTry - firstTry).toBeGreaterThanOrEqual(3000);
    const attempts = receiver.at('/down').length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.at('/down')).toHaveLength(attempts); // no more tries after giving up

    receiver.respond = () => 200;
    const re = await http().post(`/api/webhooks/deliveries/${d._id}/redeliver`).set(s.auth).expect(200);
    expect(re.body.data).toMatchObject({ status: 'succeeded', lastStatusCode: 200, attempts: attempts + 1 });
    expect(re.body.message).toBe('Delivered (HTTP 200)');
    expect(re.body.data.lastAttemptOk).toBe(true);
    expect(receiver.at('/down')).toHaveLength(attempts + 1);
    expect(JSON.parse(receiver.at('/down').at(-1)!.body).id).toBe(d.eventId);

    // A delivery that once succeeded reports this attempt's outcome when the receiver is down again.
    receiver.respond = (path) => (path === '/down' ? 503 : 200);
    const again = await http().post(`/api/webhooks/deliveries/${d._id}/redeliver`).set(s.auth).expect(200);
    expect(again.body.message).toBe('Not delivered: HTTP 503');
    expect(again.body.data).toMatchObject({ lastAttemptOk: false, lastStatusCode: 503, attempts: attempts + 2 });
    receiver.respond = () => 200;
  });

  it('a delivery recorded before endpoints had a mode is redelivered with livemode: true (its migration)', async () => {
    const s = await integrator('oldhook');
    const ep = await endpoint(s.auth, '/old');
    await http().post(`/api/webhooks/${ep._id}/test`).set(s.auth).expect(200);
    const d = await waitFor(async () => (await deliveries(s.auth, ep._id)).find((x: any) => x.status === 'succeeded'), 30_000, 'ping delivered');
    // as such a delivery was stored: an envelope without livemode
    await db.query(`UPDATE webhook_deliveries SET payload = payload - 'livemode' WHERE id = $1`, [d._id]);
    const runner = db.createQueryRunner();
    try {
      await new DeliveryLivemode1765000900000().up(runner);
    } finally {
      await runner.release();
    }
    await http().post(`/api/webhooks/deliveries/${d._id}/redeliver`).set(s.auth).expect(200);
    expect(JSON.parse(receiver.at('/old').at(-1)!.body)).toMatchObject({ id: d.eventId, type: 'ping', livemode: true });
  });

  it('print.failed when an image fails inspection after processing started; the print is refunded', async () => {
    const s = await integrator('badart', 5);
    const ep = await endpoint(s.auth, '/failed', ['print.failed']);
    const image = await addDesign(t, s.user._id, { name: 'broken' });
    const size = await addSize(t, s.user._id, 'Adult', 2);
    await db.query(`UPDATE images SET status = 'processing', trim = NULL WHERE id = $1`, [image._id]);
    const print = await http().post('/api/print').set(s.auth).send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 2 }] }).expect(201);
    const started = await http().post(`/api/print/${print.body.data._id}/process`).set(s.auth).send({}).expect(201);
    expect(started.body.data.status).toBe('Processing');
    await db.query(`UPDATE images SET status = 'error', error = 'The preview could not be made' WHERE id = $1`, [image._id]);
    const done = await waitDone(s.agent, print.body.data._id);
    expect(done).toMatchObject({ status: 'Error', error: 'Image "broken" could not be read: The preview could not be made. Please replace it.' });
    const [hook] = await waitFor(async () => receiver.at('/failed').length > 0 && receiver.at('/failed'), 20_000, 'print.failed');
    expect(JSON.parse(hook.body)).toMatchObject({ type: 'print.failed', data: { printId: print.body.data._id, error: done.error, creditsRefunded: true } });
    expect(verify(ep.secret, String(hook.headers['gangsheet-signature']), hook.body)).toBe(true);
    expect((await http().get('/api/profile').set(s.auth).expect(200)).body.data.credit).toEqual({ availableCredits: 5, usedCredits: 0 });
    expect(await t.app.get(CreditsService).consistent(s.user._id)).toBe(true);
  });

  it('rolling the secret: the new one is shown once, both sign during the overlap, then only the new one', async () => {
    const s = await integrator('roller');
    const other = await integrator('roller-b');
    const ep = await endpoint(s.auth, '/rolled', ['print.completed']);
    const roll = (body: object, auth = s.auth) => http().post(`/api/webhooks/${ep._id}/roll-secret`).set(auth).send(body);
    expect((await roll({ overlapHours: 100 }).expect(400)).body.message).toBe('The overlap must be 0 to 72 hours');
    expect((await roll({ overlapHours: 1.5 }).expect(400)).body.message).toBe('The overlap must be a whole number of hours');
    await roll({}, other.auth).expect(404);
    const ping = async (n: number) => {
      await http().post(`/api/webhooks/${ep._id}/test`).set(s.auth).expect(200);
      const hooks = await waitFor(async () => receiver.at('/rolled').length >= n && receiver.at('/rolled'), 20_000, `ping ${n}`);
      const h = hooks[n - 1];
      return { header: String(h.headers['gangsheet-signature']), body: h.body };
    };

    const rolled = (await roll({}).expect(200)).body;
    expect(rolled.message).toBe('Signing secret rolled. Copy the new secret now: it will not be shown again. The old one also signs deliveries for 24 hours.');
    expect(rolled.data.secret).toMatch(/^whsec_/);
    expect(rolled.data.secret).not.toBe(ep.secret);
    expect(Math.abs(Date.parse(rolled.data.previousSecretExpiresAt) - (Date.now() + 24 * 3600_000))).toBeLessThan(60_000);
    const listed = (await http().get('/api/webhooks').set(s.auth).expect(200)).body.data[0];
    expect(listed).toMatchObject({ _id: ep._id, previousSecretExpiresAt: rolled.data.previousSecretExpiresAt });
    expect(listed.secret).toBeUndefined();
    const both = await ping(1);
    expect(both.header.match(/v1=/g)).toHaveLength(2);
    expect(verify(rolled.data.secret, both.header, both.body)).toBe(true);
    expect(verify(ep.secret, both.header, both.body)).toBe(true);
    expect(verify('whsec_wrong', both.header, both.body)).toBe(false);

    // the overlap is over: only the new secret signs
    await db.query(`UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [ep._id]);
    expect((await http().get(`/api/webhooks/${ep._id}`).set(s.auth).expect(200)).body.data.previousSecretExpiresAt).toBeNull();
    const after = await ping(2);
    expect(after.header.match(/v1=/g)).toHaveLength(1);
    expect(verify(rolled.data.secret, after.header, after.body)).toBe(true);
    expect(verify(ep.secret, after.header, after.body)).toBe(false);

    // no overlap: the replaced secret stops signing at once
    const now = (await roll({ overlapHours: 0 }).expect(200)).body;
    expect(now.message).toBe('Signing secret rolled. Copy the new secret now: it will not be shown again. The old one no longer signs deliveries.');
    expect(now.data.previousSecretExpiresAt).toBeNull();
    const last = await ping(3);
    expect(verify(now.data.secret, last.header, last.body)).toBe(true);
    expect(verify(rolled.data.secret, last.header, last.body)).toBe(false);
  });

  it('endpoints are validated, per user, and can be paused and deleted', async () => {
    const a = await integrator('eps-a');
    const b = await integrator('eps-b');
    const ep = await endpoint(a.auth, '/a');
    expect((await http().post('/api/webhooks').set(a.auth).send({ url: 'ftp://x.example', events: ['print.completed'] }).expect(400)).body.code).toBe('invalid_webhook_url');
    expect((await http().post('/api/webhooks').set(a.auth).send({ url: receiver.url('/x'), events: [] }).expect(400)).body.message).toBe('Choose at least one event');
    expect((await http().post('/api/webhooks').set(a.auth).send({ url: receiver.url('/x'), events: ['print.exploded'] }).expect(400)).body.message).toMatch(/Events must be among/);
    await http().get(`/api/webhooks/${ep._id}`).set(b.auth).expect(404);
    await http().get(`/api/webhooks/${ep._id}/deliveries`).set(b.auth).expect(404);
    await http().patch(`/api/webhooks/${ep._id}`).set(b.auth).send({ active: false }).expect(404);
    await http().delete(`/api/webhooks/${ep._id}`).set(b.auth).expect(404);
    await http().post(`/api/webhooks/${ep._id}/test`).set(a.auth).expect(200);
    const [d] = await waitFor(async () => {
      const list = await deliveries(a.auth, ep._id);
      return list.length && list[0].status !== 'pending' && list;
    }, 20_000, 'ping');
    await http().post(`/api/webhooks/deliveries/${d._id}/redeliver`).set(b.auth).expect(404);
    expect((await http().patch(`/api/webhooks/${ep._id}`).set(a.auth).send({ active: false }).expect(200)).body.data.active).toBe(false);
    await http().delete(`/api/webhooks/${ep._id}`).set(a.auth).expect(200);
    await http().get(`/api/webhooks/${ep._id}`).set(a.auth).expect(404);
  });
});
