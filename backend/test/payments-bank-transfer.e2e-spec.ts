import { DataSource } from 'typeorm';
import { CreditsService } from '../src/credits/credits.service';
import { BankTransfersService } from '../src/payments/bank-transfers.service';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/** Bank transfer: offered only when bank details are configured, always with a reference, completed by an admin when the money arrives. */
describe('Paying by bank transfer (e2e)', () => {
  describe('without bank details (the default install)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('is not offered, and asking for it is a clear 400', async () => {
      const { agent } = await signUpAndLogin(t, 'nobank');
      expect((await agent.get('/api/payment/packages').expect(200)).body.data.bankTransfer).toBe(false);
      const res = await agent.post('/api/payment/bank-transfer').send({ sku: 'credits500' }).expect(400);
      expect(res.body).toMatchObject({ code: 'bank_transfer_disabled', message: 'Bank transfer is not available on this installation.' });
      expect((await agent.get('/api/payment').expect(200)).body.pagination.totalDocuments).toBe(0);
    });
  });

  describe('with bank details', () => {
    let t: TestApp;
    let admin: Awaited<ReturnType<typeof adminAgent>>;
    beforeAll(async () => {
      t = await createTestApp({ BANK_NAME: 'First Test Bank', BANK_ACCOUNT_NUMBER: '12345678', BANK_IBAN: 'DE89370400440532013000' });
      admin = await adminAgent(t);
    });
    afterAll(() => t.close());

    it('a Pending payment with its own reference; the same package again answers the open one', async () => {
      const { agent } = await signUpAndLogin(t, 'banker');
      expect((await agent.get('/api/payment/packages').expect(200)).body.data.bankTransfer).toBe(true);
      expect((await agent.get('/api/payment/bank-details').expect(200)).body.data).toEqual({
        bankName: 'First Test Bank',
        accountNumber: '12345678',
        iban: 'DE89370400440532013000',
        available: true,
      });
      await agent.post('/api/payment/bank-transfer').send({ sku: 'nope' }).expect(400);
      const first = (await agent.post('/api/payment/bank-transfer').send({ sku: 'credits500' }).expect(200)).body.data;
      expect(first).toMatchObject({ type: 'Bank transfer', paymentMethod: 'bank', status: 'Pending', price: 50, credits: 500, packageSku: 'credits500' });
      expect(first.paymentSystemReferenceId).toMatch(/^GS-[2-9A-HJKMNP-Z]{8}$/);
      const again = (await agent.post('/api/payment/bank-transfer').send({ sku: 'credits500' }).expect(200)).body.data;
      expect(again._id).toBe(first._id);
      const other = (await agent.post('/api/payment/bank-transfer').send({ sku: 'credits1000' }).expect(200)).body.data;
      expect(other._id).not.toBe(first._id);
      expect(other.paymentSystemReferenceId).not.toBe(first.paymentSystemReferenceId);
      expect((await agent.get(`/api/payment/${first._id}`).expect(200)).body.data.paymentSystemReferenceId).toBe(first.paymentSystemReferenceId);
    });

    it('the admin marks the money received: Completed once, credits added, counted as a payment', async () => {
      const { agent, user } = await signUpAndLogin(t, 'payer');
      const payment = (await agent.post('/api/payment/bank-transfer').send({ sku: 'credits500' }).expect(200)).body.data;
      await agent.get('/api/bankTransfers').expect(403);
      await agent.post(`/api/payment/${payment._id}/received`).expect(403);
      const waiting = (await admin.get('/api/bankTransfers?search=payer').expect(200)).body;
      expect(waiting.data.map((p: any) => p._id)).toEqual([payment._id]);
      expect((await admin.get('/api/completedTransfers?search=payer').expect(200)).body.pagination.totalDocuments).toBe(0);

      const res = await admin.post(`/api/payment/${payment._id}/received`).expect(200);
      expect(res.body).toMatchObject({ message: 'Transfer marked as received: credits added', data: { status: 'Completed' } });
      await admin.post(`/api/payment/${payment._id}/received`).expect(200);
      expect((await agent.get('/api/profile').expect(200)).body.data.credit.availableCredits).toBe(500);
      const adminId = (await admin.get('/api/profile')).body.data._id;
      const rows = await t.app.get(CreditsService).ledger(user._id);
      expect(rows.map((r) => [r.reason, r.availableDelta, r.actorId])).toEqual([['purchase', 500, adminId]]);
      expect((await admin.get('/api/bankTransfers?search=payer').expect(200)).body.pagination.totalDocuments).toBe(0);
      const done = (await admin.get('/api/completedTransfers?search=payer').expect(200)).body.data;
      expect(done).toEqual([expect.objectContaining({ _id: payment._id, type: 'Bank transfer', price: 50 })]);
    });

    it('only a bank transfer can be marked received', async () => {
      const { agent } = await signUpAndLogin(t, 'carder');
      const checkout = (await agent.post('/api/buyCredits').send({ sku: 'credits500' }).expect(200)).body.data;
      const res = await admin.post(`/api/payment/${checkout.paymentId}/received`).expect(400);
      expect(res.body.code).toBe('not_bank_transfer');
      await admin.post('/api/payment/00000000-0000-4000-8000-000000000000/received').expect(404);
    });

    it('unpaid after BANK_TRANSFER_EXPIRY_DAYS (30): Cancelled once, the buyer told with the reference; the admin still finds it and can mark late money received', async () => {
      const { agent } = await signUpAndLogin(t, 'latecomer');
      const fresh = (await agent.post('/api/payment/bank-transfer').send({ sku: 'credits1000' }).expect(200)).body.data;
      const old = (await agent.post('/api/payment/bank-transfer').send({ sku: 'credits500' }).expect(200)).body.data;
      await t.app.get(DataSource).query(`UPDATE payments SET purchase_date = now() - interval '31 days' WHERE id = $1`, [old._id]);
      const expiry = t.app.get(BankTransfersService);
      expect(await expiry.expireStale()).toBe(1);
      expect(await expiry.expireStale()).toBe(0);
      expect((await agent.get(`/api/payment/${old._id}`).expect(200)).body.data.status).toBe('Cancelled');
      expect((await agent.get(`/api/payment/${fresh._id}`).expect(200)).body.data.status).toBe('Pending');
      const notes = (await agent.get('/api/notifications?limit=10').expect(200)).body.data.map((n: any) => n.message);
      expect(notes).toContain(`Bank transfer ${old.paymentSystemReferenceId} expired: no payment arrived within 30 days. If you sent the money, contact us with this reference.`);
      // the awaiting list drops it; the Cancelled view has it; other statuses belong to other lists
      expect((await admin.get('/api/bankTransfers?search=latecomer').expect(200)).body.data.map((p: any) => p._id)).toEqual([fresh._id]);
      expect((await admin.get('/api/bankTransfers?search=latecomer&status=Cancelled').expect(200)).body.data.map((p: any) => p._id)).toEqual([old._id]);
      expect((await admin.get('/api/bankTransfers?status=Completed').expect(400)).body.message).toContain('status must be Pending or Cancelled here');
      // the package can be started again, with a new reference
      const again = (await agent.post('/api/payment/bank-transfer').send({ sku: 'credits500' }).expect(200)).body.data;
      expect(again._id).not.toBe(old._id);
      // the money for the expired one arrives after all
      await admin.post(`/api/payment/${old._id}/received`).expect(200);
      expect((await agent.get('/api/profile').expect(200)).body.data.credit.availableCredits).toBe(500);
      expect((await admin.get('/api/bankTransfers?search=latecomer&status=Cancelled').expect(200)).body.pagination.totalDocuments).toBe(0);
    });
  });
});
