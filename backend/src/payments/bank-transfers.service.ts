import { BadRequestException, Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { User } from '../users/entities/user.entity';
import { Payment, PaymentMethod, PaymentStatus, PaymentType } from './entities/payment.entity';
import { PaymentCatalogueService } from './payment-catalogue.service';
import { PaymentSettlementService } from './payment-settlement.service';
import { PaymentsRepository } from './payments.repository';

/** "GS-" and 8 characters without look-alikes (no 0/O, 1/I/L): read off a screen and typed into a bank form. */
const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const bankReference = () => `GS-${Array.from(randomBytes(8), (b) => REFERENCE_ALPHABET[b % REFERENCE_ALPHABET.length]).join('')}`;

/** Paying a package by bank transfer: the buyer's Pending payment and the admin's "money received". */
@Injectable()
export class BankTransfersService {
  private readonly logger = new Logger('Payments');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly payments: PaymentsRepository,
    private readonly catalogue: PaymentCatalogueService,
    private readonly settlement: PaymentSettlementService,
  ) {}

  /**
   * POST /payment/bank-transfer: a Pending payment of the package at today's price, with a
   * short reference the buyer writes on the transfer. Asking again for the same package
   * answers the open one (same reference) instead of piling up Pending payments.
   */
  async start(user: User, sku: string): Promise<Payment> {
    const pkg = this.catalogue.packageOrFail(sku);
    if (!this.catalogue.bankDetails().available) {
      throw new BadRequestException({ message: 'Bank transfer is not available on this installation.', code: 'bank_transfer_disabled' });
    }
    const price = this.catalogue.priceFor(pkg, user);
    const open = await this.payments.findOpenBankTransfer(user._id, pkg.sku, price);
    if (open) return open;
    for (let attempt = 0; ; attempt++) {
      try {
        const payment = await this.payments.create({
          userId: user._id,
          type: PaymentType.BankTransfer,
          paymentMethod: PaymentMethod.Bank,
          packageSku: pkg.sku,
          credits: pkg.credits,
          price,
          currency: this.catalogue.currency,
          status: PaymentStatus.Pending,
          paymentSystemReferenceId: bankReference(),
        });
        return this.payments.getWithUser(payment._id);
      } catch (e: any) {
        // The reference is unique per method; a collision (1 in 10^12 per pair) draws again.
        if (e?.code !== '23505' || attempt >= 2) throw e;
      }
    }
  }

  /**
   * Admin: the money of a bank transfer arrived. The payment completes like any other
   * (credits once, the ledger row names the admin), so it counts as a payment of money.
   */
  async markReceived(admin: User, paymentId: string): Promise<Payment> {
    const payment = await this.payments.find(paymentId);
    if (!payment) throw new NotFoundException('Payment not found');
    if (payment.paymentMethod !== PaymentMethod.Bank) {
      throw new BadRequestException({ message: 'Only a bank transfer can be marked as received', code: 'not_bank_transfer' });
    }
    if (payment.status !== PaymentStatus.Completed) await this.settlement.complete(paymentId, null, { actorId: admin._id });
    return this.payments.getWithUser(paymentId);
  }

  /**
   * Bank transfers still unpaid BANK_TRANSFER_EXPIRY_DAYS after they were started are
   * cancelled, and the buyer is told (a notification naming the reference). They leave the
   * admin's awaiting list, but money that arrives later can still be marked received (the
   * list's Cancelled view): complete() takes a Cancelled payment too. Runs on the
   * maintenance queue; safe to run twice (only Pending ones are cancelled, each once).
   */
  async expireStale(): Promise<number> {
    const days = this.config.payments.bank.expiryDays;
    if (!days) return 0;
    let expired = 0;
    for (const id of await this.payments.staleBankTransfers(days)) {
      const p = await this.payments.get(id);
      const notice = `Bank transfer ${p.paymentSystemReferenceId} expired: no payment arrived within ${days} days. If you sent the money, contact us with this reference`;
      if (await this.settlement.cancel(id, notice)) expired++;
    }
    if (expired) this.logger.log(`Expired ${expired} unpaid bank transfer(s)`);
    return expired;
  }
}
