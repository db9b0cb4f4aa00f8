import { checkPublicHost, checkUrl } from './safe-http';

describe('safe-http', () => {
  it('checkUrl: https only, no credentials, no literal private IPs unless allowed', () => {
    expect(() => checkUrl('http://shop.example.com', false)).toThrow('Only https://');
    expect(() => checkUrl('https://127.0.0.1/x.png', false)).toThrow('private or loopback');
    // IPv6 literals that carry a private IPv4 address (the URL parser writes [::127.0.0.1] as [::7f00:1])
    for (const host of ['[::127.0.0.1]', '[::ffff:10.0.0.1]', '[64:ff9b::a9fe:a9fe]', '[2002:a00:1::1]', '[::169.254.169.254]'])
      expect(() => checkUrl(`https://${host}/x.png`, false)).toThrow('private or loopback');
    expect(() => checkUrl('https://u:p@shop.example.com', false)).toThrow('credentials');
    expect(() => checkUrl('file:///etc/passwd', true)).toThrow('Only https://');
    expect(checkUrl('http://127.0.0.1:8080/x.png', true).port).toBe('8080');
  });

  it('checkPublicHost: a name that resolves to loopback is refused before anything is saved', async () => {
    await expect(checkPublicHost('https://localhost/', false)).rejects.toThrow('Refused to connect to localhost: private or loopback address');
    await expect(checkPublicHost('https://10.0.0.1/', false)).rejects.toThrow('private or loopback');
    await expect(checkPublicHost('https://localhost/', true)).resolves.toBeUndefined();
  });
});

describe('safeRequest', () => {
  const { safeRequest } = require('./safe-http') as typeof import('./safe-http');
  const http = require('node:http') as typeof import('node:http');
  let server: import('node:http').Server;
  let port = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/big') return void res.end(Buffer.alloc(5000));
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2000);
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  const opts = { timeoutMs: 500, maxBytes: 1000, allowPrivate: true };

  it('refuses loopback through a host name too (the resolved address is checked) unless allowed', async () => {
    await expect(safeRequest(`http://localhost:${port}/`, { ...opts, allowPrivate: false })).rejects.toThrow(/Only https/);
    await expect(safeRequest(`https://localhost:${port}/`, { ...opts, allowPrivate: false })).rejects.toThrow(/private or loopback/);
    expect((await safeRequest(`http://localhost:${port}/`, opts)).body.toString()).toBe('ok');
  });

  it('enforces the size limit and the deadline', async () => {
    await expect(safeRequest(`http://127.0.0.1:${port}/big`, opts)).rejects.toThrow('The file is too large');
    await expect(safeRequest(`http://127.0.0.1:${port}/slow`, opts)).rejects.toThrow('No answer within');
  });
});
