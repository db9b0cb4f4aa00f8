import { Logger } from '@nestjs/common';
import { PaymentMethod, PaymentType } from '../entities/payment.entity';
import { CaptureResult, CheckoutOrder, CreateOrderInput, OrderState, PaymentProvider, ProviderError } from './payment-provider';

export interface PayPalConfig {
  clientId: string;
  clientSecret: string;
  webhookId: string;
  /** REST base URL: https://api-m.sandbox.paypal.com, https://api-m.paypal.com or a local fake. */
  apiUrl: string;
  brandName: string;
}

interface PayPalLink {
  href: string;
  rel: string;
  method?: string;
}

interface PayPalCapture {
  id: string;
  status: string;
  amount?: { currency_code: string; value: string };
  custom_id?: string;
}

interface PayPalOrder {
  id: string;
  status: string;
  links?: PayPalLink[];
  purchase_units?: Array<{ custom_id?: string; payments?: { captures?: PayPalCapture[] } }>;
}

interface PayPalError {
  name?: string;
  message?: string;
  details?: Array<{ issue?: string; description?: string }>;
}

/** Headers PayPal sends with a webhook delivery (lower-cased, as Node gives them). */
export interface WebhookHeaders {
  'paypal-auth-algo'?: string;
  'paypal-cert-url'?: string;
  'paypal-transmission-id'?: string;
  'paypal-transmission-sig'?: string;
  'paypal-transmission-time'?: string;
}

const TIMEOUT_MS = 15_000;
/** Renew the token this long before PayPal says it expires. */
const TOKEN_MARGIN_MS = 60_000;

/**
 * PayPal Orders v2: client-credentials token (cached until shortly before expiry, renewed
 * once on a 401), create order with our payment id as custom_id and return/cancel URLs,
 * capture on return, both with PayPal-Request-Id so a retry after a timeout replays the
 * first result instead of charging twice; webhooks checked with verify-webhook-signature.
 */
export class PayPalProvider implements PaymentProvider {
  readonly method = PaymentMethod.PayPal;
  readonly type = PaymentType.PayPal;
  private readonly logger = new Logger('PayPal');
  private token?: { value: string; expiresAt: number };
  private tokenRequest?: Promise<string>;

  constructor(private readonly config: PayPalConfig) {}

  async createOrder(input: CreateOrderInput): Promise<CheckoutOrder> {
    const { status, body } = await this.request<PayPalOrder & PayPalError>('POST', '/v2/checkout/orders', {
      requestId: `create-${input.paymentId}`,
      json: {
        intent: 'CAPTURE',
        purchase_units: [
          {
            reference_id: input.paymentId,
            custom_id: input.paymentId,
            description: input.description,
            amount: { currency_code: input.currency, value: input.amount },
          },
        ],
        payment_source: {
          paypal: {
            experience_context: {
              brand_name: this.config.brandName,
              shipping_preference: 'NO_SHIPPING',
              user_action: 'PAY_NOW',
              landing_page: 'LOGIN',
              return_url: input.returnUrl,
              cancel_url: input.cancelUrl,
            },
          },
        },
      },
    });
    if (status !== 200 && status !== 201) throw new ProviderError(`create order answered ${status}: ${describe(body)}`);
    const link = body.links?.find((l) => l.rel === 'payer-action' || l.rel === 'approve')?.href;
    if (!body.id || !link) throw new ProviderError('create order answered without an id or an approval link');
    return { orderId: body.id, link };
  }

  async capture(orderId: string, paymentId: string): Promise<CaptureResult> {
    // Only an approved order is captured. The return URL needs no session and may be opened
    // before the buyer approves; a capture then fails (ORDER_NOT_APPROVED) under this
    // payment's PayPal-Request-Id, and PayPal may answer the buyer's real return with it again.
    const before = await this.lookup(orderId);
    if (before.state === 'open') return { state: 'unapproved' };
    if (before.state === 'gone') return { state: 'declined', reason: 'ORDER_NOT_FOUND' };
    if (before.state !== 'approved') return before;
    const path = `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`;
    const { status, body } = await this.request<PayPalOrder & PayPalError>('POST', path, {
      requestId: `capture-${paymentId}`,
      json: {},
      prefer: 'return=representation',
    });
    if (status === 200 || status === 201) return this.captureOf(body);
    const issue = body.details?.[0]?.issue ?? body.name ?? String(status);
    if (issue === 'ORDER_ALREADY_CAPTURED') {
      // Captured before (another tab, an earlier try): read the order for the capture.
      const order = await this.request<PayPalOrder>('GET', `/v2/checkout/orders/${encodeURIComponent(orderId)}`);
      if (order.status === 200) return this.captureOf(order.body);
    }
    if (issue === 'ORDER_NOT_APPROVED') return { state: 'unapproved' };
    if (status === 422 || status === 404) return { state: 'declined', reason: issue };
    throw new ProviderError(`capture answered ${status}: ${describe(body)}`);
  }

