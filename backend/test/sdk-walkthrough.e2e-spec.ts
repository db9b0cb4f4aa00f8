import { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { walkthrough } from '../../sdk/examples/walkthrough';
import { createGangSheet, downloadFile, GangSheetError, ok, verifyWebhook } from '../../sdk/src';
import { WebhookReceiver } from './fakes/webhook-receiver';
import { setCredits, waitFor } from './prints.fixtures';
import { pdfText } from './utils/raster';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/** The SDK (sdk/) against the real server over HTTP: the walk-through of docs/api.md and its helpers. */
describe('TypeScript SDK (e2e)', () => {
  let t: TestApp;
  let baseUrl: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  async function seller(name: string, credits: number, mode: 'live' | 'test' = 'live') {
    const s = await signUpAndLogin(t, name);
    if (credits) await setCredits(t, await adminAgent(t), s.user._id, credits);
    const apiKey = (await s.agent.post('/api/api-keys').send({ name: 'sdk', scope: 'read-write', mode }).expect(201)).body.data.secret as string;
    return { ...s, apiKey };
  }

  /** Opaque pixels outside the art's colour: the watermark over the art or the film. */
  async function watermarked(png: Uint8Array): Promise<number> {
    const { data } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    let n = 0;
    // the art is #d01030 on transparent film; the watermark is a translucent red of its own
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && !(data[i] === 0xd0 && data[i + 1] === 0x10 && data[i + 2] === 0x30)) n++;
    return n;
  }


  const art = () =>
    sharp({ create: { width: 600, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: { create: { width: 500, height: 200, channels: 4, background: '#d01030' } }, left: 50, top: 50 }])
      .png()
      .toBuffer();

  it('runs the walk-through with a test key: upload, size, print, process as PNG and PDF, wait, download every file; 0 credits spent, files watermarked', async () => {
    const s = await seller('sdkwalker', 10, 'test');
    expect(s.apiKey).toMatch(/^gsk_test_/);
    const opts = { baseUrl, apiKey: s.apiKey };
    const result = await walkthrough(opts, new Uint8Array(await art()));
    expect(result.status).toBe('Completed');
    expect(result.files.map((f) => f.format)).toEqual(['png', 'pdf']);
    for (const f of result.files) expect(f.bytes).toBeGreaterThan(1000);
    // a test key spends nothing: the 10 credits are all there
    expect(result.credits).toEqual({ availableCredits: 10, usedCredits: 0 });
    const { data: print } = await ok(createGangSheet(opts).GET('/api/print/{id}', { params: { path: { id: result.printId } } }));
    expect(print).toMatchObject({ test: true, creditCost: 0 });
    const png = print.fileId.find((f) => f.format === 'png')!;
    const pdf = print.fileId.find((f) => f.format === 'pdf')!;
    expect(await watermarked(new Uint8Array(await downloadFile(opts, png.path)))).toBeGreaterThan(1000);
    expect(pdfText(new Uint8Array(await downloadFile(opts, pdf.path)))).toContain('TEST');
  });

  it('runs the walk-through with a live key: 4 credits spent, no watermark', async () => {
    const s = await seller('sdklive', 10);
    const opts = { baseUrl, apiKey: s.apiKey };
    const result = await walkthrough(opts, new Uint8Array(await art()));
    expect(result.status).toBe('Completed');
    expect(result.credits).toEqual({ availableCredits: 6, usedCredits: 4 });
    const { data: print } = await ok(createGangSheet(opts).GET('/api/print/{id}', { params: { path: { id: result.printId } } }));
    expect(print.test).toBe(false);
    const png = print.fileId.find((f) => f.format === 'png')!;
    const pdf = print.fileId.find((f) => f.format === 'pdf')!;
    expect(await watermarked(new Uint8Array(await downloadFile(opts, png.path)))).toBeLessThan(50);
    expect(pdfText(new Uint8Array(await downloadFile(opts, pdf.path)))).not.toContain('TEST');
  });

  it('errors carry the code, message, fields and request id; webhooks verify with verifyWebhook', async () => {
    const s = await seller('sdkerrors', 0);
    const gs = createGangSheet({ baseUrl, apiKey: s.apiKey });
    const refused = await ok(gs.POST('/api/sizes', { body: { name: '', value: -1 } })).catch((e) => e);
    expect(refused).toBeInstanceOf(GangSheetError);
    expect(refused).toMatchObject({ status: 400, code: 'validation_failed', requestId: expect.any(String) });
    expect(refused.errors.map((e: { field: string }) => e.field).sort()).toEqual(['name', 'value']);

    const { data: hook } = await ok(gs.POST('/api/webhooks', { body: { url: receiver.url('/sdk'), events: ['print.completed'] } }));
    await ok(gs.POST('/api/webhooks/{id}/test', { params: { path: { id: hook._id } } }));
    const [ping] = await waitFor(async () => receiver.at('/sdk').length > 0 && receiver.at('/sdk'), 30_000, 'ping');
    const header = String(ping.headers['gangsheet-signature']);
    expect(verifyWebhook(hook.secret, header, ping.body)).toBe(true);
    expect(verifyWebhook(hook.secret, header, ping.body.replace('Test', 'test'))).toBe(false);
    expect(verifyWebhook('whsec_other', header, ping.body)).toBe(false);
  });
});
