import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { WebhookReceiver } from './fakes/webhook-receiver';
import { addDesign, addSize, binary, setCredits, waitDone, waitFor } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * docs/api.md, step by step, as an integrator's script does it: after the key is created on
 * the profile (a signed-in browser), every request carries only `Authorization: Bearer` —
 * no cookie, no Origin, no X-Requested-With. Keep this file and the guide in step.
 */
describe('API walk-through of docs/api.md (e2e)', () => {
  let t: TestApp;
  let db: DataSource;
  let receiver: WebhookReceiver;
  let http: () => ReturnType<typeof request>;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    db = t.app.get(DataSource);
    const server = t.app.getHttpServer();
    http = () => request(server);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  it('key → upload → size → print → process → webhook and poll → download', async () => {
    // 0. A seller with credits (bought on the Credits page, or granted by an admin)
    const seller = await signUpAndLogin(t, 'walker');
    await setCredits(t, await adminAgent(t), seller.user._id, 20);

    // 1. Profile → API keys → Create key (read-write)
    const created = await seller.agent.post('/api/api-keys').send({ name: 'Shop backend', scope: 'read-write' }).expect(201);
    const KEY = created.body.data.secret as string;
    const auth = { Authorization: `Bearer ${KEY}` };
    const me = await http().get('/api/profile').set(auth).expect(200);
    expect(me.body.data.credit.availableCredits).toBe(20);

    // 2. Register the webhook endpoint and keep its signing secret
    const hook = await http()
      .post('/api/webhooks')
      .set(auth)
      .send({ url: receiver.url('/gangsheet'), events: ['print.completed', 'print.failed'] })
      .expect(201);
    const WHSEC = hook.body.data.secret as string;

    // 3. Upload artwork (multipart, field "files"); the preview/inspection runs in the background
    const art = await sharp({ create: { width: 600, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: await sharp({ create: { width: 500, height: 200, channels: 4, background: '#d01030' } }).png().toBuffer(), left: 50, top: 50 }])
      .png()
      .toBuffer();
    const up = await http().post('/api/images/bulk-upload').set(auth).set('Idempotency-Key', randomUUID()).attach('files', art, 'logo.png').expect(201);
    const IMAGE = up.body.data[0]._id as string;
    expect(up.body.data[0].status).toBe('processing');

    // 4. Create a size: the printed width in inches
    const size = await http().post('/api/sizes').set(auth).send({ name: 'Adult front', value: 11 }).expect(201);
    const SIZE = size.body.data._id as string;

    // 5. Create the print and (optionally) preview its layout and cost
    const print = await http()
      .post('/api/print')
      .set(auth)
      .set('Idempotency-Key', randomUUID())
      .send({ printItems: [{ imageId: IMAGE, sizeId: SIZE, quantity: 4 }] })
      .expect(201);
    const PRINT = print.body.data._id as string;
    expect(print.body.data.status).toBe('In Draft');

    // 6. Process it at once: a print whose images are still being inspected waits for them
    const processed = await http().post(`/api/print/${PRINT}/process`).set(auth).set('Idempotency-Key', randomUUID()).send({}).expect(201);
    expect(processed.body.data.status).toBe('Processing');

    // 7a. Receive the webhook, verify its signature
    const [received] = await waitFor(async () => receiver.at('/gangsheet').length > 0 && receiver.at('/gangsheet'), 90_000, 'print.completed');
    const sig = Object.fromEntries(String(received.headers['gangsheet-signature']).split(',').map((p) => p.split('=')));
    const expected = createHmac('sha256', WHSEC).update(`${sig.t}.${received.body}`).digest();
    expect(timingSafeEqual(Buffer.from(sig.v1, 'hex'), expected)).toBe(true);
    const event = JSON.parse(received.body);
    expect(event.type).toBe('print.completed');
    expect(event.data.printId).toBe(PRINT);

    // 7b. …or poll the print until it leaves Processing
    const done = (await http().get(`/api/print/${PRINT}`).set(auth).expect(200)).body.data;
    expect(done.status).toBe('Completed');
    expect(done.fileId).toHaveLength(event.data.files.length);

    // 8. Download the sheet
    const sheet = await http().get(new URL(event.data.files[0].url).pathname).set(auth).buffer(true).parse(binary).expect(200);
    const meta = await sharp(sheet.body as Buffer).metadata();
    expect(meta).toMatchObject({ format: 'png', density: 300, hasAlpha: true });
    expect(meta.width).toBe(22 * 300);
    const after = await http().get('/api/profile').set(auth).expect(200);
    expect(after.body.data.credit).toEqual({ availableCredits: 16, usedCredits: 4 });
  });

  it('processing a print whose image is still being inspected: the job waits, then renders', async () => {
    const s = await signUpAndLogin(t, 'early');
    await setCredits(t, await adminAgent(t), s.user._id, 5);
    const image = await addDesign(t, s.user._id, { name: 'late' });
    const size = await addSize(t, s.user._id, 'Adult', 2);
    const trim = image.trim;
    await db.query(`UPDATE images SET status = 'processing', trim = NULL WHERE id = $1`, [image._id]);
    const print = await s.agent.post('/api/print').send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 1 }] }).expect(201);
    const started = await s.agent.post(`/api/print/${print.body.data._id}/process`).send({}).expect(201);
    expect(started.body.data.status).toBe('Processing');
    await new Promise((r) => setTimeout(r, 1500));
    expect((await s.agent.get(`/api/print/${print.body.data._id}`).expect(200)).body.data.status).toBe('Processing');
    await db.query(`UPDATE images SET status = 'ready', trim = $2 WHERE id = $1`, [image._id, JSON.stringify(trim)]);
    expect((await waitDone(s.agent, print.body.data._id)).status).toBe('Completed');
  });
});
