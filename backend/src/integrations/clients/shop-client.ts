import { Logger } from '@nestjs/common';
import { safeRequest, SafeResponse } from '../safe-http';

/** An order as every shop client hands it to the sync (amounts in the order's currency). */
export interface ShopOrder {
  externalId: string;
  number: string;
  shopStatus: string;
  buyerInfo: { name: string; email: string | null; phone: string | null; address: string | null; country: string | null };
  totalAmount: number;
  currency: string;
  createdAt: Date;
  updatedAt: Date | null;
  items: ShopOrderItem[];
  /** The shipping methods the buyer chose (names and ids as the shop sends them); production's rush rules read them. */
  shippingMethods?: string[];
  /** The shop's tags of the order, where the shop has any; production's rush rules read them. */
  tags?: string[];
}

/** Distinct non-empty trimmed strings (at most 50, 200 characters each), for an order's shipping methods and tags. */
export function wordsOf(values: unknown[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    if (typeof v !== 'string' && typeof v !== 'number') continue;
    const s = String(v).trim().slice(0, 200);
    if (s) out.add(s);
  }
  return [...out].slice(0, 50);
}

export interface ShopOrderItem {
  externalId: string;
  title: string;
  sku: string | null;
  size: string | null;
  quantity: number;
  price: number;
  designUrl: string | null;
  attributes: Array<{ name: string; value: string }>;
}

/** Since when to fetch: the first sync uses a creation window, later ones the modification time. */
export type SyncWindow = { createdAfter: Date } | { modifiedAfter: Date };

export interface ShopClient {
  /** Pages through the shop's orders, handing each page over before fetching the next. */
  listOrders(window: SyncWindow, onPage: (orders: ShopOrder[], total: number) => Promise<void>): Promise<void>;
}

/** `refused`: the shop answered a write with a 4xx (its message says why); sending it again as it is would not help. */
export type ShopErrorKind = 'auth' | 'not_shop' | 'unreachable' | 'rate_limited' | 'refused' | 'other';

/** A shop call that failed; `message` is written for the seller. */
export class ShopError extends Error {
  constructor(
    message: string,
    readonly kind: ShopErrorKind,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface HttpSettings {
  timeoutMs: number;
  allowPrivate: boolean;
  maxRetryWaitMs: number;
  /** Attempts of one request that keeps getting 429 before the sync gives up. */
  maxAttempts?: number;
  /** For tests: how to wait (default setTimeout). */
  sleep?: (ms: number) => Promise<void>;
}

const MAX_BODY = 50 * 1024 * 1024;
const logger = new Logger('Shops');

/** Seconds (or an HTTP date) of a Retry-After header, in ms; null when absent. */
export function retryAfterMs(res: SafeResponse): number | null {
  const h = res.headers['retry-after'];
  const v = Array.isArray(h) ? h[0] : h;
  if (!v) return null;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}

/**
 * One JSON request with the providers' rate-limit manners: a 429 waits for Retry-After
 * (or backs off exponentially when there is none, as Etsy's 429s may carry no headers)
 * and tries again, a few times, never longer than maxRetryWaitMs per wait.
 */
export async function shopRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  s: HttpSettings,
): Promise<{ res: SafeResponse; json: any }> {
  const attempts = s.maxAttempts ?? 6;
  const sleep = s.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  for (let attempt = 1; ; attempt++) {
    let res: SafeResponse;
    try {
      res = await safeRequest(url, { ...init, timeoutMs: s.timeoutMs, maxBytes: MAX_BODY, allowPrivate: s.allowPrivate });
    } catch (e) {
      throw new ShopError(`The shop could not be reached (${(e as Error).message})`, 'unreachable');
    }
    if (res.status === 429) {
      if (attempt >= attempts) throw new ShopError('The shop keeps answering "too many requests"; the sync will try again later', 'rate_limited', 429);
      const wait = Math.min(retryAfterMs(res) ?? 1000 * 2 ** (attempt - 1), s.maxRetryWaitMs);
      logger.warn(`429 from ${new URL(url).host}, waiting ${wait} ms (attempt ${attempt})`);
      await sleep(wait);
      continue;
    }
    let json: any = null;
    const text = res.body.toString('utf8');
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = undefined;
    }
    return { res, json };
  }
}
