import { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { walkthrough } from '../../sdk/examples/walkthrough';
import { createGangSheet, GangSheetError, ok, verifyWebhook } from '../../sdk/src';
import { WebhookReceiver } from './fakes/webhook-receiver';
import { setCredits, waitFor } from './prints.fixtures';
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

  async function seller(name: string, credits: number) {
    const s = await signUpAndLogin(t, name);
    if (credits) await setCredits(t, await adminAgent(t), s.user._id, credits);
    const apiKey = (await s.agent.post('/api/api-keys').send({ name: 'sdk', scope: 'read-write' }).expect(201)).body.data.secret as string;
    return { ...s, apiKey };
  }

  const art = () =>
    sharp({ create: { width: 600, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: { create: { width: 500, height: 200, channels: 4, background: '#d01030' } }, left: 50, top: 50 }])
      .png()
      .toBuffer();

  it('runs the walk-through: upload, size, print, process as PNG and PDF, wait, download every file', async () => {
    const s = await seller('sdkwalker', 10);
    const result = await walkthrough({ baseUrl, apiKey: s.apiKey }, new Uint8Array(await art()));
    expect(result.status).toBe('Completed');
    expect(result.files.map((f) => f.format)).toEqual(['png', 'pdf']);
    for (const f of result.files) expect(f.bytes).toBeGreaterThan(1000);
    expect(result.credits).toEqual({ availableCredits: 6, usedCredits: 4 });
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
