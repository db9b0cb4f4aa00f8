import { Injectable, Logger } from '@nestjs/common';
import { CreditsService } from '../credits/credits.service';
import { CreditReason } from '../credits/entities/credit-transaction.entity';
import { NotificationsService } from '../notifications/notifications.service';
import { RealtimeService } from '../realtime/realtime.service';
import { WebhooksService } from '../webhooks/webhooks.service';
import { Payment, PaymentMethod } from './entities/payment.entity';
import { PaymentsRepository } from './payments.repository';

/** What a completed or refunded payment leaves behind for notifications and the socket. */
export interface PaymentSettledEvent {
  kind: 'completed' | 'refunded' | 'cancelled';
  payment: Payment;
  availableCredits: number;
  message: string;
  /** A cancellation the user is told about (a bank transfer that expired); other cancellations were the user's own doing. */
  notify?: boolean;
}

/** The provider event that caused a settlement, recorded in its transaction. */
export interface ProviderEventRef {
  id: string;
  type: string;
}

const ledgerReference = (paymentId: string) => `payment:${paymentId}`;

/** Whether a provider's amount is the payment's price (the test checkout charges nothing real). */
export function amountMatches(p: Payment, amount: string, currency: string): boolean {
  if (p.paymentMethod === PaymentMethod.Test) return true;
  return Number(amount) === Number(p.price) && currency === p.currency;
}

/**
 * A payment's status changes and their credits. Every way a payment can complete (return
 * redirect, webhook, replayed webhook, a second tab, reconciliation, an admin marking a bank
 * transfer received) ends in complete(), which credits the user at most once: a conditional
 * UPDATE Pending/Cancelled → Completed and the ledger row in one transaction, the ledger's
 * unique (reason, reference) behind it. No transaction is open while a provider is called.
 */
@Injectable()
export class PaymentSettlementService {
  private readonly logger = new Logger('Payments');

  constructor(
    private readonly payments: PaymentsRepository,
    private readonly credits: CreditsService,
    private readonly realtime: RealtimeService,
    private readonly notifications: NotificationsService,
    private readonly webhooks: WebhooksService,
  ) {}

  /** Pending → Cancelled (a Completed or Refunded payment stays as it is). */
  async cancel(paymentId: string, notice?: string): Promise<boolean> {
    if (!(await this.payments.cancelPending(paymentId))) return false;
    const payment = await this.payments.get(paymentId);
    await this.settled({ kind: 'cancelled', payment, availableCredits: await this.payments.balance(payment.userId), message: notice ?? 'Payment cancelled', notify: !!notice });
    return true;
  }

  /**
   * Pending (or Cancelled: money can still arrive after a cancel in another tab) →
   * Completed, and the credits, in one transaction; true when this call did it.
   * `by.event` (a webhook event) is recorded in the same transaction, so a replay does nothing;
   * `by.actorId` is the admin who marked a bank transfer received.
   */
  async complete(paymentId: string, captureId: string | null, by: { event?: ProviderEventRef; actorId?: string } = {}): Promise<boolean> {
    const balance = await this.payments.transaction(async (m) => {
      const row = await this.payments.complete(m, paymentId, captureId);
      if (!row) return null;
      if (by.event) await this.payments.recordEvent(m, by.event.id, by.event.type, paymentId);
      const tx = await this.credits.apply(
        {
          userId: row.userId,
          reason: CreditReason.Purchase,
          availableDelta: row.credits,
          actorId: by.actorId ?? null,
          reference: ledgerReference(paymentId),
          note: `Payment ${paymentId}`,
        },
        m,
      );
      return tx.availableAfter;
    });
    if (balance === null) return false;
    const payment = await this.payments.get(paymentId);
    await this.settled({ kind: 'completed', payment, availableCredits: balance, message: `Payment completed: ${payment.credits} credits added` });
    return true;
  }

  /**
   * Completed → Refunded, taking the credits back through the ledger. What the user has
   * already spent cannot be taken (the balance never goes below zero): it is recorded on
   * the payment as debt and logged for the admin, who sees it in Completed payments.
   */
  async refund(paymentId: string, event?: ProviderEventRef): Promise<boolean> {
    const done = await this.payments.transaction(async (m) => {
      const row = await this.payments.refund(m, paymentId);
      if (!row) return null;
      if (event) await this.payments.recordEvent(m, event.id, event.type, paymentId);
      const { userId, credits } = row;
      let balance = await this.payments.lockBalance(m, userId);
      const take = Math.min(credits, balance);
      if (take > 0) {
        const tx = await this.credits.apply(
          { userId, reason: CreditReason.PaymentRefund, availableDelta: -take, reference: ledgerReference(paymentId), note: `Refund of payment ${paymentId}` },
          m,
        );
        balance = tx.availableAfter;
      }
      const debt = credits - take;
      if (debt > 0) await this.payments.setDebt(m, paymentId, debt);
      return { balance, debt };
    });
    if (!done) return false;
    const payment = await this.payments.get(paymentId);
    if (done.debt > 0) {
      this.logger.warn(
        `Payment ${paymentId} refunded after ${done.debt} of its ${payment.credits} credits were spent: user ${payment.userId} owes ${done.debt} credits`,
      );
    }
    await this.settled({
      kind: 'refunded',
      payment,
      availableCredits: done.balance,
      message:
        done.debt > 0
          ? `Payment refunded: ${payment.credits - done.debt} credits taken back, ${done.debt} already spent`
          : `Payment refunded: ${payment.credits} credits taken back`,
    });
    return true;
  }

  /**
   * The one place for what follows a payment's settlement: the socket event
   * `payment-{userId}` (the header balance updates from it), the bell's notification and,
   * for a completed payment, the integrator's `payment.completed` webhook.
   */
  private async settled(e: PaymentSettledEvent) {
    const p = e.payment;
    this.realtime.emit(p.userId, 'payment', {
      paymentId: p._id,
      status: p.status,
      credits: p.credits,
      availableCredits: e.availableCredits,
      message: e.message,
    });
    this.logger.log(`Payment ${p._id} ${e.kind} (user ${p.userId}, ${p.credits} credits)`);
    if (e.kind === 'cancelled' && !e.notify) return;
    // notify never throws; a webhook that cannot be queued is logged, the settlement stands
    await this.notifications.notify(p.userId, { type: 'payment', message: `${e.message}.`, attachmentId: p._id, dedupeKey: `payment.${e.kind}:${p._id}` });
    if (e.kind === 'completed') {
      await this.webhooks
        .publish(p.userId, 'payment.completed', { paymentId: p._id, credits: p.credits, amount: p.price, currency: p.currency })
        .catch((err) => this.logger.warn(`webhook payment.completed for ${p._id}: ${err}`));
    }
  }
}
