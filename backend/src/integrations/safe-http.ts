import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import http, { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isPublicAddress, urlHost } from '../common/public-address';

/*
 * Outgoing HTTP to addresses a seller or a buyer chose (shop base URLs, design file links).
 * Only public addresses (isPublicAddress) are reached: every connection's resolved address is
 * checked, so DNS rebinding cannot slip a private address in after a check. Bodies are
 * size-limited, every request has a deadline.
 */

export class BlockedAddressError extends Error {
  constructor(host: string) {
    super(`Refused to connect to ${host}: private or loopback address`);
  }
}

export class HttpLimitError extends Error {}

export interface SafeRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxBytes: number;
  allowPrivate: boolean;
  /** Write the body to this file instead of memory (removed again on failure). */
  toFile?: string;
  /** Redirects followed (each one checked again). */
  maxRedirects?: number;
}

export interface SafeResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  bytes: number;
  url: string;
}

/** Checks the URL's scheme and, when the host is a literal IP, the address itself. */
export function checkUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('Not a valid URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) throw new Error('Only https:// addresses are allowed');
  if (url.username || url.password) throw new Error('Addresses with credentials are not allowed');
  const host = urlHost(url);
  if (!allowPrivate && isIP(host) && !isPublicAddress(host)) throw new BlockedAddressError(host);
  return url;
}

/**
 * For a URL about to be saved (a shop's base URL): every address its host stands for must be
 * public, so nothing points at our own network even before the first request. Throws
 * BlockedAddressError, or the resolver's error for a name that does not resolve.
 */
export async function checkPublicHost(raw: string, allowPrivate: boolean): Promise<void> {
  const url = checkUrl(raw, allowPrivate);
  const host = urlHost(url);
  if (allowPrivate || isIP(host)) return;
  const addresses = await dnsLookupAll(host);
  if (addresses.some((a) => !isPublicAddress(a.address))) throw new BlockedAddressError(host);
}

function dnsLookupAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(host, { all: true }, (err, list) => (err ? reject(err) : resolve(list))));
}

export async function safeRequest(raw: string, opts: SafeRequest): Promise<SafeResponse> {
  let current = raw;
  for (let hop = 0; ; hop++) {
    const res = await once(current, opts);
    const location = res.headers.location;
    if (res.status >= 300 && res.status < 400 && location && hop < (opts.maxRedirects ?? 0)) {
      current = new URL(location, current).toString();
      continue;
    }
    return res;
  }
}

function once(raw: string, opts: SafeRequest): Promise<SafeResponse> {
  const url = checkUrl(raw, opts.allowPrivate);
  const lib = url.protocol === 'https:' ? https : http;
  const lookup = (hostname: string, options: any, cb: (...a: any[]) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return cb(err);
      const list = addresses as unknown as LookupAddress[];
      if (!opts.allowPrivate && list.some((a) => !isPublicAddress(a.address))) return cb(new BlockedAddressError(hostname));
      if (options?.all) return cb(null, list);
      cb(null, list[0].address, list[0].family);
    });
  };
  return new Promise<SafeResponse>((resolve, reject) => {
    let settled = false;
    const fail = (e: Error) => {
      if (settled) return;
      settled = true;
      req.destroy();
      if (opts.toFile) void unlink(opts.toFile).catch(() => undefined);
      reject(e);
    };
    const timer = setTimeout(() => fail(new HttpLimitError(`No answer within ${Math.round(opts.timeoutMs / 1000)} s`)), opts.timeoutMs);
    const req = lib.request(
      url,
      { method: opts.method ?? 'GET', headers: opts.headers, lookup: lookup as any },
      (res) => {
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > opts.maxBytes) return fail(new HttpLimitError('The file is too large'));
        const chunks: Buffer[] = [];
        let bytes = 0;
        const out = opts.toFile && res.statusCode === 200 ? createWriteStream(opts.toFile) : null;
        out?.on('error', fail);
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          if (bytes > opts.maxBytes) return fail(new HttpLimitError('The file is too large'));
          if (out) {
            if (!out.write(c)) {
              res.pause();
              out.once('drain', () => res.resume());
            }
          } else chunks.push(c);
        });
        res.on('error', fail);
        res.on('end', () => {
          const done = () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), bytes, url: url.toString() });
          };
          if (out) out.end(done);
          else done();
        });
      },
    );
    req.on('error', (e) => fail(e));
    req.on('close', () => clearTimeout(timer));
    if (opts.body) req.write(opts.body);
    req.end();
  });
}
