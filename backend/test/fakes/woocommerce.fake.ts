import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A WooCommerce store speaking REST v3 as written down in the protocol reference (§2):
 * HTTP Basic consumer key/secret (401 woocommerce_rest_authentication_error otherwise),
 * GET /wp-json/wc/v3/orders with page/per_page (≤ 100), after/modified_after (GMT with
 * dates_are_gmt), orderby id|date, X-WP-Total / X-WP-TotalPages / Link headers, a JSON
 * array body, and the /wc-auth/v1/authorize key-approval redirect (auto-approved: POSTs the
 * keys to callback_url, requires exactly 200, then redirects to return_url). It can answer
 * 429 with Retry-After, and serves design files under /wp-content/uploads/.
 * Fulfilment (§2.5): PUT /orders/{id} with a status and POST/GET /orders/{id}/notes, which
 * need read_write keys; it records every status update and note it accepts, and can be told
 * to refuse (a 4xx with WooCommerce's error body), to fail (500) or to apply a write and
 * drop the connection before answering (an accepted request whose answer was lost).
 * Browser tests, where the store runs in another process, use /__fake/control (refusals),
 * /__fake/received (the writes accepted) and /__fake/orders (POST: new orders).
 */
export interface WooOrderOpts {
  id: number;
  status?: string;
  created?: Date;
  modified?: Date;
  items?: Array<{ id: number; name: string; sku?: string; size?: string; quantity?: number; price?: number; upload?: string }>;
  buyer?: { first: string; last: string; email?: string; phone?: string; country?: string };
  /** The shipping line's method (default Flat rate / flat_rate). */
  shipping?: { title: string; id: string };
  /** Order-level meta entries (WooCommerce has no order tags; tagging plugins keep them here). */
  meta?: Array<{ key: string; value: unknown }>;
}

const wp = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, '');

export function wooOrder(o: WooOrderOpts) {
  const created = o.created ?? new Date();
  const modified = o.modified ?? created;
  const b = o.buyer ?? { first: 'Lena', last: 'Maier', email: 'lena.maier@example.com', phone: '+43 660 1234567', country: 'AT' };
  const items = o.items ?? [{ id: o.id * 10, name: 'Photo Print - A3', sku: 'PHOTO-A3', size: 'A3', quantity: 2 }];
  return {
    id: o.id,
    number: String(o.id),
    status: o.status ?? 'processing',
    currency: 'EUR',
    date_created: wp(new Date(created.getTime() + 3600_000)),
    date_created_gmt: wp(created),
    date_modified: wp(new Date(modified.getTime() + 3600_000)),
    date_modified_gmt: wp(modified),
    total: (items.reduce((a, i) => a + (i.price ?? 16.805) * (i.quantity ?? 1), 0) + 4.12).toFixed(2),
    billing: { first_name: b.first, last_name: b.last, company: '', address_1: 'Bahnhofstr. 5', address_2: '', city: 'Graz', state: '', postcode: '8010', country: b.country ?? 'AT', email: b.email ?? '', phone: b.phone ?? '' },
    shipping: { first_name: b.first, last_name: b.last, company: '', address_1: 'Bahnhofstr. 5', address_2: '', city: 'Graz', state: '', postcode: '8010', country: b.country ?? 'AT', phone: '' },
    meta_data: (o.meta ?? []).map((m, k) => ({ id: 500 + k, key: m.key, value: m.value })),
    line_items: items.map((i) => ({
      id: i.id,
      name: i.name,
      product_id: 88,
      variation_id: 91,
      quantity: i.quantity ?? 1,
      subtotal: '33.61',
      total: '33.61',
      sku: i.sku ?? '',
      price: i.price ?? 16.805,
      parent_name: i.name.split(' - ')[0],
      meta_data: [
        ...(i.size ? [{ id: 1, key: 'pa_size', value: i.size.toLowerCase(), display_key: 'Size', display_value: i.size }] : []),
        ...(i.upload ? [{ id: 2, key: 'Upload your photo', value: i.upload, display_key: 'Upload your photo', display_value: i.upload.split('/').pop() }] : []),
        { id: 3, key: '_reduced_stock', value: '2', display_key: '_reduced_stock', display_value: '2' },
      ],
    })),
    shipping_lines: [{ id: o.id * 10 + 9, method_title: o.shipping?.title ?? 'Flat rate', method_id: o.shipping?.id ?? 'flat_rate', total: '4.12', total_tax: '0.78' }],
  };
}

