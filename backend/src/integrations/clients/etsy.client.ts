import { createHash, randomBytes } from 'node:crypto';
import { HttpSettings, ShopClient, ShopError, ShopOrder, shopRequest, SyncWindow, wordsOf } from './shop-client';

export interface EtsyApp {
  keystring: string;
  sharedSecret: string;
  apiUrl: string;
  connectUrl: string;
}

export interface EtsyTokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: Date;
}

/** transactions_w: fulfilment records shipments (createReceiptShipment). */
export const ETSY_SCOPES = 'transactions_r transactions_w shops_r';

/** PKCE: a verifier of 64 unreserved characters and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function etsyConnectUrl(app: EtsyApp, redirectUri: string, state: string, challenge: string): string {
  const u = new URL(app.connectUrl);
  u.searchParams.set('response_type', 'code');
  u.searchParams.set('client_id', app.keystring);
  u.searchParams.set('redirect_uri', redirectUri);
  u.searchParams.set('scope', ETSY_SCOPES);
  u.searchParams.set('state', state);
  u.searchParams.set('code_challenge', challenge);
  u.searchParams.set('code_challenge_method', 'S256');
  return u.toString();
}

const money = (m: any) => (m && m.divisor ? m.amount / m.divisor : 0);
const URL_IN_TEXT = /https?:\/\/[^\s"'<>]+/i;

export function mapEtsyReceipt(r: any): ShopOrder {
  const addr = [r.first_line, r.second_line, r.city, r.state, r.zip].filter((x: string | null) => x && String(x).trim()).join(', ');
  const created = r.created_timestamp ?? r.create_timestamp;
  const updated = r.updated_timestamp ?? r.update_timestamp;
  return {
    externalId: String(r.receipt_id),
    number: String(r.receipt_id),
    shopStatus: String(r.status ?? 'unknown').toLowerCase().slice(0, 40),
    buyerInfo: { name: r.name || 'Unknown buyer', email: r.buyer_email ?? null, phone: null, address: addr || r.formatted_address || null, country: r.country_iso ?? null },
    totalAmount: Math.round(money(r.grandtotal) * 100) / 100,
    currency: String(r.grandtotal?.currency_code ?? 'USD').toUpperCase().slice(0, 3),
    createdAt: new Date((created ?? 0) * 1000),
    updatedAt: updated ? new Date(updated * 1000) : null,
    items: (r.transactions ?? []).map((t: any) => {
      const vars: any[] = t.variations ?? [];
      const size = vars.find((v) => String(v.formatted_name ?? '').toLowerCase() === 'size')?.formatted_value ?? null;
      // A personalization text holding a link is the buyer's design.
      const personal = vars.find((v) => /personali[sz]ation/i.test(String(v.formatted_name ?? '')))?.formatted_value ?? '';
      const link = URL_IN_TEXT.exec(String(personal))?.[0] ?? null;
      return {
        externalId: String(t.transaction_id),
        title: String(t.title ?? '').slice(0, 500),
        sku: t.sku ? String(t.sku).slice(0, 200) : null,
        size: size ? String(size).slice(0, 200) : null,
        quantity: Math.max(0, Number(t.quantity) || 0),
        price: Math.round(money(t.price) * 100) / 100,
        designUrl: link ? link.slice(0, 2000) : null,
        attributes: vars.map((v) => ({ name: String(v.formatted_name), value: String(v.formatted_value ?? '') })),
      };
    }),
    // The transactions' shipping method and the shipping upgrade the buyer chose ("Express");
    // Etsy receipts carry no tags.
    shippingMethods: wordsOf((r.transactions ?? []).flatMap((t: any) => [t?.shipping_method, t?.shipping_upgrade])),
    tags: [],
  };
}

/** Etsy Open API v3: `x-api-key: keystring:shared_secret` and a Bearer token on every call. */
export class EtsyClient implements ShopClient {
  constructor(
    private readonly app: EtsyApp,
    private readonly http: HttpSettings,
    /** Hands out a valid access token; `force` refreshes even when it looks fresh. */
    private readonly token: (force: boolean) => Promise<string>,
    private readonly shopId: string,
  ) {}

  static apiKey(app: EtsyApp) {
    return `${app.keystring}:${app.sharedSecret}`;
  }

