import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A local PayPal REST server speaking Orders v2 and the webhook API as written down in
 * the external-API reference: client-credentials tokens (Basic auth, expiring, revocable),
 * create order (payer-action link to this server's approval page), capture (422
 * ORDER_NOT_APPROVED before approval, ORDER_ALREADY_CAPTURED after, INSTRUMENT_DECLINED
 * when told to decline), GET order, responses replayed per PayPal-Request-Id with 200,
 * webhook deliveries with the five PAYPAL-* headers, and verify-webhook-signature that
 * answers SUCCESS only for transmissions this server really sent.
 */
export const FAKE_CLIENT_ID = 'fake-client-id';
export const FAKE_CLIENT_SECRET = 'fake-client-secret';
export const FAKE_WEBHOOK_ID = 'WH-FAKE-0001';

interface FakeOrder {
  id: string;
  status: 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';
  amount: { currency_code: string; value: string };
  customId?: string;
  referenceId?: string;
  returnUrl: string;
  cancelUrl: string;
  capture?: { id: string; status: string };
  /** Set by a test: the next capture fails with INSTRUMENT_DECLINED. */
  decline?: boolean;
}

export interface Transmission {
  transmissionId: string;
  sig: string;
  time: string;
  eventId: string;
  /** The body as sent: the real signature covers it too (its CRC32), so a changed body fails. */
  eventJson: string;
}