export class FakeWooCommerce {
  private server: Server;
  port = 0;
  consumerKey = 'ck_0123456789abcdef0123456789abcdef01234567';
  consumerSecret = 'cs_89abcdef0123456789abcdef0123456789abcdef';
  orders: any[] = [];
  files = new Map<string, { type: string; body: Buffer }>();
  /** The next N order list requests answer 429 with `retryAfter` seconds. */
  rateLimitNext = 0;
  retryAfter: string | null = '1';
  /** Every request: method, path with query, and when. */
  log: Array<{ method: string; url: string; at: number }> = [];
  /** Keys issued by the authorize flow. */
  issued: Array<{ consumer_key: string; consumer_secret: string; user_id: string; key_permissions?: string }> = [];
  /** Status updates accepted (PUT /orders/{id}). */
  statusUpdates: Array<{ orderId: number; status: string }> = [];
  /** Order notes accepted (POST /orders/{id}/notes). */
  notes: Array<{ id: number; orderId: number; note: string; customer_note: boolean; date_created: string }> = [];
  /** While set, every write answers this refusal. */
  refuseWrites: { status: number; code: string; message: string } | null = null;
  /** The next N writes answer 500. */
  failWritesNext = 0;
  /** The next N writes are applied, then the connection is dropped without an answer. */
  dropAfterWriteNext = 0;
  /** The same for the next N notes only. */
  dropAfterNoteNext = 0;

