import { createHmac } from 'node:crypto';
import { checkWebhookUrl, isPrivateAddress, publicOnlyLookup } from './webhook-target';
import { signature } from './webhook-sender';

describe('webhook targets', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', 'not-an-ip'])(
    '%s is not public',
    (a) => expect(isPrivateAddress(a)).toBe(true),
  );
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '::ffff:808:808'])('%s is public', (a) => expect(isPrivateAddress(a)).toBe(false));

  it('refuses loopback and private hosts unless allowed, and non-http URLs', async () => {
    await expect(checkWebhookUrl('http://127.0.0.1:9/x', false)).rejects.toThrow('Webhook URLs must point to a public address; 127.0.0.1 resolves to 127.0.0.1');
    await expect(checkWebhookUrl('http://localhost/x', false)).rejects.toThrow(/must point to a public address/);
    await expect(checkWebhookUrl('http://[::1]/x', false)).rejects.toThrow(/public address/);
    await expect(checkWebhookUrl('http://[::ffff:127.0.0.1]/x', false)).rejects.toThrow(/public address/);
    await expect(checkWebhookUrl('http://10.0.0.5/x', false)).rejects.toThrow(/public address/);
    await expect(checkWebhookUrl('ftp://example.com/x', false)).rejects.toThrow('The URL must start with https:// or http://');
    await expect(checkWebhookUrl('https://user:pw@example.com/x', false)).rejects.toThrow(/user name or password/);
    await expect(checkWebhookUrl('nonsense', false)).rejects.toThrow(/valid URL/);
    await expect(checkWebhookUrl('http://127.0.0.1:9/x', true)).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookUrl('https://93.184.216.34/hook', false)).resolves.toBeInstanceOf(URL);
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
