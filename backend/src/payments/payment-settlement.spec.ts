import { ConflictException, Logger } from '@nestjs/common';
import { CreditChange } from '../credits/credits.service';
import { CreditReason } from '../credits/entities/credit-transaction.entity';
import { Payment, PaymentMethod, PaymentStatus } from './entities/payment.entity';
import { PaymentSettlementService } from './payment-settlement.service';
import { PaymentsRepository } from './payments.repository';
import { PayPalWebhookEvent, PayPalWebhookService } from './paypal-webhook.service';
import { PayPalProvider } from './providers/paypal.provider';

/**
 * Settlement without a database: the repository's conditional status changes and the credit
 * ledger (its unique (reason, reference)) are kept in memory with the same rules, so what is
 * checked here is the service's part: credits move once per settlement, whatever the path
 * and however often a provider repeats itself.
 */
function world() {
  const payments = new Map<string, Payment>();
  const balances = new Map<string, number>();
  const ledger: CreditChange[] = [];
  const events = new Set<string>();
  const repo = {
    transaction: (fn: (m: unknown) => Promise<unknown>) => fn({}),
    get: async (id: string) => ({ ...payments.get(id)! }),
    find: async (id: string) => payments.get(id) ?? null,
    findByMethod: async (method: PaymentMethod, id: string) => [...payments.values()].find((p) => p._id === id && p.paymentMethod === method) ?? null,
    findByOrder: async (method: PaymentMethod, ref: string) => [...payments.values()].find((p) => p.paymentSystemReferenceId === ref && p.paymentMethod === method) ?? null,
    findByCapture: async (method: PaymentMethod, captureId: string) => [...payments.values()].find((p) => p.captureId === captureId && p.paymentMethod === method) ?? null,
    cancelPending: async (id: string) => move(id, [PaymentStatus.Pending], PaymentStatus.Cancelled) !== null,
    complete: async (_m: unknown, id: string, captureId: string | null) => {
      const row = move(id, [PaymentStatus.Pending, PaymentStatus.Cancelled], PaymentStatus.Completed);
      if (row) payments.get(id)!.captureId ??= captureId;
      return row;
    },
    refund: async (_m: unknown, id: string) => move(id, [PaymentStatus.Completed], PaymentStatus.Refunded),
    setDebt: async (_m: unknown, id: string, debt: number) => void (payments.get(id)!.debtCredits = debt),
    recordEvent: async (_m: unknown, eventId: string) => !events.has(eventId) && !!events.add(eventId),
    lockBalance: async (_m: unknown, userId: string) => balances.get(userId) ?? 0,
    balance: async (userId: string) => balances.get(userId) ?? 0,
  };
  function move(id: string, from: PaymentStatus[], to: PaymentStatus) {
    const p = payments.get(id);
    if (!p || !from.includes(p.status)) return null;
    p.status = to;
    return { userId: p.userId, credits: p.credits };
  }
  const credits = {
    apply: jest.fn(async (c: CreditChange) => {
      if (ledger.some((l) => l.reason === c.reason && l.reference === c.reference)) throw new Error('duplicate ledger row');
      ledger.push(c);
      const after = (balances.get(c.userId) ?? 0) + (c.availableDelta ?? 0);
      if (after < 0) throw new Error('balance below zero');
      balances.set(c.userId, after);
      return { availableAfter: after };
    }),
  };
  const realtime = { emit: jest.fn() };
  const notifications = { notify: jest.fn(async () => undefined) };
  const webhooks = { publish: jest.fn(async () => undefined) };
  const settlement = new PaymentSettlementService(repo as unknown as PaymentsRepository, credits as any, realtime as any, notifications as any, webhooks as any);
  const paypal = Object.assign(Object.create(PayPalProvider.prototype) as PayPalProvider, { verifyWebhook: jest.fn(async () => true) });
  const webhook = new PayPalWebhookService(paypal, repo as unknown as PaymentsRepository, settlement);
  let n = 0;
  const pending = (over: Partial<Payment> = {}) => {
    const p = {
      _id: `00000000-0000-4000-8000-00000000000${++n}`,
      userId: 'user-1',
      paymentMethod: PaymentMethod.PayPal,
      paymentSystemReferenceId: `ORDER-${n}`,
      captureId: null,
      credits: 500,
      price: '50.00',
      currency: 'USD',
      status: PaymentStatus.Pending,
      debtCredits: 0,
      ...over,
    } as Payment;
    payments.set(p._id, p);
    return p;
  };
  const deliver = (event: PayPalWebhookEvent) => webhook.handle({} as any, event);
  const captureCompleted = (p: Payment, eventId: string, value = '50.00'): PayPalWebhookEvent => ({
    id: eventId,
    event_type: 'PAYMENT.CAPTURE.COMPLETED',
    resource: { id: `CAPTURE-${p._id.slice(-1)}`, custom_id: p._id, amount: { value, currency_code: 'USD' } },
  });
  const captureRefunded = (p: Payment, eventId: string): PayPalWebhookEvent => ({
    id: eventId,
    event_type: 'PAYMENT.CAPTURE.REFUNDED',
    resource: { id: 'REFUND-1', custom_id: p._id, links: [{ rel: 'up', href: `https://api.paypal.test/v2/payments/captures/CAPTURE-${p._id.slice(-1)}` }] },
  });
  return { payments, balances, ledger, events, credits, realtime, notifications, webhooks, settlement, pending, deliver, captureCompleted, captureRefunded };
}

