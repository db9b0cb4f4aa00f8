import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { CreditsService } from '../src/credits/credits.service';
import { CreditReason } from '../src/credits/entities/credit-transaction.entity';
import { PaymentReconciliationService } from '../src/payments/payment-reconciliation.service';
import { RealtimeService } from '../src/realtime/realtime.service';
import { SessionService } from '../src/session/session.service';
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET, FAKE_WEBHOOK_ID, FakePayPal } from './fakes/paypal.fake';
import { addDesign, addSize, waitDone } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

type Agent = Awaited<ReturnType<typeof signUpAndLogin>>['agent'];

/** PayPal Orders v2 against the local fake: every way a payment can complete credits it once. */
describe('Payments with PayPal (e2e, fake PayPal)', () => {
  let t: TestApp;
  let paypal: FakePayPal;
  let db: DataSource;
  let webhookUrl: string;
  let admin: Agent;

  beforeAll(async () => {
    paypal = await new FakePayPal().start();
    t = await createTestApp({
      PAYMENT_PROVIDER: 'paypal',
      PAYPAL_CLIENT_ID: FAKE_CLIENT_ID,
      PAYPAL_CLIENT_SECRET: FAKE_CLIENT_SECRET,
      PAYPAL_WEBHOOK_ID: FAKE_WEBHOOK_ID,
      PAYPAL_API_URL: paypal.url,
      // 50 webhook deliveries at once share this pool with everything else
      DB_POOL_MAX: '10',
    });
    await t.app.listen(0, '127.0.0.1');
    webhookUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}/api/webhooks/paypal`;
    db = t.app.get(DataSource);
    admin = await adminAgent(t);
  });
  afterAll(async () => {
    await t.close();
    await paypal.stop();
  });

  const ledger = (userId: string, reason = 'purchase') =>
    db.query(`SELECT * FROM credit_transactions WHERE user_id = $1 AND reason = $2`, [userId, reason]);
  const balance = async (agent: Agent) => (await agent.get('/api/profile').expect(200)).body.data.credit.availableCredits as number;

  /** Signs up a seller and starts buying `sku`; returns the PayPal order id and our payment id. */
  async function startPurchase(name: string, sku = 'credits500') {
    const s = await signUpAndLogin(t, name);
    const res = await s.agent.post('/api/buyCredits').send({ sku }).expect(200);
    expect(res.body.data.status).toBe('Pending');
    const link = new URL(res.body.data.link);
    const orderId = link.searchParams.get('token')!;
    return { ...s, orderId, paymentId: res.body.data.paymentId as string, link: res.body.data.link as string };
  }

  it('happy path: order with our id, approve, return captures, credits once, history and admin list', async () => {
    const emit = jest.spyOn(t.app.get(RealtimeService), 'emit');
    const { agent, user, orderId, paymentId, link } = await startPurchase('happy');
    expect(link).toBe(`${paypal.url}/checkoutnow?token=${orderId}`);
    const create = paypal.requests.find((r) => r.path === '/v2/checkout/orders')!;
    expect(create.headers['paypal-request-id']).toBe(`create-${paymentId}`);
    expect(create.body.purchase_units[0]).toMatchObject({ custom_id: paymentId, amount: { currency_code: 'USD', value: '50.00' } });
    expect(create.body.payment_source.paypal.experience_context).toMatchObject({
      return_url: 'http://localhost:3000/api/checkout/return',
      cancel_url: 'http://localhost:3000/api/checkout/cancel',
    });
    expect((await agent.get(`/api/payment/${paymentId}`).expect(200)).body.data).toMatchObject({ status: 'Pending', price: 50, packageSku: 'credits500' });

    const back = await agent.get(paypal.approve(orderId)).expect(302);
    expect(back.headers.location).toBe('/dashboard?PaymentResult=Completed');
    const capture = paypal.requests.find((r) => r.path.endsWith('/capture'))!;
    expect(capture.headers['paypal-request-id']).toBe(`capture-${paymentId}`);
    expect(await balance(agent)).toBe(500);
    expect(await ledger(user._id)).toHaveLength(1);
    expect(await t.app.get(CreditsService).consistent(user._id)).toBe(true);
    expect(emit).toHaveBeenCalledWith(user._id, 'payment', expect.objectContaining({ paymentId, status: 'Completed', availableCredits: 500 }));
    emit.mockRestore();

    // The browser comes back again (reload, second tab): nothing more.
    expect((await agent.get(`/api/checkout/return?token=${orderId}&PayerID=X`).expect(302)).headers.location).toBe('/dashboard?PaymentResult=Completed');
    expect(await balance(agent)).toBe(500);

    const history = await agent.get('/api/payment?sort=desc&sortBy=purchaseDate').expect(200);
    expect(history.body.pagination).toEqual({ totalDocuments: 1, totalPages: 1 });
    expect(history.body.data[0]).toMatchObject({
      _id: paymentId,
      status: 'Completed',
      type: 'PayPal',
      paymentSystemReferenceId: orderId,
      credits: 500,
      price: 50,
      userId: { _id: user._id, firstName: 'Test', lastName: 'Seller' },
    });

    // Another user sees neither the payment nor it in their history; admins list it.
    const other = await signUpAndLogin(t, 'nosy');
    await other.agent.get(`/api/payment/${paymentId}`).expect(404);
    await other.agent.get('/api/payment/not-a-uuid').expect(404);
    expect((await other.agent.get('/api/payment').expect(200)).body.data).toEqual([]);
    await other.agent.get('/api/completedTransfers').expect(403);
    const all = await admin.get('/api/completedTransfers').expect(200);
    expect(all.body.data.find((p: any) => p._id === paymentId)).toMatchObject({ userId: { username: 'happy', firstName: 'Test' }, status: 'Completed' });
    // one token for all of it (cached)
    expect(paypal.tokenRequests).toBe(1);
  });

  it('unknown sku → 400 with a clear message; no payment', async () => {
    const { agent } = await signUpAndLogin(t, 'badsku');
    const res = await agent.post('/api/buyCredits').send({ sku: 'credits42' }).expect(400);
    expect(res.body).toMatchObject({ message: 'Unknown package "credits42". Choose one of credits500, credits1000, credits5000.', code: 'unknown_package' });
    await agent.post('/api/buyCredits').send({}).expect(400);
    expect((await agent.get('/api/payment').expect(200)).body.data).toEqual([]);
  });

  it('list price after the first 30 days; packages say whether the discount applies', async () => {
    const { agent, user } = await signUpAndLogin(t, 'veteran');
    const fresh = (await agent.get('/api/payment/packages').expect(200)).body.data;
    expect(fresh.discountActive).toBe(true);
    expect(fresh.packages.map((p: any) => [p.sku, p.currentPrice, p.listPrice])).toEqual([
      ['credits500', 50, 100],
      ['credits1000', 95, 190],
      ['credits5000', 450, 900],
    ]);
    await db.query(`UPDATE users SET created_at = now() - interval '31 days' WHERE id = $1`, [user._id]);
    // A change made outside the app reaches its session cache by notification: wait until it has.
    await t.app.get(SessionService).settle();
    expect((await agent.get('/api/payment/packages').expect(200)).body.data.discountActive).toBe(false);
    const res = await agent.post('/api/buyCredits').send({ sku: 'credits1000' }).expect(200);
    expect((await agent.get(`/api/payment/${res.body.data.paymentId}`).expect(200)).body.data.price).toBe(190);
  });

  it('cancel at PayPal: Cancelled, no credits', async () => {
    const { agent, user, orderId, paymentId } = await startPurchase('canceller');
    expect((await agent.get(paypal.cancelUrl(orderId)).expect(302)).headers.location).toBe('/dashboard?PaymentResult=Cancelled');
    expect((await agent.get(`/api/payment/${paymentId}`)).body.data.status).toBe('Cancelled');
    expect(await balance(agent)).toBe(0);
    expect(await ledger(user._id)).toHaveLength(0);
  });

  it('capture declined (INSTRUMENT_DECLINED): Cancelled, no credits', async () => {
    const { agent, user, orderId, paymentId } = await startPurchase('declined');
    paypal.order(orderId).decline = true;
    expect((await agent.get(paypal.approve(orderId)).expect(302)).headers.location).toBe('/dashboard?PaymentResult=Cancelled');
    expect((await agent.get(`/api/payment/${paymentId}`)).body.data.status).toBe('Cancelled');
    expect(await ledger(user._id)).toHaveLength(0);
  });

  it('an expired token is renewed once and the call retried', async () => {
    const before = paypal.tokenRequests;
    paypal.expireTokens();
    const { agent, orderId } = await startPurchase('renewal');
    expect(paypal.tokenRequests).toBe(before + 1);
    paypal.expireTokens();
    expect((await agent.get(paypal.approve(orderId)).expect(302)).headers.location).toBe('/dashboard?PaymentResult=Completed');
    expect(paypal.tokenRequests).toBe(before + 2);
    expect(await balance(agent)).toBe(500);
  });

  it('return redirect, webhook and a second tab racing: one ledger row', async () => {
    const { agent, user, orderId } = await startPurchase('racer');
    const back = paypal.approve(orderId);
    const tab2 = t.agent();
    const [r1, r2] = await Promise.all([
      agent.get(back),
      tab2.get(back),
      // the webhook of a capture arrives while the browsers are still capturing
      (async () => {
        for (let i = 0; i < 50 && paypal.order(orderId).status !== 'COMPLETED'; i++) await new Promise((r) => setTimeout(r, 5));
        if (paypal.order(orderId).status === 'COMPLETED') return paypal.deliver(webhookUrl, paypal.captureEvent(orderId));
      })(),
    ]);
    expect([r1.headers.location, r2.headers.location]).toEqual(['/dashboard?PaymentResult=Completed', '/dashboard?PaymentResult=Completed']);
    expect(await ledger(user._id)).toHaveLength(1);
    expect(await balance(agent)).toBe(500);
  });

  it('50 concurrent deliveries of the same capture → exactly one ledger row; a replay later changes nothing', async () => {
    const { agent, user, orderId, paymentId } = await startPurchase('fifty', 'credits5000');
    paypal.approve(orderId);
    paypal.captureNow(orderId); // the browser never came back
    const event = paypal.captureEvent(orderId);
    // 25 redeliveries of one event and 25 distinct events about the same capture, all at once
    const events = Array.from({ length: 50 }, (_, i) => (i % 2 ? event : paypal.captureEvent(orderId)));
    const started = performance.now();
    const results = await Promise.all(events.map((e) => paypal.deliver(webhookUrl, e)));
    const ms = performance.now() - started;
    const rows = await ledger(user._id);
    console.log(`50 concurrent deliveries: ${Math.round(ms)} ms, statuses ${JSON.stringify(countBy(results.map((r) => r.status)))}, actions ${JSON.stringify(countBy(results.map((r) => r.body.action)))}, ledger rows ${rows.length}`);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.action === 'completed')).toHaveLength(1);
    expect(rows).toHaveLength(1);
    expect(await balance(agent)).toBe(5000);
    expect((await agent.get(`/api/payment/${paymentId}`)).body.data.status).toBe('Completed');

    // PayPal redelivers the same event later: acknowledged, nothing changes
    const replay = await paypal.deliver(webhookUrl, event);
    expect(replay).toMatchObject({ status: 200, body: { action: 'unchanged' } });
    expect(await ledger(user._id)).toHaveLength(1);
    expect(await t.app.get(CreditsService).consistent(user._id)).toBe(true);
  });

  it('forged or tampered webhooks → 400 and nothing changes', async () => {
    const { agent, user, orderId, paymentId } = await startPurchase('forger');
    paypal.approve(orderId);
    paypal.captureNow(orderId);
    const event = paypal.captureEvent(orderId);
    const forged = await paypal.deliver(webhookUrl, event, { forged: true });
    expect(forged).toMatchObject({ status: 400, body: { code: 'bad_signature' } });
    // a real transmission whose body was changed on the way (a bigger amount)
    const tampered = await paypal.deliver(webhookUrl, event, { tamper: (e) => ({ ...e, resource: { ...e.resource, amount: { currency_code: 'USD', value: '1.00' } } }) });
    expect(tampered.status).toBe(400);
    // no PayPal headers at all
    const bare = await fetch(webhookUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(event) });
    expect(bare.status).toBe(400);
    expect((await agent.get(`/api/payment/${paymentId}`)).body.data.status).toBe('Pending');
    expect(await ledger(user._id)).toHaveLength(0);
    // the genuine delivery still works afterwards
    expect((await paypal.deliver(webhookUrl, event)).body.action).toBe('completed');
    expect(await balance(agent)).toBe(500);
  });

  it('PAYMENT.CAPTURE.DENIED cancels a pending payment', async () => {
    const { agent, orderId, paymentId } = await startPurchase('denied');
    paypal.approve(orderId);
    const res = await paypal.deliver(webhookUrl, paypal.captureEvent(orderId, 'PAYMENT.CAPTURE.DENIED'));
    expect(res.body.action).toBe('cancelled');
    expect((await agent.get(`/api/payment/${paymentId}`)).body.data.status).toBe('Cancelled');
  });

  it('refund after spending: takes back what is left, records the debt, balance never below zero', async () => {
    const { agent, user, orderId, paymentId } = await startPurchase('spender');
    await agent.get(paypal.approve(orderId)).expect(302);
    expect(await balance(agent)).toBe(500);
    // the seller spends 300 credits on prints
    await t.app.get(CreditsService).apply({ userId: user._id, reason: CreditReason.PrintCharge, availableDelta: -300, usedDelta: 300, reference: 'print:test-spend' });
    const refund = paypal.refundEvent(orderId);
    expect((await paypal.deliver(webhookUrl, refund)).body.action).toBe('refunded');
    expect((await paypal.deliver(webhookUrl, refund)).body.action).toBe('unchanged');
    expect(await balance(agent)).toBe(0);
    const payment = (await agent.get(`/api/payment/${paymentId}`)).body.data;
    expect(payment).toMatchObject({ status: 'Refunded', debtCredits: 300 });
    const back = await ledger(user._id, 'payment_refund');
    expect(back.map((r: any) => r.available_delta)).toEqual([-200]);
    expect(await t.app.get(CreditsService).consistent(user._id)).toBe(true);
    // the admin sees it, with the debt
    const all = await admin.get('/api/completedTransfers?search=spender').expect(200);
    expect(all.body.data).toEqual([expect.objectContaining({ _id: paymentId, status: 'Refunded', debtCredits: 300 })]);
  });

  it('a refund that overtakes its capture is refused (PayPal delivers it again) and applied once the capture is in', async () => {
    const { agent, user, orderId, paymentId } = await startPurchase('overtaken');
    paypal.approve(orderId);
    paypal.captureNow(orderId);
    const capture = paypal.captureEvent(orderId);
    const refund = paypal.refundEvent(orderId);
    expect(await paypal.deliver(webhookUrl, refund)).toMatchObject({ status: 409, body: { code: 'payment_pending' } });
    expect((await agent.get(`/api/payment/${paymentId}`)).body.data.status).toBe('Pending');
    expect((await paypal.deliver(webhookUrl, capture)).body.action).toBe('completed');
    expect((await paypal.deliver(webhookUrl, refund)).body.action).toBe('refunded');
    expect((await agent.get(`/api/payment/${paymentId}`)).body.data).toMatchObject({ status: 'Refunded', debtCredits: 0 });
    expect(await balance(agent)).toBe(0);
    const events = await db.query(`SELECT event_type FROM payment_events WHERE payment_id = $1 ORDER BY received_at`, [paymentId]);
    expect(events.map((e: any) => e.event_type)).toEqual(['PAYMENT.CAPTURE.COMPLETED', 'PAYMENT.CAPTURE.REFUNDED']);
    expect(await t.app.get(CreditsService).consistent(user._id)).toBe(true);
  });

  it('reconciliation completes an approved payment whose buyer and webhook never came; gives up abandoned checkouts', async () => {
    const lost = await startPurchase('wanderer');
    paypal.approve(lost.orderId); // approved at PayPal, then the browser was closed
    const open = await startPurchase('lingerer'); // still on PayPal's page
    const payments = t.app.get(PaymentReconciliationService);
    await payments.reconcile(0);
    expect((await lost.agent.get(`/api/payment/${lost.paymentId}`)).body.data.status).toBe('Completed');
    expect(await balance(lost.agent)).toBe(500);
    expect((await open.agent.get(`/api/payment/${open.paymentId}`)).body.data.status).toBe('Pending');
    // the buyer returns late: nothing more
    await lost.agent.get(`/api/checkout/return?token=${lost.orderId}&PayerID=X`).expect(302);
    expect(await ledger(lost.user._id)).toHaveLength(1);
    // hours later the unapproved checkout is given up
    await payments.reconcile(0, 0);
    expect((await open.agent.get(`/api/payment/${open.paymentId}`)).body.data.status).toBe('Cancelled');
    expect(await ledger(open.user._id)).toHaveLength(0);
  });

});

/** The built-in test checkout (no PayPal keys): the same return/cancel path, served by the app. */
describe('Payments with the built-in test checkout (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('buy, approve on the test page, credited once; cancel path; bank details', async () => {
    const { agent } = await signUpAndLogin(t, 'tester');
    expect((await agent.get('/api/payment/packages')).body.data.provider).toBe('test');
    const res = await agent.post('/api/buyCredits').send({ sku: 'credits500' }).expect(200);
    const link: string = res.body.data.link;
    expect(link).toMatch(/^\/api\/checkout\/test\/TEST-[0-9A-F]+$/);
    const page = await agent.get(link).expect(200);
    expect(page.text).toContain('Pay 50.00 USD');
    const approve = page.text.match(/id="approve" href="([^"]+)"/)![1].replace(/&amp;/g, '&');
    expect((await agent.get(approve).expect(302)).headers.location).toBe('/dashboard?PaymentResult=Completed');
    expect((await agent.get(approve).expect(302)).headers.location).toBe('/dashboard?PaymentResult=Completed');
    expect((await agent.get('/api/profile')).body.data.credit.availableCredits).toBe(500);
    // the bell says so once, however often the return is followed
    const bell = (await agent.get('/api/notifications').expect(200)).body;
    expect(bell.data.filter((n: any) => n.type === 'payment').map((n: any) => [n.message, n.attachmentId])).toEqual([
      ['Payment completed: 500 credits added.', res.body.data.paymentId],
    ]);
    // the page of a finished payment offers no buttons
    expect((await agent.get(link)).text).not.toContain('id="approve"');

    // an integrator's retry with the same Idempotency-Key opens no second checkout
    const second = await agent.post('/api/buyCredits').set('Idempotency-Key', 'buy-1000').send({ sku: 'credits1000' }).expect(200);
    const retried = await agent.post('/api/buyCredits').set('Idempotency-Key', 'buy-1000').send({ sku: 'credits1000' }).expect(200);
    expect(retried.body).toEqual(second.body);
    const page2 = await agent.get(second.body.data.link).expect(200);
    const cancel = page2.text.match(/id="cancel" href="([^"]+)"/)![1];
    expect((await agent.get(cancel).expect(302)).headers.location).toBe('/dashboard?PaymentResult=Cancelled');
    expect((await agent.get('/api/profile')).body.data.credit.availableCredits).toBe(500);
    const history = (await agent.get('/api/payment?sort=desc&sortBy=purchaseDate')).body.data;
    expect(history.map((p: any) => [p.packageSku, p.status])).toEqual([
      ['credits1000', 'Cancelled'],
      ['credits500', 'Completed'],
    ]);
    await agent.get('/api/checkout/test/TEST-UNKNOWN').expect(404);
    // no PayPal here: its webhook does not exist
    await t.agent().post('/api/webhooks/paypal').send({}).expect(404);
    expect((await agent.get('/api/payment/bank-details')).body.data.available).toBe(false);
  });

  it('credits bought on the test checkout pay for a print', async () => {
    const { agent, user, email } = await signUpAndLogin(t, 'printer');
    const res = await agent.post('/api/buyCredits').send({ sku: 'credits500' }).expect(200);
    const page = await agent.get(res.body.data.link).expect(200);
    await agent.get(page.text.match(/id="approve" href="([^"]+)"/)![1].replace(/&amp;/g, '&')).expect(302);
    const image = await addDesign(t, user._id);
    const size = await addSize(t, user._id, 'Front', 4);
    const p = (await agent.post('/api/print').send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 3 }] }).expect(201)).body.data;
    await agent.post(`/api/print/${p._id}/proccess`).send({}).expect(201);
    expect((await waitDone(agent, p._id)).status).toBe('Completed');
    expect((await agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 497, usedCredits: 3 });
    // the job's last step (its mail) is done before the app closes
    await t.mail.waitFor(email, / is ready$/);
  });
});

function countBy(xs: unknown[]) {
  const out: Record<string, number> = {};
  for (const x of xs) out[String(x)] = (out[String(x)] ?? 0) + 1;
  return out;
}