  /** Token endpoint calls (code exchange, refresh): form-encoded, no client secret. */
  static async token(app: EtsyApp, http: HttpSettings, form: Record<string, string>): Promise<EtsyTokens> {
    const { res, json } = await shopRequest(
      `${app.apiUrl}/v3/public/oauth/token`,
      { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'x-api-key': EtsyClient.apiKey(app) }, body: new URLSearchParams({ client_id: app.keystring, ...form }).toString() },
      http,
    );
    if (res.status !== 200 || !json?.access_token) {
      const why = json?.error_description ?? json?.error ?? `status ${res.status}`;
      throw new ShopError(`Etsy refused the authorisation (${why})`, 'auth', res.status);
    }
    return { accessToken: json.access_token, refreshToken: json.refresh_token, expiresAt: new Date(Date.now() + Number(json.expires_in ?? 3600) * 1000) };
  }

  static async me(app: EtsyApp, http: HttpSettings, accessToken: string): Promise<{ userId: string; shopId: string }> {
    const { res, json } = await shopRequest(
      `${app.apiUrl}/v3/application/users/me`,
      { headers: { 'x-api-key': EtsyClient.apiKey(app), Authorization: `Bearer ${accessToken}` } },
      http,
    );
    if (res.status !== 200 || !json?.shop_id) throw new ShopError(`Etsy did not name a shop for this account (${json?.error ?? res.status})`, 'auth', res.status);
    return { userId: String(json.user_id), shopId: String(json.shop_id) };
  }

  private async get(path: string, query: Record<string, string | number>) {
    const u = new URL(`${this.app.apiUrl}/v3/application${path}`);
    for (const [k, v] of Object.entries(query)) u.searchParams.set(k, String(v));
    for (let retried = false; ; retried = true) {
      const access = await this.token(retried);
      const { res, json } = await shopRequest(u.toString(), { headers: { 'x-api-key': EtsyClient.apiKey(this.app), Authorization: `Bearer ${access}` } }, this.http);
      if (res.status === 401 && !retried) continue; // expired early: refresh once and retry
      if (res.status === 401 || res.status === 403) throw new ShopError(`Etsy refused the request (${json?.error_description ?? json?.error ?? res.status})`, 'auth', res.status);
      if (res.status !== 200) throw new ShopError(`Etsy answered ${res.status}: ${json?.error ?? 'unexpected error'}`, 'other', res.status);
      return json;
    }
  }

  /** A call with the token manners of `get`; 4xx other than auth is the shop's refusal. */
  private async call(method: 'GET' | 'POST', path: string, form?: Record<string, string>) {
    const u = `${this.app.apiUrl}/v3/application${path}`;
    for (let retried = false; ; retried = true) {
      const access = await this.token(retried);
      const headers: Record<string, string> = { 'x-api-key': EtsyClient.apiKey(this.app), Authorization: `Bearer ${access}` };
      if (form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
      const { res, json } = await shopRequest(u, { method, headers, body: form ? new URLSearchParams(form).toString() : undefined }, this.http);
      if (res.status === 401 && !retried) continue;
      if (res.status >= 200 && res.status < 300) return json;
      const why = json?.error_description ? `${json.error_description} (${json.error})` : (json?.error ?? `status ${res.status}`);
      if (res.status === 403 && json?.error === 'insufficient_scope') {
        throw new ShopError(`Etsy refused: the shop was connected without permission to record shipments (${why}). Connect the shop again, then retry.`, 'refused', 403);
      }
      if (res.status >= 400 && res.status < 500) throw new ShopError(`Etsy refused: ${why}`, 'refused', res.status);
      throw new ShopError(`Etsy answered ${res.status}: ${why}`, 'other', res.status);
    }
  }

  /** One receipt (its `shipments[]` tell whether a shipment whose answer was lost arrived). */
  async receipt(receiptId: string): Promise<{ shipments?: Array<{ tracking_code: string | null; carrier_name: string | null }> }> {
    return this.call('GET', `/shops/${this.shopId}/receipts/${encodeURIComponent(receiptId)}`);
  }

  /** createReceiptShipment: records the tracking and notifies the buyer; each call adds a shipment. */
  async createReceiptShipment(receiptId: string, s: { trackingCode: string; carrierName: string; noteToBuyer?: string }): Promise<void> {
    const form: Record<string, string> = { tracking_code: s.trackingCode, carrier_name: s.carrierName };
    if (s.noteToBuyer) form.note_to_buyer = s.noteToBuyer;
    await this.call('POST', `/shops/${this.shopId}/receipts/${encodeURIComponent(receiptId)}/tracking`, form);
  }

  async listOrders(window: SyncWindow, onPage: (orders: ShopOrder[], total: number) => Promise<void>) {
    const filter: Record<string, number> =
      'createdAfter' in window
        ? { min_created: Math.floor(window.createdAfter.getTime() / 1000) }
        : { min_last_modified: Math.floor(window.modifiedAfter.getTime() / 1000) };
    const limit = 100;
    for (let offset = 0; ; offset += limit) {
      const json = await this.get(`/shops/${this.shopId}/receipts`, { ...filter, limit, offset, sort_on: 'created', sort_order: 'asc' });
      const results: any[] = Array.isArray(json?.results) ? json.results : [];
      const count = Number(json?.count ?? results.length);
      await onPage(results.map(mapEtsyReceipt), count);
      if (offset + limit >= count || results.length === 0) return;
    }
  }
}
