import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * siteverify for reCAPTCHA v2 (/recaptcha/api/siteverify, form-encoded only) and Turnstile
 * (/turnstile/v0/siteverify, form or JSON), as in shared/reference/external-apis.md §4:
 * the published always-pass test secrets succeed, a token is single-use
 * (timeout-or-duplicate), an empty one gives missing-input-response, and tokens listed in
 * `rejected` are invalid-input-response.
 */
export const RECAPTCHA_TEST_SECRET = '6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe';
export const TURNSTILE_PASS_SECRET = '1x0000000000000000000000000000000AA';

export class FakeCaptcha {
  private server: Server;
  private readonly seen = new Set<string>();
  readonly rejected = new Set<string>(['bad-token']);
  port = 0;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const type = (req.headers['content-type'] ?? '').split(';')[0];
        let params: Record<string, string> = {};
        if (type === 'application/x-www-form-urlencoded') params = Object.fromEntries(new URLSearchParams(body));
        else if (type === 'application/json' && req.url?.startsWith('/turnstile')) params = JSON.parse(body || '{}');
        const reply = (json: object) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(json));
        };
        if (req.method !== 'POST' || !(req.url === '/recaptcha/api/siteverify' || req.url === '/turnstile/v0/siteverify')) {
          res.writeHead(404).end();
          return;
        }
        const errors: string[] = [];
        if (!params.secret) errors.push('missing-input-secret');
        else if (params.secret !== RECAPTCHA_TEST_SECRET && params.secret !== TURNSTILE_PASS_SECRET) errors.push('invalid-input-secret');
        if (!params.response) errors.push('missing-input-response');
        else if (this.rejected.has(params.response)) errors.push('invalid-input-response');
        else if (this.seen.has(params.response)) errors.push('timeout-or-duplicate');
        if (errors.length) return reply({ success: false, 'error-codes': errors });
        this.seen.add(params.response);
        reply({ success: true, challenge_ts: new Date().toISOString(), hostname: 'testkey.google.com', 'error-codes': [] });
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(provider: 'recaptcha' | 'turnstile') {
    return `http://127.0.0.1:${this.port}${provider === 'recaptcha' ? '/recaptcha/api/siteverify' : '/turnstile/v0/siteverify'}`;
  }

  async stop() {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
