import { createHash, randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * Etsy Open API v3 as written down in the protocol reference (§1): the consent page
 * (/oauth/connect, auto-approved, checks the registered redirect URI and S256), the token
 * endpoint (authorization_code with PKCE verification and single-use codes; refresh_token
 * with rotation — the old refresh token dies), `x-api-key: keystring:shared_secret` on every
 * call (403 otherwise), Bearer tokens that expire (401 invalid_token), users/me, and
 * shops/{id}/receipts with limit/offset/min_created/min_last_modified, count/results and
 * the rate-limit headers; it can answer 429 (with or without retry-after).
 * Fulfilment (§1.8): POST shops/{id}/receipts/{id}/tracking (createReceiptShipment, form
 * body tracking_code and carrier_name, scope transactions_w — tokens remember the scopes
 * they were granted) and GET shops/{id}/receipts/{id}; it records every shipment it accepts
 * and can be told to refuse (4xx with Etsy's `{error}` body), to fail (500) or to apply a
 * shipment and drop the connection before answering.
 */
export function etsyReceipt(
  id: number,
  o: { created?: Date; updated?: Date; status?: string; sku?: string; size?: string; personalization?: string; quantity?: number; shippingMethod?: string; shippingUpgrade?: string | null } = {},
) {
  const created = Math.floor((o.created ?? new Date()).getTime() / 1000);
  const updated = Math.floor((o.updated ?? o.created ?? new Date()).getTime() / 1000);
  const gbp = (amount: number) => ({ amount, divisor: 100, currency_code: 'GBP' });
  return {
    receipt_id: id,
    receipt_type: 0,
    seller_user_id: 12345678,
    buyer_user_id: 98765432,
    buyer_email: null,
    name: 'Jane Buyer',
    first_line: '12 Rose Lane',
    second_line: null,
    city: 'Leeds',
    state: 'West Yorkshire',
    zip: 'LS1 4AB',
    status: o.status ?? 'Paid',
    formatted_address: 'Jane Buyer\n12 Rose Lane\nLeeds, West Yorkshire LS1 4AB\nUnited Kingdom',
    country_iso: 'GB',
    is_paid: true,
    is_shipped: false,
    create_timestamp: created,
    created_timestamp: created,
    update_timestamp: updated,
    updated_timestamp: updated,
    grandtotal: gbp(3298),
    subtotal: gbp(2998),
    total_price: gbp(2998),
    shipments: [],
    refunds: [],
    transactions: [
      {
        transaction_id: id * 10 + 1,
        title: 'Custom Star Map Print',
        receipt_id: id,
        listing_id: 1587654321,
        sku: o.sku ?? 'STARMAP-A3',
        quantity: o.quantity ?? 2,
        price: gbp(1499),
        shipping_cost: gbp(300),
        transaction_type: 'listing',
        shipping_profile_id: 190000001,
        shipping_method: o.shippingMethod ?? 'Standard Shipping',
        shipping_upgrade: o.shippingUpgrade ?? null,
        variations: [
          { property_id: 100, value_id: 1234567890, formatted_name: 'Size', formatted_value: o.size ?? 'A3' },
          ...(o.personalization !== undefined ? [{ property_id: 54, value_id: null, formatted_name: 'Personalization', formatted_value: o.personalization }] : []),
        ],
        product_data: [],
      },
    ],
  };
}

export class FakeEtsy {
  private server: Server;
  port = 0;
  keystring = 'fakekeystring123';
  sharedSecret = 'fakesharedsecret';
  userId = 12345678;
  shopId = 23456789;
  /** Registered redirect URIs (an unregistered one gets Etsy's error page). */
  redirectUris = new Set<string>();
  receipts: any[] = [];
  accessTtlSeconds = 3600;
  rateLimitNext = 0;
  retryAfter: string | null = null;
  private codes = new Map<string, { challenge: string; redirectUri: string; used: boolean; scope: string }>();
  private access = new Map<string, number>(); // token → expires at (ms)
  refreshTokens = new Set<string>();
  log: Array<{ method: string; url: string; at: number }> = [];
  refreshes = 0;
  private scopes = new Map<string, string>(); // access or refresh token → granted scopes
  /** Shipments accepted (createReceiptShipment). */
  shipments: Array<{ receiptId: number; tracking_code: string; carrier_name: string; note_to_buyer: string | null }> = [];
  /** While set, createReceiptShipment answers this refusal. */
  refuseShipments: { status: number; error: string } | null = null;
  /** The next N shipments answer 500. */
  failShipmentsNext = 0;
  /** The next N shipments are recorded, then the connection is dropped without an answer. */
  dropAfterShipmentNext = 0;

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res).catch((e) => this.json(res, 500, { error: String(e) })));
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  stop() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }

  /** Every access token handed out so far stops working (as after an hour). */
  expireAccessTokens() {
    for (const t of this.access.keys()) this.access.set(t, 0);
  }

  /** The seller changed their password: every refresh token is dead. */
  revokeRefreshTokens() {
    this.refreshTokens.clear();
  }

  private json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }

  private issue(scope: string) {
    const access = `${this.userId}.${randomBytes(24).toString('base64url')}`;
    const refresh = `${this.userId}.${randomBytes(24).toString('base64url')}`;
    this.access.set(access, Date.now() + this.accessTtlSeconds * 1000);
    this.refreshTokens.add(refresh);
    this.scopes.set(access, scope);
    this.scopes.set(refresh, scope);
    return { access_token: access, token_type: 'Bearer', expires_in: this.accessTtlSeconds, refresh_token: refresh };
  }

  private body(req: IncomingMessage): Promise<string> {
    return new Promise((r) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => r(b));
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.url);
    this.log.push({ method: req.method ?? 'GET', url: url.pathname + url.search, at: Date.now() });
    if (url.pathname === '/oauth/connect') {
      const p = url.searchParams;
      const redirect = p.get('redirect_uri') ?? '';
      if (!this.redirectUris.has(redirect)) return void res.writeHead(400, { 'content-type': 'text/html' }).end('The requested redirect URL is not permitted.');
      if (p.get('response_type') !== 'code' || p.get('client_id') !== this.keystring || p.get('code_challenge_method') !== 'S256' || !p.get('code_challenge') || !p.get('state')) {
        const back = new URL(redirect);
        back.searchParams.set('error', 'invalid_request');
        back.searchParams.set('state', p.get('state') ?? '');
        return void res.writeHead(302, { location: back.toString() }).end();
      }
      const back = new URL(redirect);
      back.searchParams.set('state', p.get('state')!);
      if (p.get('deny') === '1') back.searchParams.set('error', 'access_denied');
      else {
        const code = randomBytes(16).toString('base64url');
        this.codes.set(code, { challenge: p.get('code_challenge')!, redirectUri: redirect, used: false, scope: p.get('scope') ?? '' });
        back.searchParams.set('code', code);
      }
      return void res.writeHead(302, { location: back.toString() }).end();
    }
    if (url.pathname === '/v3/public/oauth/token' && req.method === 'POST') {
      const f = new URLSearchParams(await this.body(req));
      if (f.get('client_id') !== this.keystring) return this.json(res, 401, { error: 'invalid_client', error_description: 'client_id is invalid' });
      if (f.get('grant_type') === 'authorization_code') {
        const c = this.codes.get(f.get('code') ?? '');
        if (!f.get('code_verifier')) return this.json(res, 400, { error: 'invalid_request', error_description: 'code_verifier is required' });
        if (!c || c.used) return this.json(res, 400, { error: 'invalid_grant', error_description: 'code is invalid or was already used' });
        c.used = true;
        if (createHash('sha256').update(f.get('code_verifier')!).digest('base64url') !== c.challenge) return this.json(res, 400, { error: 'invalid_grant', error_description: 'code_verifier does not match code_challenge' });
        if (f.get('redirect_uri') !== c.redirectUri) return this.json(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri does not match' });
        return this.json(res, 200, this.issue(c.scope));
      }
      if (f.get('grant_type') === 'refresh_token') {
        const r = f.get('refresh_token') ?? '';
        if (!this.refreshTokens.has(r)) return this.json(res, 400, { error: 'invalid_grant', error_description: 'refresh_token is revoked' });
        this.refreshTokens.delete(r); // rotation: the old one dies
        this.refreshes++;
        return this.json(res, 200, this.issue(this.scopes.get(r) ?? ''));
      }
      return this.json(res, 400, { error: 'unsupported_grant_type' });
    }
    if (url.pathname.startsWith('/v3/application/')) {
      const key = String(req.headers['x-api-key'] ?? '');
      if (!key.includes(':')) return this.json(res, 403, { error: 'Shared secret is required in x-api-key header.' });
      if (key !== `${this.keystring}:${this.sharedSecret}`) return this.json(res, 403, { error: "Invalid API key: should be in the format 'keystring:shared_secret'." });
      const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const exp = this.access.get(bearer);
      if (exp === undefined) return this.json(res, 401, { error: 'invalid_token', error_description: 'access token is invalid' });
      if (exp < Date.now()) return this.json(res, 401, { error: 'invalid_token', error_description: 'access token is expired' });
      if (this.rateLimitNext > 0) {
        this.rateLimitNext--;
        return this.json(res, 429, { error: 'Too many requests' }, this.retryAfter ? { 'retry-after': this.retryAfter } : {});
      }
      const limits = { 'x-limit-per-second': '10', 'x-remaining-this-second': '9', 'x-limit-per-day': '10000', 'x-remaining-today': '9999' };
      if (url.pathname === '/v3/application/users/me') return this.json(res, 200, { user_id: this.userId, shop_id: this.shopId }, limits);
      const one = /^\/v3\/application\/shops\/(\d+)\/receipts\/(\d+)(\/tracking)?$/.exec(url.pathname);
      if (one && (req.method === 'GET' ? !one[3] : req.method === 'POST' && one[3])) {
        if (Number(one[1]) !== this.shopId) return this.json(res, 403, { error: 'You do not have permission to view this shop' });
        const receipt = this.receipts.find((r) => r.receipt_id === Number(one[2]));
        if (req.method === 'POST' && !(this.scopes.get(bearer) ?? '').split(' ').includes('transactions_w')) {
          return this.json(res, 403, { error: 'insufficient_scope', error_description: 'Insufficient scope' });
        }
        if (!receipt) return this.json(res, 404, { error: `Receipt with id ${one[2]} not found` });
        if (req.method === 'GET') return this.json(res, 200, receipt, limits);
        const f = new URLSearchParams(await this.body(req));
        if (!f.get('tracking_code')) return this.json(res, 400, { error: 'tracking_code is required' });
        if (!f.get('carrier_name')) return this.json(res, 400, { error: 'carrier_name is required' });
        if (this.refuseShipments) return this.json(res, this.refuseShipments.status, { error: this.refuseShipments.error });
        if (this.failShipmentsNext > 0) {
          this.failShipmentsNext--;
          return this.json(res, 500, { error: 'Internal server error' });
        }
        const s = { receiptId: receipt.receipt_id, tracking_code: f.get('tracking_code')!, carrier_name: f.get('carrier_name')!, note_to_buyer: f.get('note_to_buyer') };
        this.shipments.push(s);
        const now = Math.floor(Date.now() / 1000);
        receipt.shipments.push({ receipt_shipping_id: 5000 + this.shipments.length, shipment_notification_timestamp: now, carrier_name: s.carrier_name, tracking_code: s.tracking_code });
        receipt.is_shipped = true;
        receipt.status = 'Completed';
        receipt.updated_timestamp = receipt.update_timestamp = now;
        if (this.dropAfterShipmentNext > 0) {
          this.dropAfterShipmentNext--;
          return void req.socket.destroy();
        }
        return this.json(res, 200, receipt, limits);
      }
      const m = /^\/v3\/application\/shops\/(\d+)\/receipts$/.exec(url.pathname);
      if (m) {
        if (Number(m[1]) !== this.shopId) return this.json(res, 403, { error: 'You do not have permission to view this shop' });
        const limit = Number(url.searchParams.get('limit') ?? 25);
        const offset = Number(url.searchParams.get('offset') ?? 0);
        if (!(limit >= 1 && limit <= 100)) return this.json(res, 400, { error: 'limit must be between 1 and 100' });
        const minCreated = Number(url.searchParams.get('min_created') ?? 0);
        const minMod = Number(url.searchParams.get('min_last_modified') ?? 0);
        const asc = ['asc', 'ascending', 'up'].includes(url.searchParams.get('sort_order') ?? 'desc');
        const list = this.receipts
          .filter((r) => r.created_timestamp >= minCreated && r.updated_timestamp >= minMod)
          .sort((a, b) => (a.created_timestamp - b.created_timestamp || a.receipt_id - b.receipt_id) * (asc ? 1 : -1));
        return this.json(res, 200, { count: list.length, results: list.slice(offset, offset + limit) }, limits);
      }
    }
    this.json(res, 404, { error: 'Not found' });
  }
}
