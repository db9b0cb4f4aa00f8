import { BadGatewayException, BadRequestException, ConflictException, Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { paginate } from '../common/pagination';
import { returned } from '../common/sql';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { CreditsService } from '../credits/credits.service';
import { CreditReason } from '../credits/entities/credit-transaction.entity';
import { NotificationsService } from '../notifications/notifications.service';
import { RealtimeService } from '../realtime/realtime.service';
import { User } from '../users/entities/user.entity';
import { WebhooksService } from '../webhooks/webhooks.service';
import { PaymentListQueryDto, toPaymentDto } from './dto/payment.dto';
import { Payment, PaymentMethod, PaymentStatus, PaymentType } from './entities/payment.entity';
import { discountActive, discountEndsAt, findPackage, PACKAGES, priceFor, SKUS } from './packages';
import { PAYMENT_PROVIDER, PaymentProvider } from './providers/payment-provider';
import { PayPalProvider, WebhookHeaders } from './providers/paypal.provider';

export type PaymentResult = 'Completed' | 'Pending' | 'Cancelled';

/** What a completed or refunded payment leaves behind for notifications and the socket. */
export interface PaymentSettledEvent {
  kind: 'completed' | 'refunded' | 'cancelled';
  payment: Payment;
  availableCredits: number;
  message: string;
}

interface WebhookEvent {
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

const ledgerReference = (paymentId: string) => `payment:${paymentId}`;
/** "GS-" and 8 characters without look-alikes (no 0/O, 1/I/L): read off a screen and typed into a bank form. */
const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const bankReference = () => `GS-${Array.from(randomBytes(8), (b) => REFERENCE_ALPHABET[b % REFERENCE_ALPHABET.length]).join('')}`;
/** A checkout still not approved after this long is given up (PayPal lets unapproved orders lapse after hours). */
const ABANDON_MS = 6 * 3600_000;

/**
 * Credit packages bought through a checkout provider or by bank transfer.
 * Every way a payment can complete (return redirect, webhook, replayed webhook, a second
 * tab) ends in complete(), which credits the user at most once: a conditional UPDATE
 * Pending/Cancelled → Completed and the ledger row in one transaction, the ledger's
 * unique (reason, reference) behind it. No transaction is open while the provider is called.
 */
@Injectable()
export class PaymentsService {
  private readonly logger = new Logger('Payments');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider | null,
    private readonly credits: CreditsService,
    private readonly realtime: RealtimeService,
    private readonly notifications: NotificationsService,
    private readonly webhooks: WebhooksService,
  ) {}

  get providerName() {
    return this.config.payments.provider;
  }

  packagesFor(user: User) {
    const days = this.config.payments.discountDays;
    return {
      packages: PACKAGES.map((p) => ({
        sku: p.sku,
        credits: p.credits,
        price: Number(p.price),
        listPrice: Number(p.listPrice),
        currentPrice: Number(priceFor(p, user.createdAt, days)),
      })),
      currency: this.config.payments.currency,
      discountActive: discountActive(user.createdAt, days),
      discountEndsAt: discountEndsAt(user.createdAt, days),
      provider: this.providerName,
      bankTransfer: this.bankDetails().available,
    };
  }

  bankDetails() {
    const b = this.config.payments.bank;
    return { bankName: b.name, accountNumber: b.accountNumber, iban: b.iban, available: !!(b.name && (b.accountNumber || b.iban)) };
  }

  private packageOrFail(sku: string) {
    const pkg = findPackage(sku);
    if (!pkg) {
      throw new BadRequestException({ message: `Unknown package "${sku}". Choose one of ${SKUS.join(', ')}.`, code: 'unknown_package' });
    }
    return pkg;
  }

  /** POST /buyCredits: a Pending payment at today's price, then a checkout order with the provider. */
  async buy(user: User, sku: string): Promise<{ link: string; status: 'Pending'; paymentId: string }> {
    const pkg = this.packageOrFail(sku);
    const provider = this.provider;
    if (!provider) {
      throw new BadRequestException({ message: 'Buying credits is not available: no payment provider is configured.', code: 'payments_disabled' });
    }
    const repo = this.db.getRepository(Payment);
    const payment = await repo.save(
      repo.create({
        userId: user._id,
        type: provider.type,
        paymentMethod: provider.method,
        packageSku: pkg.sku,
        credits: pkg.credits,
        price: priceFor(pkg, user.createdAt, this.config.payments.discountDays),
        currency: this.config.payments.currency,
        status: PaymentStatus.Pending,
      }),
    );
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
      await repo.update({ _id: payment._id }, { paymentSystemReferenceId: order.orderId });
      return { link: order.link, status: 'Pending', paymentId: payment._id };
    } catch (err) {
      this.logger.error(`Checkout for payment ${payment._id} could not be opened: ${(err as Error).message}`);
      await repo.update({ _id: payment._id, status: PaymentStatus.Pending }, { status: PaymentStatus.Cancelled });
      throw new BadGatewayException({ message: 'The payment provider could not be reached. Please try again.', code: 'provider_unavailable' });
    }
  }

  private findByOrder(orderId: string) {
    if (!this.provider || !orderId) return Promise.resolve(null);
    return this.db.getRepository(Payment).findOne({ where: { paymentMethod: this.provider.method, paymentSystemReferenceId: orderId } });
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
      if (!this.amountMatches(payment, capture.amount, capture.currency)) {
        this.logger.error(`Payment ${payment._id}: captured ${capture.amount} ${capture.currency}, expected ${payment.price} ${payment.currency}`);
        return { result: 'Pending', paymentId: payment._id };
      }
      await this.complete(payment._id, capture.captureId);
      return { result: 'Completed', paymentId: payment._id };
    }
    if (capture.state === 'pending') {
      if (capture.captureId) await this.db.getRepository(Payment).update({ _id: payment._id }, { captureId: capture.captureId });
      return { result: 'Pending', paymentId: payment._id };
    }
    // The return needs no session, so anyone with the order id can open it: before the buyer
    // approves it must change nothing (cancelling would end the checkout the buyer is still on).
    if (capture.state === 'unapproved') return { result: 'Pending', paymentId: payment._id };
    this.logger.warn(`Payment ${payment._id} declined: ${capture.reason}`);
    await this.cancel(payment._id);
    const now = await this.db.getRepository(Payment).findOneByOrFail({ _id: payment._id });
    return { result: now.status === PaymentStatus.Completed ? 'Completed' : 'Cancelled', paymentId: payment._id };
  }

  /** The buyer cancelled at the provider. A payment completed meanwhile (another tab) stays Completed. */
  async handleCancel(orderId: string): Promise<{ result: PaymentResult; paymentId?: string }> {
    const payment = await this.findByOrder(orderId);
    if (!payment) return { result: 'Cancelled' };
    await this.cancel(payment._id);
    const now = await this.db.getRepository(Payment).findOneByOrFail({ _id: payment._id });
    return { result: now.status === PaymentStatus.Completed ? 'Completed' : 'Cancelled', paymentId: payment._id };
  }

  private amountMatches(p: Payment, amount: string, currency: string) {
    if (p.paymentMethod === PaymentMethod.Test) return true;
    return Number(amount) === Number(p.price) && currency === p.currency;
  }

  private async cancel(paymentId: string) {
    const rows = returned<Payment>(
      await this.db.query(
        `UPDATE payments SET status = 'Cancelled', updated_at = now() WHERE id = $1 AND status = 'Pending' RETURNING id`,
        [paymentId],
      ),
    );
    if (rows.length) {
      const payment = await this.db.getRepository(Payment).findOneByOrFail({ _id: paymentId });
      await this.settled({ kind: 'cancelled', payment, availableCredits: await this.balance(payment.userId), message: 'Payment cancelled' });
    }
  }

  /**
   * Pending (or Cancelled: money can still arrive after a cancel in another tab) →
   * Completed, and the credits, in one transaction; true when this call did it.
   * `by.event` (a webhook event) is recorded in the same transaction, so a replay does nothing;
   * `by.actorId` is the admin who marked a bank transfer received.
   */
  async complete(paymentId: string, captureId: string | null, by: { event?: { id: string; type: string }; actorId?: string } = {}): Promise<boolean> {
    const done = await this.db.transaction(async (m) => {
      const rows = returned<{ id: string; user_id: string; credits: number }>(
        await m.query(
          `UPDATE payments SET status = 'Completed', capture_id = COALESCE(capture_id, $2), completed_at = now(), updated_at = now()
           WHERE id = $1 AND status IN ('Pending', 'Cancelled') RETURNING id, user_id, credits`,
          [paymentId, captureId],
        ),
      );
      if (!rows.length) return null;
      if (by.event) await this.recordEvent(m, by.event.id, by.event.type, paymentId);
      const tx = await this.credits.apply(
        {
          userId: rows[0].user_id,
          reason: CreditReason.Purchase,
          availableDelta: rows[0].credits,
          actorId: by.actorId ?? null,
          reference: ledgerReference(paymentId),
          note: `Payment ${paymentId}`,
        },
        m,
      );
      return tx.availableAfter;
    });
    if (done === null) return false;
    const payment = await this.db.getRepository(Payment).findOneByOrFail({ _id: paymentId });
    await this.settled({ kind: 'completed', payment, availableCredits: done, message: `Payment completed: ${payment.credits} credits added` });
    return true;
  }

  /**
   * Completed → Refunded, taking the credits back through the ledger. What the user has
   * already spent cannot be taken (the balance never goes below zero): it is recorded on
   * the payment as debt and logged for the admin, who sees it in Completed payments.
   */
  async refund(paymentId: string, eventId?: { id: string; type: string }): Promise<boolean> {
    const done = await this.db.transaction(async (m) => {
      const rows = returned<{ user_id: string; credits: number }>(
        await m.query(
          `UPDATE payments SET status = 'Refunded', refunded_at = now(), updated_at = now()
           WHERE id = $1 AND status = 'Completed' RETURNING user_id, credits`,
          [paymentId],
        ),
      );
      if (!rows.length) return null;
      if (eventId) await this.recordEvent(m, eventId.id, eventId.type, paymentId);
      const { user_id: userId, credits } = rows[0];
      const [user] = await m.query(`SELECT available_credits FROM users WHERE id = $1 FOR UPDATE`, [userId]);
      const take = Math.min(credits, user.available_credits);
      let balance = user.available_credits as number;
      if (take > 0) {
        const tx = await this.credits.apply(
          { userId, reason: CreditReason.PaymentRefund, availableDelta: -take, reference: ledgerReference(paymentId), note: `Refund of payment ${paymentId}` },
          m,
        );
        balance = tx.availableAfter;
      }
      const debt = credits - take;
      if (debt > 0) await m.query(`UPDATE payments SET debt_credits = $2 WHERE id = $1`, [paymentId, debt]);
      return { balance, debt };
    });
    if (!done) return false;
    const payment = await this.db.getRepository(Payment).findOneByOrFail({ _id: paymentId });
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
   * Records the provider event that changed a payment, in the same transaction as the
   * change (an audit trail; replays are already no-ops because the status moved on).
   */
  private async recordEvent(m: EntityManager, id: string, type: string, paymentId: string): Promise<boolean> {
    const rows = await m.query(
      `INSERT INTO payment_events (id, event_type, payment_id) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [id.slice(0, 100), type.slice(0, 60), paymentId],
    );
    return returned(rows).length > 0;
  }

  /**
   * POST /api/webhooks/paypal. Forged or unverifiable deliveries → 400 and nothing changes;
   * a verified event about a payment we do not know is acknowledged and ignored.
   */
  async handlePayPalWebhook(headers: WebhookHeaders, event: WebhookEvent): Promise<{ action: string }> {
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
    const repo = this.db.getRepository(Payment);
    const byCustomId = async () => {
      const orderId = r.supplementary_data?.related_ids?.order_id;
      const id = r.custom_id;
      if (id && /^[0-9a-f-]{36}$/i.test(id)) {
        const p = await repo.findOneBy({ _id: id, paymentMethod: PaymentMethod.PayPal });
        if (p) return p;
      }
      return orderId ? repo.findOneBy({ paymentMethod: PaymentMethod.PayPal, paymentSystemReferenceId: orderId }) : null;
    };
    switch (type) {
      case 'PAYMENT.CAPTURE.COMPLETED': {
        const payment = await byCustomId();
        if (!payment || !r.id) return { action: 'ignored' };
        if (!this.amountMatches(payment, r.amount?.value ?? '', r.amount?.currency_code ?? '')) {
          this.logger.error(`Webhook ${event.id}: capture amount ${r.amount?.value} ${r.amount?.currency_code} does not match payment ${payment._id}`);
          return { action: 'ignored' };
        }
        return { action: (await this.complete(payment._id, r.id, { event: eventRef })) ? 'completed' : 'unchanged' };
      }
      case 'PAYMENT.CAPTURE.DENIED': {
        const payment = await byCustomId();
        if (!payment) return { action: 'ignored' };
        const before = payment.status;
        await this.cancel(payment._id);
        return { action: before === PaymentStatus.Pending ? 'cancelled' : 'unchanged' };
      }
      case 'PAYMENT.CAPTURE.REFUNDED': {
        const captureId = r.links?.find((l) => l.rel === 'up')?.href?.match(/\/captures\/([^/?]+)/)?.[1];
        const payment =
          (captureId ? await repo.findOneBy({ paymentMethod: PaymentMethod.PayPal, captureId }) : null) ?? (await byCustomId());
        if (!payment) return { action: 'ignored' };
        if (payment.status === PaymentStatus.Pending) {
          // The capture is not recorded yet (its webhook or the return is still on the way):
          // a non-2xx answer makes PayPal deliver the refund again later.
          throw new ConflictException({ message: 'Payment not completed yet; deliver the refund again later', code: 'payment_pending' });
        }
        return { action: (await this.refund(payment._id, eventRef)) ? 'refunded' : 'unchanged' };
      }
      default:
        return { action: 'ignored' };
    }
  }

  /**
   * The safety net for payments nobody finished: the buyer approved but never came back
   * and the webhook was lost (or there is no webhook, as with the test checkout). Pending
   * payments older than `graceMs` are looked up at the provider: approved orders are
   * captured, captured ones completed; orders still open after `abandonMs`, or gone, are
   * Cancelled. Runs on the maintenance queue on one node at a time; safe to run twice.
   */
  async reconcile(graceMs = this.config.recovery.graceMs, abandonMs = ABANDON_MS): Promise<{ completed: number; cancelled: number }> {
    const provider = this.provider;
    const out = { completed: 0, cancelled: 0 };
    if (!provider) return out;
    const pending: Array<{ id: string; ref: string | null; age_ms: number }> = await this.db.query(
      `SELECT id, payment_system_reference_id AS ref, (EXTRACT(EPOCH FROM now() - purchase_date) * 1000)::float8 AS age_ms
       FROM payments WHERE status = 'Pending' AND payment_method = $1 AND purchase_date < now() - make_interval(secs => $2)
       ORDER BY purchase_date LIMIT 200`,
      [provider.method, graceMs / 1000],
    );
    for (const p of pending) {
      try {
        const state = p.ref && provider.lookup ? await provider.lookup(p.ref) : { state: 'open' as const };
        if (state.state === 'approved' && p.ref) {
          if ((await this.handleReturn(p.ref)).result === 'Completed') out.completed++;
        } else if (state.state === 'completed') {
          const payment = await this.db.getRepository(Payment).findOneByOrFail({ _id: p.id });
          if (this.amountMatches(payment, state.amount, state.currency) && (await this.complete(p.id, state.captureId))) out.completed++;
        } else if (state.state === 'gone' || state.state === 'declined' || (state.state === 'open' && p.age_ms > abandonMs)) {
          await this.cancel(p.id);
          out.cancelled++;
        }
      } catch (err) {
        this.logger.warn(`Reconciling payment ${p.id} failed: ${(err as Error).message}`);
      }
    }
    if (out.completed || out.cancelled) this.logger.log(`Reconciled payments: ${out.completed} completed, ${out.cancelled} cancelled`);
    return out;
  }

  /**
   * POST /payment/bank-transfer: a Pending payment of the package at today's price, with a
   * short reference the buyer writes on the transfer. Asking again for the same package
   * answers the open one (same reference) instead of piling up Pending payments.
   */
  async startBankTransfer(user: User, sku: string): Promise<Payment> {
    const pkg = this.packageOrFail(sku);
    if (!this.bankDetails().available) {
      throw new BadRequestException({ message: 'Bank transfer is not available on this installation.', code: 'bank_transfer_disabled' });
    }
    const price = priceFor(pkg, user.createdAt, this.config.payments.discountDays);
    const repo = this.db.getRepository(Payment);
    const open = await repo.findOne({
      where: { userId: user._id, paymentMethod: PaymentMethod.Bank, status: PaymentStatus.Pending, packageSku: pkg.sku, price },
      relations: { user: true },
    });
    if (open) return open;
    for (let attempt = 0; ; attempt++) {
      try {
        const payment = await repo.save(
          repo.create({
            userId: user._id,
            type: PaymentType.BankTransfer,
            paymentMethod: PaymentMethod.Bank,
            packageSku: pkg.sku,
            credits: pkg.credits,
            price,
            currency: this.config.payments.currency,
            status: PaymentStatus.Pending,
            paymentSystemReferenceId: bankReference(),
          }),
        );
        return this.getAny(payment._id);
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
  async markTransferReceived(admin: User, paymentId: string): Promise<Payment> {
    const payment = await this.db.getRepository(Payment).findOneBy({ _id: paymentId });
    if (!payment) throw new NotFoundException('Payment not found');
    if (payment.paymentMethod !== PaymentMethod.Bank) {
      throw new BadRequestException({ message: 'Only a bank transfer can be marked as received', code: 'not_bank_transfer' });
    }
    if (payment.status !== PaymentStatus.Completed) await this.complete(paymentId, null, { actorId: admin._id });
    return this.getAny(paymentId);
  }

  async list(userId: string | null, q: PaymentListQueryDto, statuses?: PaymentStatus[], method?: PaymentMethod) {
    const limit = q.limit ?? 10;
    const page = q.page ?? 1;
    const qb = this.db.getRepository(Payment).createQueryBuilder('p').leftJoinAndSelect('p.user', 'u');
    if (userId) qb.andWhere('p.userId = :userId', { userId });
    if (statuses) qb.andWhere('p.status IN (:...statuses)', { statuses });
    if (method) qb.andWhere('p.paymentMethod = :method', { method });
    if (q.status) qb.andWhere('p.status = :status', { status: q.status });
    if (q.search) {
      qb.andWhere(
        `(u.username ILIKE :s OR u.first_name ILIKE :s OR u.last_name ILIKE :s OR p.payment_system_reference_id ILIKE :s)`,
        { s: `%${q.search.replace(/[\\%_]/g, (c) => '\\' + c)}%` },
      );
    }
    const column = { purchaseDate: 'p.purchaseDate', price: 'p.price', credits: 'p.credits', status: 'p.status' }[q.sortBy ?? 'purchaseDate'] ?? 'p.purchaseDate';
    qb.orderBy(column, (q.sort ?? 'desc').toUpperCase() as 'ASC' | 'DESC').addOrderBy('p._id', 'ASC');
    // The join is many-to-one (one user per payment), so LIMIT on the joined rows is a page
    // of payments; skip/take would add TypeORM's DISTINCT pass over every matching payment.
    const [rows, total] = await qb.offset((page - 1) * limit).limit(limit).getManyAndCount();
    return paginate(rows.map(toPaymentDto), total, limit);
  }

  /** The user's own payment; anyone else's is 404. */
  async getOwn(userId: string, id: string) {
    const p = await this.db.getRepository(Payment).findOne({ where: { _id: id, userId }, relations: { user: true } });
    if (!p) throw new NotFoundException('Payment not found');
    return p;
  }

  private getAny(id: string) {
    return this.db.getRepository(Payment).findOneOrFail({ where: { _id: id }, relations: { user: true } });
  }

  /** The test checkout page's payment, or null when the order is unknown or not a test order. */
  async testOrder(orderId: string) {
    if (this.provider?.method !== PaymentMethod.Test) return null;
    return this.db.getRepository(Payment).findOne({ where: { paymentMethod: PaymentMethod.Test, paymentSystemReferenceId: orderId } });
  }

  private async balance(userId: string): Promise<number> {
    const [row] = await this.db.query(`SELECT available_credits FROM users WHERE id = $1`, [userId]);
    return row?.available_credits ?? 0;
  }

  /**
   * The one place for what follows a payment's settlement: the socket event
   * `payment-{userId}` (the header balance updates from it) and a notification-ready
   * event. Notifications hook in here (NotificationsService.notify, type 'payment',
   * attachmentId = payment id) when that module exists.
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
    if (e.kind === 'cancelled') return;
    // The bell (notify never throws) and, for a completed payment, the integrator's webhook.
    await this.notifications.notify(p.userId, { type: 'payment', message: `${e.message}.`, attachmentId: p._id, dedupeKey: `payment.${e.kind}:${p._id}` });
    if (e.kind === 'completed') {
      await this.webhooks
        .publish(p.userId, 'payment.completed', { paymentId: p._id, credits: p.credits, amount: p.price, currency: p.currency })
        .catch((err) => this.logger.warn(`webhook payment.completed for ${p._id}: ${err}`));
    }
  }
}