  async lookup(orderId: string): Promise<OrderState> {
    const { status, body } = await this.request<PayPalOrder & PayPalError>('GET', `/v2/checkout/orders/${encodeURIComponent(orderId)}`);
    if (status === 404) return { state: 'gone' };
    if (status !== 200) throw new ProviderError(`get order answered ${status}: ${describe(body)}`);
    if (body.status === 'APPROVED') return { state: 'approved' };
    if (body.status === 'COMPLETED') return this.captureOf(body);
    if (body.status === 'VOIDED') return { state: 'gone' };
    return { state: 'open' };
  }

  /** Only a SUCCESS from PayPal's verify-webhook-signature counts. */
  async verifyWebhook(headers: WebhookHeaders, event: unknown): Promise<boolean> {
    const h = headers;
    if (!h['paypal-transmission-id'] || !h['paypal-transmission-sig'] || !h['paypal-transmission-time'] || !h['paypal-cert-url'] || !h['paypal-auth-algo']) {
      return false;
    }
    const { status, body } = await this.request<{ verification_status?: string }>('POST', '/v1/notifications/verify-webhook-signature', {
      json: {
        auth_algo: h['paypal-auth-algo'],
        cert_url: h['paypal-cert-url'],
        transmission_id: h['paypal-transmission-id'],
        transmission_sig: h['paypal-transmission-sig'],
        transmission_time: h['paypal-transmission-time'],
        webhook_id: this.config.webhookId,
        webhook_event: event,
      },
    });
    if (status !== 200) throw new ProviderError(`verify-webhook-signature answered ${status}`);
    return body.verification_status === 'SUCCESS';
  }

  private captureOf(order: PayPalOrder): CaptureResult {
    const capture = order.purchase_units?.[0]?.payments?.captures?.[0];
    if (!capture) {
      return order.status === 'COMPLETED' ? { state: 'pending' } : { state: 'declined', reason: order.status ?? 'NO_CAPTURE' };
    }
    if (order.status === 'COMPLETED' && capture.status === 'COMPLETED' && capture.amount) {
      return {
        state: 'completed',
        captureId: capture.id,
        amount: capture.amount.value,
        currency: capture.amount.currency_code,
        customId: capture.custom_id,
      };
    }
    if (capture.status === 'PENDING') return { state: 'pending', captureId: capture.id };
    return { state: 'declined', reason: capture.status };
  }

  private async accessToken(): Promise<string> {
    if (this.token && Date.now() < this.token.expiresAt) return this.token.value;
    // One token request at a time, however many calls need it.
    this.tokenRequest ??= this.fetchToken().finally(() => (this.tokenRequest = undefined));
    return this.tokenRequest;
  }

  private async fetchToken(): Promise<string> {
    const basic = Buffer.from(`${this.config.clientId}:${this.config.clientSecret}`).toString('base64');
    let res: Response;
    try {
      res = await fetch(`${this.config.apiUrl}/v1/oauth2/token`, {
        method: 'POST',
        headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: 'grant_type=client_credentials',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new ProviderError(`token request failed: ${(err as Error).message}`);
    }
    const body = (await res.json().catch(() => ({}))) as { access_token?: string; expires_in?: number };
    if (!res.ok || !body.access_token) throw new ProviderError(`token request answered ${res.status}`);
    const lifetimeMs = Math.max(0, (body.expires_in ?? 0) * 1000 - TOKEN_MARGIN_MS);
    this.token = { value: body.access_token, expiresAt: Date.now() + lifetimeMs };
    return body.access_token;
  }

  /** One REST call with the Bearer token; a 401 drops the cached token and retries once. */
  private async request<T>(
    method: 'GET' | 'POST',
    path: string,
    opts: { json?: unknown; requestId?: string; prefer?: string } = {},
    retried = false,
  ): Promise<{ status: number; body: T }> {
    const token = await this.accessToken();
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
    if (opts.json !== undefined) headers['Content-Type'] = 'application/json';
    if (opts.requestId) headers['PayPal-Request-Id'] = opts.requestId;
    if (opts.prefer) headers.Prefer = opts.prefer;
    let res: Response;
    try {
      res = await fetch(`${this.config.apiUrl}${path}`, {
        method,
        headers,
        body: opts.json === undefined ? undefined : JSON.stringify(opts.json),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new ProviderError(`${method} ${path} failed: ${(err as Error).message}`);
    }
    if (res.status === 401 && !retried) {
      this.logger.log('Access token refused; requesting a new one');
      if (this.token?.value === token) this.token = undefined;
      return this.request(method, path, opts, true);
    }
    const body = (await res.json().catch(() => ({}))) as T;
    return { status: res.status, body };
  }
}

function describe(body: PayPalError): string {
  return [body.name, body.details?.map((d) => d.issue).join(','), body.message].filter(Boolean).join(' ');
}