// The services log every settlement; the assertions say what matters here.
beforeAll(() => Logger.overrideLogger(false));

describe('payment settlement', () => {
  it('credits a completed capture once, however many paths complete it', async () => {
    const w = world();
    const p = w.pending();
    const results = await Promise.all([w.settlement.complete(p._id, 'CAPTURE-1'), w.settlement.complete(p._id, 'CAPTURE-1')]);
    expect(results.sort()).toEqual([false, true]);
    expect(await w.settlement.complete(p._id, 'CAPTURE-1')).toBe(false);
    expect(w.balances.get('user-1')).toBe(500);
    expect(w.ledger).toEqual([expect.objectContaining({ reason: CreditReason.Purchase, availableDelta: 500, reference: `payment:${p._id}` })]);
    expect(w.payments.get(p._id)).toMatchObject({ status: PaymentStatus.Completed, captureId: 'CAPTURE-1' });
    expect(w.notifications.notify).toHaveBeenCalledTimes(1);
    expect(w.webhooks.publish).toHaveBeenCalledWith('user-1', 'payment.completed', { paymentId: p._id, credits: 500, amount: '50.00', currency: 'USD' });
    expect(w.webhooks.publish).toHaveBeenCalledTimes(1);
    expect(w.realtime.emit).toHaveBeenCalledWith('user-1', 'payment', expect.objectContaining({ status: 'Completed', availableCredits: 500 }));
  });

  it('completes a payment cancelled in another tab when its money arrives, but never a refunded one', async () => {
    const w = world();
    const p = w.pending();
    await w.settlement.cancel(p._id);
    expect(w.payments.get(p._id)!.status).toBe(PaymentStatus.Cancelled);
    expect(w.notifications.notify).not.toHaveBeenCalled();
    expect(await w.settlement.complete(p._id, 'CAPTURE-1')).toBe(true);
    expect(await w.settlement.refund(p._id)).toBe(true);
    expect(await w.settlement.complete(p._id, 'CAPTURE-1')).toBe(false);
    await w.settlement.cancel(p._id);
    expect(w.payments.get(p._id)!.status).toBe(PaymentStatus.Refunded);
    expect(w.balances.get('user-1')).toBe(0);
  });

  it('takes the credits back on a refund, once', async () => {
    const w = world();
    const p = w.pending();
    await w.settlement.complete(p._id, 'CAPTURE-1');
    expect(await w.settlement.refund(p._id)).toBe(true);
    expect(await w.settlement.refund(p._id)).toBe(false);
    expect(w.balances.get('user-1')).toBe(0);
    expect(w.ledger.map((l) => [l.reason, l.availableDelta])).toEqual([
      [CreditReason.Purchase, 500],
      [CreditReason.PaymentRefund, -500],
    ]);
    expect(w.payments.get(p._id)).toMatchObject({ status: PaymentStatus.Refunded, debtCredits: 0 });
  });

  it('records what was already spent as debt instead of taking the balance below zero', async () => {
    const w = world();
    const p = w.pending();
    await w.settlement.complete(p._id, 'CAPTURE-1');
    w.balances.set('user-1', 120); // 380 credits were spent on prints
    expect(await w.settlement.refund(p._id)).toBe(true);
    expect(w.balances.get('user-1')).toBe(0);
    expect(w.ledger.at(-1)).toMatchObject({ reason: CreditReason.PaymentRefund, availableDelta: -120 });
    expect(w.payments.get(p._id)!.debtCredits).toBe(380);
    expect(w.notifications.notify).toHaveBeenLastCalledWith('user-1', expect.objectContaining({ message: 'Payment refunded: 120 credits taken back, 380 already spent.' }));
  });
});

