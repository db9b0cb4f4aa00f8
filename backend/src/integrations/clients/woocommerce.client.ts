import { HttpSettings, ShopClient, ShopError, ShopOrder, ShopOrderItem, shopRequest, SyncWindow, wordsOf } from './shop-client';

export interface WooKeys {
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
}

/** The site URL as stored: scheme, host, path, no trailing slash, no query. */
export function normalizeBaseUrl(raw: string): string {
  const u = new URL(raw.trim());
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`.toLowerCase();
}

/** WordPress dates without a zone; the `_gmt` ones are UTC. */
const gmt = (v: string | null | undefined) => (v ? new Date(/Z|[+-]\d\d:?\d\d$/.test(v) ? v : `${v}Z`) : null);
const wooDate = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, '');

const URL_RE = /^https?:\/\/\S+$/i;

/**
 * The buyer's design file: a line-item meta value that is an http(s) URL (WooCommerce
 * Product Add-Ons file uploads; other plugins may nest it in arrays/objects, so those
 * are scanned too). Keys starting with "_" are internal and ignored.
 */
export function designUrlOf(meta: any[]): string | null {
  const urls: string[] = [];
  const scan = (v: unknown) => {
    if (typeof v === 'string' && URL_RE.test(v.trim())) urls.push(v.trim());
    else if (Array.isArray(v)) v.forEach(scan);
    else if (v && typeof v === 'object') Object.values(v).forEach(scan);
  };
  for (const m of meta ?? []) if (!String(m?.key ?? '').startsWith('_')) scan(m?.value);
  return urls.find((u) => u.includes('/product_addons_uploads/')) ?? urls[0] ?? null;
}

export function sizeOf(meta: any[]): string | null {
  for (const m of meta ?? []) {
    const key = String(m?.key ?? '').toLowerCase();
    const label = String(m?.display_key ?? '').toLowerCase();
    if (key === 'pa_size' || key === 'size' || label === 'size') {
      const v = m.display_value ?? m.value;
      if (typeof v === 'string' || typeof v === 'number') return String(v).trim() || null;
    }
  }
  return null;
}

export function mapWooOrder(o: any): ShopOrder {
  const b = o.billing ?? {};
  const s = o.shipping ?? {};
  const addr = [s.address_1 || b.address_1, s.address_2 || b.address_2, s.city || b.city, s.state || b.state, s.postcode || b.postcode]
    .filter((x: string) => x && String(x).trim())
    .join(', ');
  const name = [b.first_name, b.last_name].filter(Boolean).join(' ') || [s.first_name, s.last_name].filter(Boolean).join(' ');
  const items: ShopOrderItem[] = (o.line_items ?? []).map((li: any) => {
    const meta: any[] = li.meta_data ?? [];
    return {
      externalId: String(li.id),
      title: String(li.name ?? '').slice(0, 500),
      sku: li.sku ? String(li.sku).slice(0, 200) : null,
      size: sizeOf(meta)?.slice(0, 200) ?? null,
      quantity: Math.max(0, Number(li.quantity) || 0),
      price: Math.round((Number(li.price) || 0) * 100) / 100,
      designUrl: designUrlOf(meta)?.slice(0, 2000) ?? null,
      attributes: meta
        .filter((m) => !String(m?.key ?? '').startsWith('_'))
        .map((m) => ({ name: String(m.display_key ?? m.key), value: typeof m.value === 'string' ? m.value : JSON.stringify(m.value) })),
    };
  });
  return {
    externalId: String(o.id),
    number: String(o.number ?? o.id),
    shopStatus: String(o.status ?? 'unknown').slice(0, 40),
    buyerInfo: { name: name || 'Unknown buyer', email: b.email || null, phone: b.phone || s.phone || null, address: addr || null, country: s.country || b.country || null },
    totalAmount: Number(o.total) || 0,
    currency: String(o.currency || 'USD').slice(0, 3).toUpperCase(),
    createdAt: gmt(o.date_created_gmt) ?? gmt(o.date_created) ?? new Date(),
    updatedAt: gmt(o.date_modified_gmt) ?? gmt(o.date_modified),
    items,
    // The shipping lines' method titles ("Express") and ids ("flat_rate").
    shippingMethods: wordsOf((o.shipping_lines ?? []).flatMap((l: any) => [l?.method_title, l?.method_id])),
    // WooCommerce has no order tags; plugins that tag orders keep them in the order meta, so
    // the keys and plain values of its public (not "_"-prefixed) entries serve as tags.
    tags: wordsOf((o.meta_data ?? []).filter((m: any) => m && !String(m.key ?? '').startsWith('_')).flatMap((m: any) => [m.key, m.value])),
  };
}

/** WooCommerce REST v3 with a consumer key and secret (HTTP Basic over HTTPS). */
export class WooCommerceClient implements ShopClient {
  constructor(
    private readonly keys: WooKeys,
    private readonly http: HttpSettings,
  ) {}

  private url(path: string, query: Record<string, string | number> = {}) {
    const u = new URL(`${this.keys.baseUrl.replace(/\/$/, '')}/wp-json/wc/v3${path}`);
    for (const [k, v] of Object.entries(query)) u.searchParams.set(k, String(v));
    return u.toString();
  }

  private get headers() {
    const basic = Buffer.from(`${this.keys.consumerKey}:${this.keys.consumerSecret}`).toString('base64');
    return { Authorization: `Basic ${basic}`, Accept: 'application/json' };
  }

  private async get(path: string, query: Record<string, string | number>) {
    const { res, json } = await shopRequest(this.url(path, query), { headers: this.headers }, this.http);
    if (res.status === 401 || res.status === 403) {
      throw new ShopError(`WooCommerce refused the keys: ${json?.message ?? 'Consumer key is invalid.'} Check the consumer key and secret.`, 'auth', res.status);
    }
    if (res.status === 404 || json === undefined || (res.status === 200 && !Array.isArray(json) && typeof json !== 'object')) {
      throw new ShopError('This site does not look like a WooCommerce shop (no WooCommerce REST API at /wp-json/wc/v3). Check the site URL.', 'not_shop', res.status);
    }
    if (res.status !== 200) throw new ShopError(`WooCommerce answered ${res.status}: ${json?.message ?? 'unexpected error'}`, 'other', res.status);
    return { res, json };
  }

  /**
   * A write (fulfilment): a 4xx is the shop's refusal (`refused`, with WooCommerce's
   * message), a 5xx or no answer is transient (`other` / `unreachable`).
   */
  private async send(method: 'PUT' | 'POST', path: string, body: unknown) {
    const { res, json } = await shopRequest(this.url(path), { method, headers: { ...this.headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }, this.http);
    if (res.status >= 200 && res.status < 300) return json;
    const why = json?.message ? `${json.message}${json.code ? ` (${json.code})` : ''}` : `status ${res.status}`;
    if (res.status >= 400 && res.status < 500) throw new ShopError(`WooCommerce refused: ${why}`, 'refused', res.status);
    throw new ShopError(`WooCommerce answered ${res.status}: ${why}`, 'other', res.status);
  }

  /** PUT /orders/{id} with the new status (setting the same status again is harmless). */
  async setOrderStatus(orderId: string, status: string): Promise<void> {
    await this.send('PUT', `/orders/${encodeURIComponent(orderId)}`, { status });
  }

  /** POST /orders/{id}/notes: a private note (not e-mailed to the buyer); every call adds one. */
  async addOrderNote(orderId: string, note: string): Promise<void> {
    await this.send('POST', `/orders/${encodeURIComponent(orderId)}/notes`, { note, customer_note: false });
  }

  /** The order's notes, newest first (to find out whether a note whose answer was lost arrived). */
  async orderNotes(orderId: string): Promise<Array<{ id: number; note: string }>> {
    const { res, json } = await shopRequest(this.url(`/orders/${encodeURIComponent(orderId)}/notes`), { headers: this.headers }, this.http);
    if (res.status !== 200 || !Array.isArray(json)) {
      const kind = res.status >= 400 && res.status < 500 ? 'refused' : 'other';
      throw new ShopError(`WooCommerce answered ${res.status} listing the order's notes: ${json?.message ?? 'unexpected answer'}`, kind, res.status);
    }
    return json;
  }

  /** Connecting: the keys must list orders (the permission the sync needs). */
  async verify(): Promise<void> {
    const { json } = await this.get('/orders', { per_page: 1 });
    if (!Array.isArray(json)) throw new ShopError('This site does not look like a WooCommerce shop. Check the site URL.', 'not_shop');
  }

  async listOrders(window: SyncWindow, onPage: (orders: ShopOrder[], total: number) => Promise<void>) {
    const filter: Record<string, string> =
      'createdAfter' in window ? { after: wooDate(window.createdAfter) } : { modified_after: wooDate(window.modifiedAfter) };
    for (let page = 1; ; page++) {
      const { res, json } = await this.get('/orders', { ...filter, dates_are_gmt: 'true', per_page: 100, page, orderby: 'id', order: 'asc' });
      if (!Array.isArray(json)) throw new ShopError('WooCommerce answered something that is not a list of orders', 'not_shop');
      const total = Number(res.headers['x-wp-total'] ?? json.length);
      const pages = Number(res.headers['x-wp-totalpages'] ?? 1);
      await onPage(json.map(mapWooOrder), total);
      if (page >= pages || json.length === 0) return;
    }
  }
}
