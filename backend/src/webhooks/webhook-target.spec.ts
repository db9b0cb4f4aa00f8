import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { checkWebhookUrl, publicOnlyLookup } from './webhook-target';
import { sendWebhook, signature } from './webhook-sender';

describe('webhook targets', () => {
  it('refuses loopback and private hosts unless allowed, and non-http URLs', async () => {
    await expect(checkWebhookUrl('http://127.0.0.1:9/x', false)).rejects.toThrow('Webhook URLs must point to a public address; 127.0.0.1 resolves to 127.0.0.1');
    await expect(checkWebhookUrl('http://localhost/x', false)).rejects.toThrow(/must point to a public address/);
    await expect(checkWebhookUrl('http://[::1]/x', false)).rejects.toThrow(/public address/);
    await expect(checkWebhookUrl('http://[::ffff:127.0.0.1]/x', false)).rejects.toThrow(/public address/);
    await expect(checkWebhookUrl('http://10.0.0.5/x', false)).rejects.toThrow(/public address/);
    // Embedded IPv4: IPv4-compatible (::/96), NAT64, 6to4, Teredo
    for (const host of ['[::127.0.0.1]', '[::7f00:1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::1]', '[2001:0:4136:e378:8000:63bf:3fff:fdd2]'])
      await expect(checkWebhookUrl(`http://${host}:3450/h`, false)).rejects.toThrow(/must point to a public address/);
    await expect(checkWebhookUrl('ftp://example.com/x', false)).rejects.toThrow('The URL must start with https:// or http://');
    await expect(checkWebhookUrl('https://user:pw@example.com/x', false)).rejects.toThrow(/user name or password/);
    await expect(checkWebhookUrl('nonsense', false)).rejects.toThrow(/valid URL/);
    await expect(checkWebhookUrl('http://127.0.0.1:9/x', true)).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookUrl('https://93.184.216.34/hook', false)).resolves.toBeInstanceOf(URL);
  });

  it('an endpoint with a literal non-public address saved earlier is not delivered to', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '::', r));
    const port = (server.address() as { port: number }).port;
    try {
      const refused = await sendWebhook(`http://[::ffff:127.0.0.1]:${port}/h`, '{}', {}, { timeoutMs: 2000, allowPrivate: false });
      expect(refused).toEqual({ ok: false, status: null, error: '::ffff:7f00:1 is not a public address' });
      expect(hits).toBe(0);
      expect(await sendWebhook(`http://[::ffff:127.0.0.1]:${port}/h`, '{}', {}, { timeoutMs: 2000, allowPrivate: true })).toMatchObject({ ok: true, status: 200 });
      expect(hits).toBe(1);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('the connection-time lookup refuses a name that resolves to loopback', async () => {
    const lookup = publicOnlyLookup(false);
    const err = await new Promise<Error | null>((resolve) => lookup('localhost', {}, (e) => resolve(e)));
    expect(err?.message).toMatch(/non-public address/);
    const ok = await new Promise<Error | null>((resolve) => publicOnlyLookup(true)('localhost', {}, (e) => resolve(e)));
    expect(ok).toBeNull();
  });

  it('signature: t=<seconds>,v1=HMAC-SHA256(secret, "t.body")', () => {
    const body = '{"id":"1"}';
    const expected = createHmac('sha256', 'whsec_x').update(`1700000000.${body}`).digest('hex');
    expect(signature('whsec_x', 1700000000, body)).toBe(`t=1700000000,v1=${expected}`);
  });
});
