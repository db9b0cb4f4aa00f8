import { createParamDecorator, ExecutionContext, ForbiddenException } from '@nestjs/common';
import { ApiKeyMode } from './entities/api-key.entity';

/** What the bearer middleware puts on the request (req.apiKey) besides req.user. */
export interface RequestKey {
  id: string;
  scope: string;
  mode: ApiKeyMode;
}

/**
 * True when the request was authenticated with a test key (`gsk_test_…`): its prints are test
 * prints and its events list is the test one. A session or a live key is live mode.
 */
export const isTestMode = (req: unknown): boolean => (req as { apiKey?: RequestKey } | undefined)?.apiKey?.mode === ApiKeyMode.Test;

/** The handler's parameter: whether the request is in test mode (see isTestMode). */
export const TestMode = createParamDecorator((_data: unknown, ctx: ExecutionContext): boolean => isTestMode(ctx.switchToHttp().getRequest()));

export const TEST_MODE_NOT_SUPPORTED = 'test_mode_not_supported';

export const testModeRefusal = (message: string) => new ForbiddenException({ message, code: TEST_MODE_NOT_SUPPORTED });

/** Routes that act on money or on real shops: buying credits, shop connections and their orders, production. */
const LIVE_ONLY_PREFIX = /^\/api\/(buyCredits|payment|integrations|orders|production)(\/|$)/;
/** Reads that act all the same: an order sync (GET, as the spec has it) and a shop's sign-in. */
const LIVE_ONLY_READ = /^\/api\/integrations\/[^/]+\/(orders|auth)\/?$/;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a test key is refused here: anything but reading on the routes of credit purchases,
 * shop integrations, orders and production (and the two reads that act). Test mode spends no
 * money and touches no shop; everything else works as with a live key.
 */
export function liveOnlyRoute(method: string, path: string): boolean {
  if (!LIVE_ONLY_PREFIX.test(path)) return false;
  return !READ_METHODS.has(method) || LIVE_ONLY_READ.test(path);
}

export const LIVE_ONLY_MESSAGE = 'Test keys cannot buy credits or work with shops, orders and production. Use a live key for this.';
