import { ForbiddenException, HttpException, HttpStatus, UnauthorizedException } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeysService, AuthenticatedKey } from './api-keys.service';
import { ApiKeyMode, ApiKeyScope } from './entities/api-key.entity';
import { LIVE_ONLY_MESSAGE, liveOnlyRoute, testModeRefusal } from './test-mode.decorators';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type ApiKeyRequest = FastifyRequest & { apiKey?: Omit<AuthenticatedKey, 'user'>; user?: unknown };

/** True when the request was authenticated with an API key (not a session cookie). */
export const viaApiKey = (req: unknown): boolean => !!(req as ApiKeyRequest)?.apiKey;

/** The key of a `Bearer <key>` header, or 401 `invalid_api_key`. */
async function authenticate(keys: ApiKeysService, header: string): Promise<AuthenticatedKey> {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw new UnauthorizedException({ message: 'The Authorization header must be "Bearer <API key>".', code: 'invalid_api_key' });
  return keys.authenticate(m[1]);
}

/**
 * `Authorization: Bearer <key>` on /api: the key alone authenticates the request (a session
 * cookie sent along is ignored), the owner becomes req.user, the key's scope and rate limit
 * apply. An address that failed too many lookups is refused (429) before any lookup. Runs
 * before the cross-site check, which skips requests authenticated here: a browser never
 * attaches this header by itself, so such a request carries no ambient credential another
 * site could abuse.
 */
export function useApiKeys(fastify: FastifyInstance, keys: ApiKeysService): void {
  // A callback hook: the requests without the header (the browser's) pay no promise here.
  fastify.addHook('onRequest', (request, res, done) => {
    const header = request.headers.authorization;
    if (header === undefined || !request.url.startsWith('/api/')) return done();
    authenticateRequest(keys, request as ApiKeyRequest, res, header).then(() => done(), done);
  });
}

/** The key's checks, in order: blocked address, the key itself, its rate limit, scope and mode. */
async function authenticateRequest(keys: ApiKeysService, req: ApiKeyRequest, res: FastifyReply, header: string): Promise<void> {
  const lookups = await keys.lookupBlocked(req.ip);
  if (lookups.blocked) {
    res.header('Retry-After', String(lookups.retryAfterSeconds));
    throw new HttpException(
      { message: `Too many requests with invalid API keys from this address. Try again in ${lookups.retryAfterSeconds} s.`, code: 'rate_limited' },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
  const key = await authenticate(keys, header).catch(async (e) => {
    if (e instanceof UnauthorizedException) await keys.recordFailedLookup(req.ip);
    throw e;
  });
  const rate = await keys.rateLimit(key.id);
  res.header('RateLimit-Limit', String(rate.limit));
  res.header('RateLimit-Remaining', String(rate.remaining));
  res.header('RateLimit-Reset', String(rate.resetSeconds));
  if (!rate.allowed) {
    res.header('Retry-After', String(rate.resetSeconds));
    throw new HttpException(
      { message: `Too many requests with this API key. Try again in ${rate.resetSeconds} s.`, code: 'rate_limited' },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
  if (key.scope === ApiKeyScope.Read && !READ_METHODS.has(req.method))
    throw new ForbiddenException({ message: 'This API key is read-only. Use a read-write key to make changes.', code: 'read_only_key' });
  if (key.mode === ApiKeyMode.Test && liveOnlyRoute(req.method, req.url.split('?')[0])) throw testModeRefusal(LIVE_ONLY_MESSAGE);
  req.user = key.user;
  req.apiKey = { id: key.id, scope: key.scope, mode: key.mode };
}
