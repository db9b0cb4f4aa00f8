import { BadGatewayException, BadRequestException, ConflictException, Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { PaymentMethod, PaymentStatus } from './entities/payment.entity';
import { amountMatches, PaymentSettlementService } from './payment-settlement.service';
import { PaymentsRepository } from './payments.repository';
import { PAYMENT_PROVIDER, PaymentProvider } from './providers/payment-provider';
import { PayPalProvider, WebhookHeaders } from './providers/paypal.provider';

export interface PayPalWebhookEvent {
  id?: string;
  event_type?: string;
  resource?: {
    id?: string;
    status?: string;
    custom_id?: string;
    amount?: { currency_code?: string; value?: string };
    supplementary_data?: { related_ids?: { order_id?: string } };
    links?: Array<{ href?: string; rel?: string }>;
  };
}

const UUID = /^[0-9a-f-]{36}$/i;

/**
 * POST /api/webhooks/paypal. Forged or unverifiable deliveries → 400 and nothing changes;
 * a verified event about a payment we do not know is acknowledged and ignored. Each event
 * settles through PaymentSettlementService, so a replayed delivery changes nothing.
 */
@Injectable()
export class PayPalWebhookService {
  private readonly logger = new Logger('Payments');

  constructor(
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider | null,
    private readonly payments: PaymentsRepository,
    private readonly settlement: PaymentSettlementService,
  ) {}

  async handle(headers: WebhookHeaders, event: PayPalWebhookEvent): Promise<{ action: string }> {
    if (!(this.provider instanceof PayPalProvider)) throw new NotFoundException('Not found');
    let ok: boolean;
    try {
      ok = await this.provider.verifyWebhook(headers, event);
    } catch (err) {
      this.logger.warn(`Webhook verification failed: ${(err as Error).message}`);
      throw new BadGatewayException({ message: 'Webhook could not be verified now', code: 'verification_unavailable' });
    }
    if (!ok) throw new BadRequestException({ message: 'Webhook signature could not be verified', code: 'bad_signature' });
    const type = event.event_type ?? '';
    const r = event.resource ?? {};
    const eventRef = event.id ? { id: event.id, type } : undefined;
    switch (type) {
      case 'PAYMENT.CAPTURE.COMPLETED': {
        const payment = await this.byCustomId(r);
        if (!payment || !r.id) return { action: 'ignored' };
        if (!amountMatches(payment, r.amount?.value ?? '', r.amount?.currency_code ?? '')) {
          this.logger.error(`Webhook ${event.id}: capture amount ${r.amount?.value} ${r.amount?.currency_code} does not match payment ${payment._id}`);
          return { action: 'ignored' };
        }
        return { action: (await this.settlement.complete(payment._id, r.id, { event: eventRef })) ? 'completed' : 'unchanged' };
      }
      case 'PAYMENT.CAPTURE.DENIED': {
        const payment = await this.byCustomId(r);
        if (!payment) return { action: 'ignored' };
        const before = payment.status;
        await this.settlement.cancel(payment._id);
        return { action: before === PaymentStatus.Pending ? 'cancelled' : 'unchanged' };
      }
      case 'PAYMENT.CAPTURE.REFUNDED': {
        const captureId = r.links?.find((l) => l.rel === 'up')?.href?.match(/\/captures\/([^/?]+)/)?.[1];
        const payment = (captureId ? await this.payments.findByCapture(PaymentMethod.PayPal, captureId) : null) ?? (await this.byCustomId(r));
        if (!payment) return { action: 'ignored' };
        if (payment.status === PaymentStatus.Pending) {
          // The capture is not recorded yet (its webhook or the return is still on the way):
          // a non-2xx answer makes PayPal deliver the refund again later.
          throw new ConflictException({ message: 'Payment not completed yet; deliver the refund again later', code: 'payment_pending' });
        }
        return { action: (await this.settlement.refund(payment._id, eventRef)) ? 'refunded' : 'unchanged' };
      }
      default:
        return { action: 'ignored' };
    }
  }

  /** The event's payment: by our id in `custom_id`, else by the PayPal order it belongs to. */
  private async byCustomId(r: NonNullable<PayPalWebhookEvent['resource']>) {
    if (r.custom_id && UUID.test(r.custom_id)) {
      const p = await this.payments.findByMethod(PaymentMethod.PayPal, r.custom_id);
      if (p) return p;
    }
    const orderId = r.supplementary_data?.related_ids?.order_id;
    return orderId ? this.payments.findByOrder(PaymentMethod.PayPal, orderId) : null;
  }
}