describe('PayPal webhook deliveries', () => {
  it('a capture delivered twice (a replay, or the return got there first) credits once', async () => {
    const w = world();
    const p = w.pending();
    expect(await w.deliver(w.captureCompleted(p, 'WH-1'))).toEqual({ action: 'completed' });
    expect(await w.deliver(w.captureCompleted(p, 'WH-1'))).toEqual({ action: 'unchanged' });
    expect(await w.deliver(w.captureCompleted(p, 'WH-2'))).toEqual({ action: 'unchanged' });
    expect(w.balances.get('user-1')).toBe(500);
    expect(w.credits.apply).toHaveBeenCalledTimes(1);
    expect([...w.events]).toEqual(['WH-1']);
  });

  it('ignores a capture whose amount is not the price, and a payment it does not know', async () => {
    const w = world();
    const p = w.pending();
    expect(await w.deliver(w.captureCompleted(p, 'WH-1', '0.01'))).toEqual({ action: 'ignored' });
    expect(await w.deliver({ id: 'WH-2', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: { id: 'C', custom_id: 'unknown' } })).toEqual({ action: 'ignored' });
    expect(w.payments.get(p._id)!.status).toBe(PaymentStatus.Pending);
    expect(w.credits.apply).not.toHaveBeenCalled();
  });

  it('refunds by the capture the refund points at, once; a refund before the capture is recorded asks PayPal to deliver it again', async () => {
    const w = world();
    const p = w.pending();
    await expect(w.deliver(w.captureRefunded(p, 'WH-R'))).rejects.toBeInstanceOf(ConflictException);
    await w.deliver(w.captureCompleted(p, 'WH-C'));
    expect(await w.deliver(w.captureRefunded(p, 'WH-R'))).toEqual({ action: 'refunded' });
    expect(await w.deliver(w.captureRefunded(p, 'WH-R'))).toEqual({ action: 'unchanged' });
    expect(w.balances.get('user-1')).toBe(0);
    expect([...w.events]).toEqual(['WH-C', 'WH-R']);
  });

  it('refuses a delivery whose signature does not verify, changing nothing', async () => {
    const w = world();
    const p = w.pending();
    const webhook = new PayPalWebhookService(
      Object.assign(Object.create(PayPalProvider.prototype) as PayPalProvider, { verifyWebhook: async () => false }),
      {} as PaymentsRepository,
      w.settlement,
    );
    await expect(webhook.handle({} as any, w.captureCompleted(p, 'WH-1'))).rejects.toMatchObject({ response: { code: 'bad_signature' } });
    expect(w.payments.get(p._id)!.status).toBe(PaymentStatus.Pending);
  });
});
