import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { CheckoutService } from './checkout.service';
import { amountMatches, PaymentSettlementService } from './payment-settlement.service';
import { PaymentsRepository } from './payments.repository';
import { PAYMENT_PROVIDER, PaymentProvider } from './providers/payment-provider';

/** A checkout still not approved after this long is given up (PayPal lets unapproved orders lapse after hours). */
const ABANDON_MS = 6 * 3600_000;

/**
 * The safety net for payments nobody finished: the buyer approved but never came back
 * and the webhook was lost (or there is no webhook, as with the test checkout).
 */
@Injectable()
export class PaymentReconciliationService {
  private readonly logger = new Logger('Payments');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider | null,
    private readonly payments: PaymentsRepository,
    private readonly checkout: CheckoutService,
    private readonly settlement: PaymentSettlementService,
  ) {}

  /**
   * Pending payments older than `graceMs` are looked up at the provider: approved orders are
   * captured, captured ones completed; orders still open after `abandonMs`, or gone, are
   * Cancelled. Runs on the maintenance queue on one node at a time; safe to run twice.
   */
  async reconcile(graceMs = this.config.recovery.graceMs, abandonMs = ABANDON_MS): Promise<{ completed: number; cancelled: number }> {
    const provider = this.provider;
    const out = { completed: 0, cancelled: 0 };
    if (!provider) return out;
    for (const p of await this.payments.pendingCheckouts(provider.method, graceMs)) {
      try {
        const state = p.ref && provider.lookup ? await provider.lookup(p.ref) : { state: 'open' as const };
        if (state.state === 'approved' && p.ref) {
          if ((await this.checkout.handleReturn(p.ref)).result === 'Completed') out.completed++;
        } else if (state.state === 'completed') {
          const payment = await this.payments.get(p.id);
          if (amountMatches(payment, state.amount, state.currency) && (await this.settlement.complete(p.id, state.captureId))) out.completed++;
        } else if (state.state === 'gone' || state.state === 'declined' || (state.state === 'open' && p.ageMs > abandonMs)) {
          await this.settlement.cancel(p.id);
          out.cancelled++;
        }
      } catch (err) {
        this.logger.warn(`Reconciling payment ${p.id} failed: ${(err as Error).message}`);
      }
    }
    if (out.completed || out.cancelled) this.logger.log(`Reconciled payments: ${out.completed} completed, ${out.cancelled} cancelled`);
    return out;
  }
}
