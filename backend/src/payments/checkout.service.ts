import { BadGatewayException, BadRequestException, Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { User } from '../users/entities/user.entity';
import { Payment, PaymentMethod, PaymentStatus } from './entities/payment.entity';
import { PaymentCatalogueService } from './payment-catalogue.service';
import { amountMatches, PaymentSettlementService } from './payment-settlement.service';
import { PaymentsRepository } from './payments.repository';
import { PAYMENT_PROVIDER, PaymentProvider } from './providers/payment-provider';

export type PaymentResult = 'Completed' | 'Pending' | 'Cancelled';

/**
 * Buying through the checkout provider: the Pending payment and the provider's order, then
 * the buyer's return or cancel redirect. The return proves nothing by itself: the order is
 * captured on the server and completed only on a COMPLETED capture of the right amount.
 */
@Injectable()
export class CheckoutService {
  private readonly logger = new Logger('Payments');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider | null,
    private readonly payments: PaymentsRepository,
    private readonly catalogue: PaymentCatalogueService,
    private readonly settlement: PaymentSettlementService,
  ) {}

  /** POST /buyCredits: a Pending payment at today's price, then a checkout order with the provider. */
  async buy(user: User, sku: string): Promise<{ link: string; status: 'Pending'; paymentId: string }> {
    const pkg = this.catalogue.packageOrFail(sku);
    const provider = this.provider;
    if (!provider) {
      throw new BadRequestException({ message: 'Buying credits is not available: no payment provider is configured.', code: 'payments_disabled' });
    }
    const payment = await this.payments.create({
      userId: user._id,
      type: provider.type,
      paymentMethod: provider.method,
      packageSku: pkg.sku,
      credits: pkg.credits,
      price: this.catalogue.priceFor(pkg, user),
      currency: this.catalogue.currency,
      status: PaymentStatus.Pending,
    });
    const base = this.config.appUrl;
    try {
      const order = await provider.createOrder({
        paymentId: payment._id,
        amount: payment.price,
        currency: payment.currency,
        description: `${pkg.credits} credits (${pkg.sku})`,
        returnUrl: `${base}/api/checkout/return`,
        cancelUrl: `${base}/api/checkout/cancel`,
      });
      await this.payments.setOrderId(payment._id, order.orderId);
      return { link: order.link, status: 'Pending', paymentId: payment._id };
    } catch (err) {
      this.logger.error(`Checkout for payment ${payment._id} could not be opened: ${(err as Error).message}`);
      await this.payments.abandonCheckout(payment._id);
      throw new BadGatewayException({ message: 'The payment provider could not be reached. Please try again.', code: 'provider_unavailable' });
    }
  }

  private findByOrder(orderId: string) {
    if (!this.provider || !orderId) return Promise.resolve(null);
    return this.payments.findByOrder(this.provider.method, orderId);
  }

  /**
   * The buyer came back from the provider (`?token=<orderId>`). The return proves nothing:
   * capture on the server, then complete only on a COMPLETED capture of the right amount.
   */
  async handleReturn(orderId: string): Promise<{ result: PaymentResult; paymentId?: string }> {
    const payment = await this.findByOrder(orderId);
    if (!payment || !this.provider) return { result: 'Cancelled' };
    if (payment.status === PaymentStatus.Completed) return { result: 'Completed', paymentId: payment._id };
    if (payment.status === PaymentStatus.Refunded) return { result: 'Cancelled', paymentId: payment._id };
    let capture;
    try {
      capture = await this.provider.capture(orderId, payment._id);
    } catch (err) {
      // Not reachable: the webhook (or the buyer's next return) finishes it.
      this.logger.warn(`Capture of payment ${payment._id} failed: ${(err as Error).message}`);
      return { result: 'Pending', paymentId: payment._id };
    }
    if (capture.state === 'completed') {
      if (!amountMatches(payment, capture.amount, capture.currency)) {
        this.logger.error(`Payment ${payment._id}: captured ${capture.amount} ${capture.currency}, expected ${payment.price} ${payment.currency}`);
        return { result: 'Pending', paymentId: payment._id };
      }
      await this.settlement.complete(payment._id, capture.captureId);
      return { result: 'Completed', paymentId: payment._id };
    }
    if (capture.state === 'pending') {
      if (capture.captureId) await this.payments.setCaptureId(payment._id, capture.captureId);
      return { result: 'Pending', paymentId: payment._id };
    }
    // The return needs no session, so anyone with the order id can open it: before the buyer
    // approves it must change nothing (cancelling would end the checkout the buyer is still on).
    if (capture.state === 'unapproved') return { result: 'Pending', paymentId: payment._id };
    this.logger.warn(`Payment ${payment._id} declined: ${capture.reason}`);
    return this.cancelled(payment);
  }

  /** The buyer cancelled at the provider. A payment completed meanwhile (another tab) stays Completed. */
  async handleCancel(orderId: string): Promise<{ result: PaymentResult; paymentId?: string }> {
    const payment = await this.findByOrder(orderId);
    if (!payment) return { result: 'Cancelled' };
    return this.cancelled(payment);
  }

  private async cancelled(payment: Payment): Promise<{ result: PaymentResult; paymentId: string }> {
    await this.settlement.cancel(payment._id);
    const now = await this.payments.get(payment._id);
    return { result: now.status === PaymentStatus.Completed ? 'Completed' : 'Cancelled', paymentId: payment._id };
  }

  /** The test checkout page's payment, or null when the order is unknown or not a test order. */
  async testOrder(orderId: string): Promise<Payment | null> {
    if (this.provider?.method !== PaymentMethod.Test) return null;
    return this.payments.findByOrder(PaymentMethod.Test, orderId);
  }
}
