import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isPublicAddress, urlHost } from '../common/public-address';
import { publicOnlyLookup } from './webhook-target';

/**
 * `GangSheet-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`, one `v1`
 * per secret: the current one first, then (after a roll, until its overlap ends) the replaced one.
 */
export function signature(secrets: string | readonly string[], timestamp: number, body: string): string {
  const v1s = (typeof secrets === 'string' ? [secrets] : secrets).map((s) => `v1=${createHmac('sha256', s).update(`${timestamp}.${body}`).digest('hex')}`);
  return [`t=${timestamp}`, ...v1s].join(',');
}

export interface SendResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/**
 * One POST of a delivery body. 2xx is success; anything else (another status, a timeout, a
 * refused connection, a non-public address) is a failure to retry. Redirects are not followed.
 */
export function sendWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; allowPrivate: boolean },
): Promise<SendResult> {
  return new Promise((resolve) => {
    const u = new URL(url);
    // A literal address never reaches the lookup below; an endpoint saved before a range was
    // refused must not be delivered to either.
    if (!opts.allowPrivate && isIP(urlHost(u)) && !isPublicAddress(urlHost(u))) {
      return resolve({ ok: false, status: null, error: `${urlHost(u)} is not a public address` });
    }
    const lib = u.protocol === 'https:' ? https : http;
    let settled = false;
    const done = (r: SendResult) => {
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    const req = lib.request(
      u,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), 'User-Agent': 'GangSheetStudio-Webhooks/1.0', ...headers },
        lookup: publicOnlyLookup(opts.allowPrivate),
        timeout: opts.timeoutMs,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        // The answer's body is not needed; read (and drop) at most a little of it.
        let seen = 0;
        res.on('data', (c: Buffer) => {
          seen += c.length;
          if (seen > 64 * 1024) res.destroy();
        });
        res.on('end', () => done({ ok: status >= 200 && status < 300, status, error: status >= 200 && status < 300 ? null : `HTTP ${status}` }));
        res.on('error', () => done({ ok: status >= 200 && status < 300, status, error: null }));
        res.on('close', () => done({ ok: status >= 200 && status < 300, status, error: status >= 200 && status < 300 ? null : `HTTP ${status}` }));
      },
    );
    req.on('timeout', () => {
      req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`));
    });
    req.on('error', (e) => done({ ok: false, status: null, error: e.message.slice(0, 500) }));
    req.end(body);
  });
}
