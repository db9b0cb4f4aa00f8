import { ForbiddenException } from '@nestjs/common';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IncomingMessage } from 'node:http';
import { TLSSocket } from 'node:tls';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one allowed-origin rule, shared by the HTTP API and the socket.io handshake: an
 * Origin is accepted when it is one of ours (APP_URL, ALLOWED_ORIGINS) or when it equals
 * the origin the request was sent to (scheme + Host), i.e. a same-origin request. That
 * keeps the app usable at http://127.0.0.1:3000 or a LAN address without listing them,
 * while a page on another site still cannot talk to us with the user's cookie: its
 * Origin names its own site, not our Host.
 */
export function isAllowedOrigin(origin: string, allowed: ReadonlySet<string>, selfOrigin: string | undefined): boolean {
  if (allowed.has(origin)) return true;
  return !!selfOrigin && origin.toLowerCase() === selfOrigin.toLowerCase();
}

/** Which peers may speak for the client (TRUST_PROXY): none, the nearest `n` hops, or the listed addresses and ranges. */
export type TrustProxy = (addr: string, hop: number) => boolean;
export function compileTrustProxy(setting: false | number | string[]): TrustProxy {
  if (setting === false) return () => false;
  if (typeof setting === 'number') return (_addr, hop) => hop < setting;
  return proxyAddr.compile(setting);
}

/** scheme://host of a request; req.protocol and req.host honour only trusted proxies. */
export function selfOrigin(req: FastifyRequest): string | undefined {
  return req.host ? `${req.protocol}://${req.host}` : undefined;
}

/**
 * The same for a raw Node request (the socket.io handshake): the X-Forwarded-Proto/Host
 * headers count only when the peer is a trusted proxy.
 */
export function rawSelfOrigin(req: IncomingMessage, trustProxy: (addr: string, i: number) => boolean): string | undefined {
  let proto = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  let host = req.headers.host;
  if (trustProxy(req.socket.remoteAddress ?? '', 0)) {
    const fwdProto = firstValue(req.headers['x-forwarded-proto']);
    const fwdHost = firstValue(req.headers['x-forwarded-host']);
    if (fwdProto) proto = fwdProto;
    if (fwdHost) host = fwdHost;
  }
  return host ? `${proto}://${host}` : undefined;
}

function firstValue(h: string | string[] | undefined): string | undefined {
  const v = Array.isArray(h) ? h[0] : h;
  return v?.split(',')[0].trim() || undefined;
}

/**
 * Cross-site request forgery defence for cookie auth. A mutation must come from an
 * allowed origin (Origin, or Referer when a browser omits Origin) and must not be a
 * "simple" cross-site form post: it carries JSON, multipart from our own pages, or the
 * X-Requested-With header our client always sends.
 */
export function useOriginCheck(fastify: FastifyInstance, allowedOrigins: string[]): void {
  const allowed = new Set(allowedOrigins);
  fastify.addHook('onRequest', (req, _reply, done) => {
    // A request authenticated by an API key (set by the bearer hook that runs before this)
    // carries no ambient credential: nothing here protects it, so nothing is checked.
    if (SAFE.has(req.method) || (req as { apiKey?: unknown }).apiKey) return done();
    const origin = req.headers.origin ?? refererOrigin(req.headers.referer);
    if (origin && !isAllowedOrigin(origin, allowed, selfOrigin(req))) {
      return done(new ForbiddenException({ message: 'Cross-site requests are not allowed', code: 'bad_origin' }));
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const hasCustomHeader = typeof req.headers['x-requested-with'] === 'string';
    const formLike = type === 'application/x-www-form-urlencoded' || type === 'text/plain' || type === 'multipart/form-data';
    if (formLike && !hasCustomHeader) {
      return done(new ForbiddenException({ message: 'Cross-site requests are not allowed', code: 'bad_origin' }));
    }
    done();
  });
}

function refererOrigin(referer?: string): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'invalid';
  }
}
