import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/auth.decorators';
import { CheckoutService, PaymentResult } from './checkout.service';
import { PayPalWebhookService } from './paypal-webhook.service';
import { WebhookHeaders } from './providers/paypal.provider';
import { IgnoresIdempotencyKey } from '../idempotency/idempotency.decorators';

/**
 * What the payment provider and the buyer's browser call, without our session: the
 * return and cancel redirects (`?token=<orderId>`), the PayPal webhook, and the built-in
 * test checkout page. The return is a GET because the provider redirects the browser
 * there; it only captures an order the buyer approved at the provider, which is safe to
 * repeat.
 */
@ApiExcludeController()
@Public()
@Controller()
export class CheckoutController {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly paypal: PayPalWebhookService,
  ) {}

  @Get('checkout/return')
  async checkoutReturn(@Query('token') token: string | undefined, @Res() reply: FastifyReply) {
    const { result } = await this.checkout.handleReturn(String(token ?? ''));
    await this.toApp(reply, result);
  }

  @Get('checkout/cancel')
  async checkoutCancel(@Query('token') token: string | undefined, @Res() reply: FastifyReply) {
    const { result } = await this.checkout.handleCancel(String(token ?? ''));
    await this.toApp(reply, result);
  }

  @Post('webhooks/paypal')
  @IgnoresIdempotencyKey()
  @HttpCode(200)
  async paypalWebhook(@Headers() headers: WebhookHeaders, @Body() event: Record<string, unknown>) {
    return this.paypal.handle(headers, event);
  }

  /** The test checkout's approval page (only while the test provider is configured). */
  @Get('checkout/test/:orderId')
  async testCheckout(@Param('orderId') orderId: string, @Res() reply: FastifyReply) {
    const payment = await this.checkout.testOrder(orderId);
    reply.header('Cache-Control', 'no-store');
    if (!payment) {
      await reply.status(404).type('text/html; charset=utf-8').send(page('Test checkout', '<h1>Payment Failed</h1><p>This checkout does not exist.</p><p><a class="btn" href="/dashboard">Go to Homepage</a></p>'));
      return;
    }
    const token = encodeURIComponent(orderId);
    const amount = `${Number(payment.price).toFixed(2)} ${esc(payment.currency)}`;
    const open = payment.status === 'Pending' || payment.status === 'Cancelled';
    const body = `
      <p class="tag">Test checkout · no money is charged</p>
      <h1>Pay ${amount}</h1>
      <p>${payment.credits} credits (${esc(payment.packageSku)})<br><small>Order ${esc(orderId)}</small></p>
      ${
        open
          ? `<p class="actions"><a class="btn primary" id="approve" href="/api/checkout/return?token=${token}&amp;PayerID=TESTPAYER">Approve</a>
             <a class="btn" id="cancel" href="/api/checkout/cancel?token=${token}">Cancel</a></p>`
          : `<p>This payment is ${esc(payment.status)}.</p><p><a class="btn" href="/dashboard">Back to the app</a></p>`
      }`;
    await reply.type('text/html; charset=utf-8').send(page('Test checkout', body));
  }

  private async toApp(reply: FastifyReply, result: PaymentResult) {
    reply.header('Cache-Control', 'no-store');
    // Relative: the browser stays on the host it used (localhost, 127.0.0.1 or a LAN address).
    await reply.redirect(`/dashboard?PaymentResult=${result}`, 302);
  }
}

function esc(s: string) {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>GangSheet Studio | ${esc(title)}</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f5f6fa;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center;color:#1f2937}
main{background:#fff;border-radius:12px;box-shadow:0 4px 24px rgba(0,0,0,.08);padding:32px 40px;max-width:420px;text-align:center}
h1{font-size:28px;margin:8px 0}.tag{color:#b45309;background:#fef3c7;border-radius:6px;padding:4px 8px;display:inline-block;font-size:13px}
.actions{display:flex;gap:12px;justify-content:center;margin-top:24px}
.btn{display:inline-block;padding:10px 24px;border-radius:8px;border:1px solid #d1d5db;color:#1f2937;text-decoration:none;font-weight:600}
.btn.primary{background:#4f46e5;border-color:#4f46e5;color:#fff}small{color:#6b7280}
</style></head><body><main>${body}</main></body></html>`;
}