  get baseUrl() {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res).catch((e) => this.json(res, 500, { code: 'internal', message: String(e), data: { status: 500 } })));
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  stop() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }

  private json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    res.end(JSON.stringify(body));
  }

  private authorised(req: IncomingMessage, url: URL): boolean {
    return this.permission(req, url) !== null;
  }

  /** The permission of the key the request carries (null: no valid key). */
  private permission(req: IncomingMessage, url: URL): string | null {
    const h = req.headers.authorization ?? '';
    let ck = url.searchParams.get('consumer_key');
    let cs = url.searchParams.get('consumer_secret');
    if (h.startsWith('Basic ')) [ck, cs] = Buffer.from(h.slice(6), 'base64').toString().split(':');
    const pairs = [{ ck: this.consumerKey, cs: this.consumerSecret, p: 'read_write' }, ...this.issued.map((k) => ({ ck: k.consumer_key, cs: k.consumer_secret, p: k.key_permissions ?? 'read_write' }))];
    return pairs.find((p) => p.ck === ck && p.cs === cs)?.p ?? null;
  }

  private body(req: IncomingMessage): Promise<any> {
    return new Promise((r) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => {
        try {
          r(b ? JSON.parse(b) : {});
        } catch {
          r(undefined);
        }
      });
    });
  }

  /** PUT /orders/{id}, POST and GET /orders/{id}/notes, GET /orders/{id}. */
  private async orderRoute(req: IncomingMessage, res: ServerResponse, url: URL, id: number, notes: boolean) {
    const perm = this.permission(req, url);
    if (!perm) return this.json(res, 401, { code: 'woocommerce_rest_authentication_error', message: 'Consumer key is invalid.', data: { status: 401 } });
    const order = this.orders.find((o) => o.id === id);
    const write = req.method === 'PUT' || req.method === 'POST';
    if (write && perm === 'read') {
      return this.json(res, 401, { code: notes ? 'woocommerce_rest_cannot_create' : 'woocommerce_rest_cannot_edit', message: notes ? 'Sorry, you are not allowed to create resources.' : 'Sorry, you are not allowed to edit this resource.', data: { status: 401 } });
    }
    if (!order) return this.json(res, 404, { code: 'woocommerce_rest_shop_order_invalid_id', message: 'Invalid ID.', data: { status: 404 } });
    if (write) {
      if (this.refuseWrites) return this.json(res, this.refuseWrites.status, { code: this.refuseWrites.code, message: this.refuseWrites.message, data: { status: this.refuseWrites.status } });
      if (this.failWritesNext > 0) {
        this.failWritesNext--;
        return this.json(res, 500, { code: 'internal_server_error', message: 'There has been a critical error on this website.', data: { status: 500 } });
      }
    }
    const body = write ? await this.body(req) : {};
    if (body === undefined) return this.json(res, 400, { code: 'rest_invalid_json', message: 'Invalid JSON body passed.', data: { status: 400 } });
    let answer: unknown;
    if (notes && req.method === 'POST') {
      if (typeof body.note !== 'string' || !body.note) return this.json(res, 400, { code: 'rest_missing_callback_param', message: 'Missing parameter(s): note', data: { status: 400 } });
      const n = { id: 9000 + this.notes.length, orderId: id, note: body.note, customer_note: !!body.customer_note, date_created: wp(new Date()) };
      this.notes.push(n);
      answer = { id: n.id, author: 'WooCommerce', date_created: n.date_created, date_created_gmt: n.date_created, note: n.note, customer_note: n.customer_note };
    } else if (notes && req.method === 'GET') {
      answer = this.notes.filter((n) => n.orderId === id).reverse().map((n) => ({ id: n.id, author: 'WooCommerce', date_created: n.date_created, note: n.note, customer_note: n.customer_note }));
    } else if (req.method === 'PUT') {
      const known = ['pending', 'processing', 'on-hold', 'completed', 'cancelled', 'refunded', 'failed', 'shipped'];
      if (body.status !== undefined && !known.includes(body.status)) {
        return this.json(res, 400, { code: 'rest_invalid_param', message: 'Invalid parameter(s): status', data: { status: 400, params: { status: `status is not one of ${known.join(', ')}.` } } });
      }
      if (body.status !== undefined) {
        this.statusUpdates.push({ orderId: id, status: body.status });
        order.status = body.status;
        order.date_modified_gmt = wp(new Date());
        if (body.status === 'completed') order.date_completed_gmt = wp(new Date());
      }
      answer = order;
    } else answer = order;
    if (write && (this.dropAfterWriteNext > 0 || (notes && this.dropAfterNoteNext > 0))) {
      if (notes && this.dropAfterNoteNext > 0) this.dropAfterNoteNext--;
      else this.dropAfterWriteNext--;
      return void req.socket.destroy();
    }
    return this.json(res, write && notes ? 201 : 200, answer);
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.baseUrl);
    this.log.push({ method: req.method ?? 'GET', url: url.pathname + url.search, at: Date.now() });
    if (url.pathname.startsWith('/wp-content/uploads/')) {
      const f = this.files.get(url.pathname);
      if (!f) return void res.writeHead(404).end('not found');
      res.writeHead(200, { 'content-type': f.type, 'content-length': f.body.length });
      return void res.end(f.body);
    }
    if (url.pathname === '/wc-auth/v1/authorize') return this.authorize(url, res);
    // For browser tests, where the store runs in another process: what the tests set on the object.
    if (url.pathname === '/__fake/control' && req.method === 'POST') {
      const b = (await this.body(req)) ?? {};
      if ('refuseWrites' in b) this.refuseWrites = b.refuseWrites;
      if ('failWritesNext' in b) this.failWritesNext = Number(b.failWritesNext) || 0;
      return this.json(res, 200, { refuseWrites: this.refuseWrites, failWritesNext: this.failWritesNext });
    }
    if (url.pathname === '/__fake/received' && req.method === 'GET') return this.json(res, 200, { statusUpdates: this.statusUpdates, notes: this.notes });
    // Orders placed while a browser test runs: WooOrderOpts with `created` as ISO text.
    if (url.pathname === '/__fake/orders' && req.method === 'POST') {
      const list: any[] = (await this.body(req)) ?? [];
      const added = list.map((o) => wooOrder({ ...o, created: o.created ? new Date(o.created) : undefined, modified: undefined }));
      this.orders.push(...added);
      return this.json(res, 200, { ids: added.map((o) => o.id) });
    }
    const one = /^\/wp-json\/wc\/v3\/orders\/(\d+)(\/notes)?$/.exec(url.pathname);
    if (one && (req.method === 'GET' || (req.method === 'PUT' && !one[2]) || (req.method === 'POST' && one[2]))) return this.orderRoute(req, res, url, Number(one[1]), !!one[2]);
    if (url.pathname === '/wp-json/wc/v3/orders' && req.method === 'GET') {
      if (!this.authorised(req, url)) {
        const missing = !req.headers.authorization && !url.searchParams.get('consumer_key');
        return this.json(res, 401, missing
          ? { code: 'woocommerce_rest_cannot_view', message: 'Sorry, you cannot list resources.', data: { status: 401 } }
          : { code: 'woocommerce_rest_authentication_error', message: 'Consumer key is invalid.', data: { status: 401 } });
      }
      if (this.rateLimitNext > 0) {
        this.rateLimitNext--;
        return this.json(res, 429, { code: 'too_many_requests', message: 'Too many requests', data: { status: 429 } }, this.retryAfter ? { 'retry-after': this.retryAfter } : {});
      }
      const perPage = Number(url.searchParams.get('per_page') ?? 10);
      if (!(perPage >= 1 && perPage <= 100)) return this.json(res, 400, { code: 'rest_invalid_param', message: 'Invalid parameter(s): per_page', data: { status: 400 } });
      const page = Number(url.searchParams.get('page') ?? 1);
      const gmt = url.searchParams.get('dates_are_gmt') === 'true';
      const at = (v: string | null) => (v ? new Date(gmt ? `${v}Z` : `${v}Z`).getTime() : null);
      const after = at(url.searchParams.get('after'));
      const modAfter = at(url.searchParams.get('modified_after'));
      let list = this.orders.filter(
        (o) => (after === null || new Date(`${o.date_created_gmt}Z`).getTime() > after) && (modAfter === null || new Date(`${o.date_modified_gmt}Z`).getTime() > modAfter),
      );
      const asc = url.searchParams.get('order') === 'asc';
      const by = url.searchParams.get('orderby') ?? 'date';
      list = [...list].sort((a, b) => (by === 'id' ? a.id - b.id : a.date_created_gmt.localeCompare(b.date_created_gmt) || a.id - b.id) * (asc ? 1 : -1));
      const total = list.length;
      const pages = Math.max(1, Math.ceil(total / perPage));
      const link = (p: number, rel: string) => {
        const u = new URL(url);
        u.searchParams.set('page', String(p));
        return `<${u}>; rel="${rel}"`;
      };
      const links = [page > 1 ? link(page - 1, 'prev') : '', page < pages ? link(page + 1, 'next') : '', link(pages, 'last')].filter(Boolean);
      return this.json(res, 200, list.slice((page - 1) * perPage, page * perPage), {
        'x-wp-total': String(total),
        'x-wp-totalpages': String(pages),
        link: links.join(', '),
      });
    }
    return this.json(res, 404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
  }

  /** Auto-approves: POSTs the keys to callback_url (must answer 200), then redirects to return_url. */
  private async authorize(url: URL, res: ServerResponse) {
    for (const p of ['app_name', 'scope', 'user_id', 'return_url', 'callback_url']) {
      if (!url.searchParams.get(p)) return void res.writeHead(401, { 'content-type': 'text/html' }).end(`Missing parameter ${p}`);
    }
    if (!['read', 'write', 'read_write'].includes(url.searchParams.get('scope')!)) return void res.writeHead(401).end('Invalid scope');
    const userId = url.searchParams.get('user_id')!;
    const returnUrl = new URL(url.searchParams.get('return_url')!);
    if (url.searchParams.get('deny') === '1') {
      returnUrl.searchParams.set('success', '0');
      returnUrl.searchParams.set('user_id', userId);
      return void res.writeHead(302, { location: returnUrl.toString() }).end();
    }
    const n = this.issued.length + 1;
    const keys = { key_id: n, user_id: userId, consumer_key: `ck_issued_${n}_${'a'.repeat(30)}`, consumer_secret: `cs_issued_${n}_${'b'.repeat(30)}`, key_permissions: url.searchParams.get('scope')! };
    this.issued.push(keys);
    let ok = false;
    try {
      const r = await fetch(url.searchParams.get('callback_url')!, { method: 'POST', headers: { 'content-type': 'application/json;charset=UTF-8' }, body: JSON.stringify(keys) });
      ok = r.status === 200;
    } catch {
      ok = false;
    }
    if (!ok) {
      this.issued.pop();
      return void res.writeHead(401, { 'content-type': 'text/html' }).end('Error: An error occurred in the request and at the time were unable to send the consumer data.');
    }
    returnUrl.searchParams.set('success', '1');
    returnUrl.searchParams.set('user_id', userId);
    res.writeHead(302, { location: returnUrl.toString() }).end();
  }
}

/** A plain website that is not WooCommerce (WordPress without the plugin, or anything else). */
export async function notAShop(): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not Found</body></html>'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stop: () => new Promise((r) => server.close(() => r())) };
}