export class FakePayPal {
  private server: Server;
  port = 0;
  readonly orders = new Map<string, FakeOrder>();
  private readonly tokens = new Map<string, number>(); // token -> expiresAt
  private readonly idempotent = new Map<string, { status: number; body: unknown }>();
  private readonly transmissions = new Map<string, Transmission>();
  /** Every request the app made, for assertions. */
  readonly requests: Array<{ method: string; path: string; headers: IncomingMessage['headers']; body: any }> = [];
  tokenRequests = 0;
  /** Lifetime of issued tokens (expires_in, seconds). */
  tokenLifetime = 32400;

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', this.url);
        let body: any = raw;
        if ((req.headers['content-type'] ?? '').startsWith('application/json')) {
          try {
            body = raw ? JSON.parse(raw) : {};
          } catch {
            return this.json(res, 400, { name: 'MALFORMED_REQUEST', message: 'bad json' });
          }
        }
        this.requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, body });
        try {
          this.route(req, res, url, body);
        } catch (err) {
          this.json(res, 500, { name: 'INTERNAL_SERVER_ERROR', message: (err as Error).message });
        }
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop() {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Every token issued so far stops working (as after expiry): the next call gets 401. */
  expireTokens() {
    this.tokens.clear();
  }

  /** The buyer approves on the approval page; returns where PayPal sends the browser. */
  approve(orderId: string): string {
    const o = this.order(orderId);
    if (o.status === 'PAYER_ACTION_REQUIRED') o.status = 'APPROVED';
    const u = new URL(o.returnUrl);
    u.searchParams.set('token', o.id);
    u.searchParams.set('PayerID', 'FAKEPAYER01');
    return u.pathname + u.search;
  }

  /** The buyer cancels on the approval page; returns where PayPal sends the browser. */
  cancelUrl(orderId: string): string {
    const u = new URL(this.order(orderId).cancelUrl);
    u.searchParams.set('token', orderId);
    return u.pathname + u.search;
  }

  /** Captures an approved order as if the app had (e.g. the browser never came back after PayPal captured). */
  captureNow(orderId: string) {
    const o = this.order(orderId);
    if (o.status !== 'APPROVED') throw new Error(`order ${orderId} is ${o.status}`);
    o.status = 'COMPLETED';
    o.capture = { id: this.newId(), status: 'COMPLETED' };
    return o.capture;
  }

  order(orderId: string): FakeOrder {
    const o = this.orders.get(orderId);
    if (!o) throw new Error(`no order ${orderId}`);
    return o;
  }

  /** Webhook event bodies as PayPal sends them. */
  captureEvent(orderId: string, type: 'PAYMENT.CAPTURE.COMPLETED' | 'PAYMENT.CAPTURE.DENIED' = 'PAYMENT.CAPTURE.COMPLETED') {
    const o = this.order(orderId);
    const captureId = o.capture?.id ?? this.newId();
    const id = `WH-${this.newId()}-${this.newId()}`;
    return {
      id,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: 'capture',
      resource_version: '2.0',
      event_type: type,
      summary: `Payment ${type === 'PAYMENT.CAPTURE.COMPLETED' ? 'completed' : 'denied'} for ${o.amount.value} ${o.amount.currency_code}`,
      resource: {
        id: captureId,
        status: type === 'PAYMENT.CAPTURE.COMPLETED' ? 'COMPLETED' : 'DECLINED',
        amount: o.amount,
        final_capture: true,
        custom_id: o.customId,
        supplementary_data: { related_ids: { order_id: o.id } },
        create_time: new Date().toISOString(),
        update_time: new Date().toISOString(),
        links: [
          { href: `${this.url}/v2/payments/captures/${captureId}`, rel: 'self', method: 'GET' },
          { href: `${this.url}/v2/payments/captures/${captureId}/refund`, rel: 'refund', method: 'POST' },
          { href: `${this.url}/v2/checkout/orders/${o.id}`, rel: 'up', method: 'GET' },
        ],
      },
      links: [{ href: `${this.url}/v1/notifications/webhooks-events/${id}`, rel: 'self', method: 'GET' }],
    };
  }

  refundEvent(orderId: string) {
    const o = this.order(orderId);
    if (!o.capture) throw new Error('not captured');
    o.capture.status = 'REFUNDED';
    const refundId = this.newId();
    const id = `WH-${this.newId()}-${this.newId()}`;
    return {
      id,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: 'refund',
      resource_version: '2.0',
      event_type: 'PAYMENT.CAPTURE.REFUNDED',
      summary: `A ${o.amount.value} ${o.amount.currency_code} capture payment was refunded`,
      resource: {
        id: refundId,
        status: 'COMPLETED',
        amount: o.amount,
        custom_id: o.customId,
        seller_payable_breakdown: { gross_amount: o.amount, total_refunded_amount: o.amount },
        links: [
          { href: `${this.url}/v2/payments/refunds/${refundId}`, rel: 'self', method: 'GET' },
          { href: `${this.url}/v2/payments/captures/${o.capture.id}`, rel: 'up', method: 'GET' },
        ],
      },
      links: [{ href: `${this.url}/v1/notifications/webhooks-events/${id}`, rel: 'self', method: 'GET' }],
    };
  }

  /**
   * POSTs an event to `target` with PayPal's delivery headers. A `forged` delivery carries
   * headers this server never issued (verify-webhook-signature will say FAILURE).
   */
  async deliver(target: string, event: { id: string }, opts: { forged?: boolean; tamper?: (e: any) => any } = {}): Promise<{ status: number; body: any }> {
    const t: Transmission = {
      transmissionId: randomUUID(),
      sig: randomBytes(32).toString('base64'),
      time: new Date().toISOString(),
      eventId: event.id,
      eventJson: JSON.stringify(event),
    };
    if (!opts.forged) this.transmissions.set(t.transmissionId, t);
    const res = await fetch(target, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'PAYPAL-AUTH-ALGO': 'SHA256withRSA',
        'PAYPAL-CERT-URL': `${this.url}/v1/notifications/certs/CERT-360caa42-fca2a594-1d93a270`,
        'PAYPAL-TRANSMISSION-ID': t.transmissionId,
        'PAYPAL-TRANSMISSION-SIG': t.sig,
        'PAYPAL-TRANSMISSION-TIME': t.time,
      },
      body: JSON.stringify(opts.tamper ? opts.tamper(structuredClone(event)) : event),
    });
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not json */
    }
    return { status: res.status, body };
  }

  private newId() {
    return randomBytes(9).toString('hex').toUpperCase().slice(0, 17);
  }

  private json(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private error(res: ServerResponse, status: number, issue: string, description: string) {
    this.json(res, status, {
      name: status === 404 ? 'RESOURCE_NOT_FOUND' : 'UNPROCESSABLE_ENTITY',
      message: 'The requested action could not be performed, semantically incorrect, or failed business validation.',
      debug_id: randomBytes(6).toString('hex'),
      details: [{ issue, description }],
    });
  }

  private authorized(req: IncomingMessage): boolean {
    const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const exp = m ? this.tokens.get(m[1]) : undefined;
    return exp !== undefined && exp > Date.now();
  }

  private orderBody(o: FakeOrder) {
    const captures = o.capture
      ? [
          {
            id: o.capture.id,
            status: o.capture.status,
            amount: o.amount,
            final_capture: true,
            custom_id: o.customId,
            links: [
              { href: `${this.url}/v2/payments/captures/${o.capture.id}`, rel: 'self', method: 'GET' },
              { href: `${this.url}/v2/checkout/orders/${o.id}`, rel: 'up', method: 'GET' },
            ],
          },
        ]
      : undefined;
    return {
      id: o.id,
      status: o.status,
      purchase_units: [
        { reference_id: o.referenceId, custom_id: o.customId, amount: o.amount, ...(captures ? { payments: { captures } } : {}) },
      ],
      links: [{ href: `${this.url}/v2/checkout/orders/${o.id}`, rel: 'self', method: 'GET' }],
    };
  }

  private route(req: IncomingMessage, res: ServerResponse, url: URL, body: any) {
    const path = url.pathname;
    if (req.method === 'POST' && path === '/v1/oauth2/token') {
      this.tokenRequests++;
      const basic = Buffer.from(`${FAKE_CLIENT_ID}:${FAKE_CLIENT_SECRET}`).toString('base64');
      if (req.headers.authorization !== `Basic ${basic}`) {
        return this.json(res, 401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
      }
      if (new URLSearchParams(String(body)).get('grant_type') !== 'client_credentials') {
        return this.json(res, 400, { error: 'unsupported_grant_type' });
      }
      const token = `A21AA${randomBytes(24).toString('base64url')}`;
      this.tokens.set(token, Date.now() + this.tokenLifetime * 1000);
      return this.json(res, 200, {
        scope: 'https://uri.paypal.com/services/payments/payment',
        access_token: token,
        token_type: 'Bearer',
        app_id: 'APP-80W284485P519543T',
        expires_in: this.tokenLifetime,
        nonce: `${new Date().toISOString()}${randomBytes(4).toString('hex')}`,
      });
    }
    // The buyer's approval page (a browser could follow it): ?token=&action=approve|cancel.
    if (req.method === 'GET' && path === '/checkoutnow') {
      const id = url.searchParams.get('token') ?? '';
      if (!this.orders.has(id)) return this.json(res, 404, {});
      const to = url.searchParams.get('action') === 'cancel' ? this.cancelUrl(id) : this.approve(id);
      const o = this.order(id);
      const origin = new URL(url.searchParams.get('action') === 'cancel' ? o.cancelUrl : o.returnUrl).origin;
      res.writeHead(302, { Location: origin + to });
      return res.end();
    }
    if (!this.authorized(req)) {
      return this.json(res, 401, { error: 'invalid_token', error_description: 'Token signature verification failed' });
    }
    const requestId = req.headers['paypal-request-id'];
    const key = typeof requestId === 'string' ? `${path}|${requestId}` : undefined;
    if (key && this.idempotent.has(key)) {
      const prev = this.idempotent.get(key)!;
      return this.json(res, prev.status === 201 ? 200 : prev.status, prev.body);
    }
    const remember = (status: number, out: unknown) => {
      if (key && status < 500) this.idempotent.set(key, { status, body: out });
      this.json(res, status, out);
    };
    if (req.method === 'POST' && path === '/v2/checkout/orders') {
      const unit = body?.purchase_units?.[0];
      const ctx = body?.payment_source?.paypal?.experience_context ?? body?.application_context;
      if (body?.intent !== 'CAPTURE' || !unit?.amount?.value || !unit?.amount?.currency_code || !ctx?.return_url || !ctx?.cancel_url) {
        return this.json(res, 400, { name: 'INVALID_REQUEST', message: 'Request is not well-formed', details: [{ issue: 'MISSING_REQUIRED_PARAMETER' }] });
      }
      const id = this.newId();
      const o: FakeOrder = {
        id,
        status: 'PAYER_ACTION_REQUIRED',
        amount: unit.amount,
        customId: unit.custom_id,
        referenceId: unit.reference_id,
        returnUrl: ctx.return_url,
        cancelUrl: ctx.cancel_url,
      };
      this.orders.set(id, o);
      return remember(201, {
        id,
        status: o.status,
        payment_source: { paypal: {} },
        links: [
          { href: `${this.url}/v2/checkout/orders/${id}`, rel: 'self', method: 'GET' },
          { href: `${this.url}/checkoutnow?token=${id}`, rel: 'payer-action', method: 'GET' },
        ],
      });
    }
    const capture = /^\/v2\/checkout\/orders\/([^/]+)\/capture$/.exec(path);
    if (req.method === 'POST' && capture) {
      const o = this.orders.get(capture[1]);
      if (!o) return this.error(res, 404, 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist.');
      if (o.status === 'COMPLETED') return this.error(res, 422, 'ORDER_ALREADY_CAPTURED', 'Order already captured.');
      if (o.status !== 'APPROVED') return this.error(res, 422, 'ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment.');
      if (o.decline) {
        return remember(422, {
          name: 'UNPROCESSABLE_ENTITY',
          message: 'The requested action could not be performed, semantically incorrect, or failed business validation.',
          details: [{ issue: 'INSTRUMENT_DECLINED', description: 'The instrument presented was either declined by the processor or bank.' }],
        });
      }
      o.status = 'COMPLETED';
      o.capture = { id: this.newId(), status: 'COMPLETED' };
      return remember(201, this.orderBody(o));
    }
    const get = /^\/v2\/checkout\/orders\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && get) {
      const o = this.orders.get(get[1]);
      if (!o) return this.error(res, 404, 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist.');
      return this.json(res, 200, this.orderBody(o));
    }
    if (req.method === 'POST' && path === '/v1/notifications/verify-webhook-signature') {
      const required = ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time', 'webhook_id', 'webhook_event'];
      if (required.some((k) => !body?.[k])) return this.json(res, 400, { name: 'VALIDATION_ERROR', message: 'Invalid request' });
      const t = this.transmissions.get(body.transmission_id);
      const ok =
        !!t &&
        t.sig === body.transmission_sig &&
        t.time === body.transmission_time &&
        body.webhook_id === FAKE_WEBHOOK_ID &&
        body.webhook_event?.id === t.eventId &&
        JSON.stringify(body.webhook_event) === t.eventJson;
      return this.json(res, 200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
    }
    this.json(res, 404, { name: 'RESOURCE_NOT_FOUND', message: `no route ${req.method} ${path}` });
  }
}
