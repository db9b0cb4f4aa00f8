import request from 'supertest';
import { DataSource } from 'typeorm';
import { MAX_JSON_DEPTH } from '../src/common/validation';
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET, FAKE_WEBHOOK_ID, FakePayPal } from './fakes/paypal.fake';
import { transparentPng } from './fixtures/images';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';
import { resetCodeFrom } from './utils/mail-catcher';

/** Waits until `count` mails to `to` match `subject`; returns them oldest first. */
async function mails(t: TestApp, to: string, subject: RegExp, count: number) {
  const until = Date.now() + 15_000;
  for (;;) {
    const found = t.mail.messages.filter((m) => m.to.includes(to) && subject.test(m.subject));
    if (found.length >= count) return found;
    if (Date.now() > until) throw new Error(`${found.length} of ${count} mails to ${to} matching ${subject}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Password reset: a stranger cannot block it (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback', RATE_LIMIT_PER_ACCOUNT: '3', RATE_LIMIT_PER_IP: '20' });
  });
  afterAll(() => t.close());

  const forgot = (ip: string, email: string) => t.agent().post('/api/forgot-password').set('X-Forwarded-For', ip).send({ email });
  const reset = (ip: string, email: string, resetToken: string, password: string) =>
    t.agent().post('/api/reset-password').set('X-Forwarded-For', ip).send({ email, resetToken, password });

  it("requests from other addresses neither spend the owner's budget nor cancel the code the owner holds", async () => {
    const { email } = await signUpAndLogin(t, 'resetowner');
    await forgot('198.51.100.4', email).expect(200);
    const [first] = await mails(t, email, /reset code/, 1);
    // A stranger asks for codes from ten addresses (more than a per-account budget would allow) ...
    for (let i = 1; i <= 10; i++) await forgot(`203.0.113.${i}`, email).expect(200);
    const all = await mails(t, email, /reset code/, 11);
    // ... the owner's address still has its own budget ...
    await forgot('198.51.100.4', email).expect(200);
    // ... and the code the owner already had still works, once.
    await reset('198.51.100.4', email, resetCodeFrom(first), 'owner-new-pass').expect(200);
    await reset('198.51.100.4', email, resetCodeFrom(first), 'again-new-pass').expect(400);
    // The reset ends the other codes mailed meanwhile.
    const stray = await reset('198.51.100.4', email, resetCodeFrom(all[5]), 'stranger-pass').expect(400);
    expect(stray.body).toMatchObject({ code: 'invalid_token', message: 'Invalid or expired reset token' });
    await t.agent().post('/api/login').send({ email, password: 'owner-new-pass' }).expect(200);
  });

  it('limited per (address, e-mail) and per address', async () => {
    for (let i = 0; i < 3; i++) await forgot('192.0.2.50', 'pair@example.com').expect(200);
    expect((await forgot('192.0.2.50', 'pair@example.com').expect(429)).body.message).toBe('Too many attempts. Please try again later.');
    // The same e-mail from another address, and another e-mail from this one, still go through.
    await forgot('192.0.2.51', 'pair@example.com').expect(200);
    await forgot('192.0.2.50', 'other@example.com').expect(200);
    // One address asking for many e-mails stops at the per-address limit (20).
    for (let i = 0; i < 15; i++) await forgot('192.0.2.50', `many-${i}@example.com`).expect(200);
    await forgot('192.0.2.50', 'one-more@example.com').expect(429);
  });

  it('several codes are valid at once, each single use', async () => {
    const { email } = await signUpAndLogin(t, 'twocodes');
    await forgot('198.51.100.20', email).expect(200);
    await mails(t, email, /reset code/, 1);
    await forgot('198.51.100.21', email).expect(200);
    const [a, b] = await mails(t, email, /reset code/, 2);
    expect(resetCodeFrom(a)).not.toBe(resetCodeFrom(b));
    await reset('198.51.100.20', email, resetCodeFrom(a), 'first-new-pass').expect(200);
    await t.agent().post('/api/login').send({ email, password: 'first-new-pass' }).expect(200);
  });
});

/** Hardening: password-reset limits, page and nesting bounds, HSTS, outgoing addresses, e-mail changes, keys, file names, checkout returns. */
describe('Limits and bounds: password resets, pages, nesting, HSTS, outgoing addresses, e-mail changes, keys, file names (e2e)', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof adminAgent>>;
  let db: DataSource;

  beforeAll(async () => {
    // Loopback is the trusted proxy, so a test can say which address and scheme a request came from.
    t = await createTestApp({ TRUST_PROXY: 'loopback' });
    admin = await adminAgent(t);
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  describe('page bounds and JSON nesting answer 400, never 500', () => {
    it('page=1e308 and page=99999999999999999999 on every list', async () => {
      const s = await signUpAndLogin(t, 'pager');
      const hook = (await s.agent.post('/api/webhooks').send({ url: 'https://93.184.216.34/h', events: ['print.completed'] }).expect(201)).body.data;
      const own = ['/api/images', '/api/image-categories', '/api/sizes', '/api/print', '/api/orders', '/api/notifications', '/api/payment', `/api/webhooks/${hook._id}/deliveries`];
      const admins = ['/api/users', '/api/completedTransfers', `/api/print/user/${s.user._id}`];
      for (const page of ['1e308', '99999999999999999999', '1000001']) {
        for (const [agent, path] of [...own.map((p) => [s.agent, p] as const), ...admins.map((p) => [admin, p] as const)]) {
          const res = await agent.get(path).query({ page });
          expect({ path, page, status: res.status, body: res.body }).toEqual({ path, page, status: 400, body: expect.objectContaining({ statusCode: 400, code: 'validation_failed', message: 'page must be at most 1000000' }) });
        }
      }
      for (const page of ['Infinity', 'NaN', '-1e308']) expect((await s.agent.get('/api/images').query({ page }).expect(400)).body.message).toMatch(/^page must be/);
      // The largest page is still an answer (an empty one).
      expect((await s.agent.get('/api/images').query({ page: '1000000', limit: '999' }).expect(200)).body.data).toEqual([]);
    });

    it('a body nested 5,000 deep (or one level too deep) → 400; the deepest allowed passes', async () => {
      const s = await signUpAndLogin(t, 'nester');
      const nest = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
      const tooDeep = { statusCode: 400, message: `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`, code: 'too_deep', requestId: expect.any(String) };
      for (const body of [nest(5000), nest(MAX_JSON_DEPTH + 1), '['.repeat(50_000) + ']'.repeat(50_000)]) {
        const res = await s.agent.post('/api/sizes').set('Content-Type', 'application/json').send(body);
        expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: tooDeep });
      }
      // With an Idempotency-Key the fingerprint would walk it too.
      const keyed = await s.agent.post('/api/sizes').set('Idempotency-Key', 'deep-1').set('Content-Type', 'application/json').send(`{"name":"x","value":2,"extra":${nest(5000)}}`);
      expect(keyed.status).toBe(400);
      // The deepest allowed body gets past the depth limit to validation, which names the field the route does not take.
      const deepest = await s.agent.post('/api/sizes').set('Content-Type', 'application/json').send(`{"name":"Ok","value":2,"extra":${nest(MAX_JSON_DEPTH - 1)}}`).expect(400);
      expect(deepest.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'extra', code: 'unknown_field' }] });
      await s.agent.post('/api/sizes').set('Content-Type', 'application/json').send('{"name":"Ok","value":2}').expect(201);
      expect(await db.query(`SELECT name FROM sizes WHERE user_id = $1`, [s.user._id])).toEqual([{ name: 'Ok' }]);
    });
  });

  describe('security headers on every answer', () => {
    it('a success, a refusal, an unknown route and a validation error all carry them', async () => {
      const http = () => request(t.app.getHttpServer());
      const answers = [
        await http().get('/api/auth/config').expect(200),
        await http().get('/api/profile').expect(401),
        await http().get('/api/no-such-route').expect(404),
        await http().post('/api/login').send({}).expect(400),
      ];
      for (const res of answers) {
        expect(res.headers).toMatchObject({
          'content-security-policy': expect.stringContaining("frame-src 'self' https://www.google.com https://challenges.cloudflare.com"),
          'x-frame-options': 'SAMEORIGIN',
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'no-referrer',
          'cross-origin-opener-policy': 'same-origin',
          'request-id': expect.any(String),
        });
        expect(res.headers['strict-transport-security']).toBeUndefined();
        expect(res.headers['cross-origin-embedder-policy']).toBeUndefined();
      }
    });
  });

  describe('HSTS when the request came over https through a trusted proxy', () => {
    const http = () => request(t.app.getHttpServer());
    it('sent for X-Forwarded-Proto: https from the trusted proxy; not over plain http', async () => {
      const secure = await http().get('/api/auth/config').set('X-Forwarded-Proto', 'https').expect(200);
      expect(secure.headers['strict-transport-security']).toBe('max-age=31536000');
      const plain = await http().get('/api/auth/config').expect(200);
      expect(plain.headers['strict-transport-security']).toBeUndefined();
    });
  });

  describe('no embedded-IPv4 webhook targets; shop URLs checked when saved', () => {
    it('webhook URLs with IPv4-compatible, NAT64, 6to4 and Teredo addresses are refused', async () => {
      const s = await signUpAndLogin(t, 'hooker');
      for (const host of ['[::127.0.0.1]', '[::7f00:1]', '[::a9fe:a9fe]', '[64:ff9b::7f00:1]', '[2002:7f00:1::1]', '[2001:0:4136:e378:8000:63bf:3fff:fdd2]', '[::ffff:169.254.169.254]']) {
        const res = await s.agent.post('/api/webhooks').send({ url: `http://${host}:3450/h`, events: ['print.completed'] });
        expect({ host, status: res.status, code: res.body.code }).toEqual({ host, status: 400, code: 'invalid_webhook_url' });
        expect(res.body.message).toMatch(/^Webhook URLs must point to a public address/);
      }
      expect((await s.agent.get('/api/webhooks').expect(200)).body.data).toEqual([]);
    });

    it('a WooCommerce site URL on a private or metadata address is refused before it is saved', async () => {
      const s = await signUpAndLogin(t, 'shopper');
      for (const baseUrl of ['https://10.0.0.1', 'https://169.254.169.254', 'https://[::ffff:a9fe:a9fe]', 'https://localhost']) {
        const res = await s.agent.post('/api/integrations').send({ name: 'Shop', type: 'WordPress', keys: [{ key: 'baseUrl', value: baseUrl }] });
        expect({ baseUrl, status: res.status, code: res.body.code }).toEqual({ baseUrl, status: 400, code: 'private_address' });
        expect(res.body.message).toMatch(/^The site URL must point to a public address/);
      }
      expect(await db.query(`SELECT count(*)::int AS n FROM integrations WHERE user_id = $1`, [s.user._id])).toEqual([{ n: 0 }]);
    });
  });

  describe('changing the e-mail on the profile tells nobody whether an address is registered', () => {
    it('the same answer for a taken and a free address; the change waits for the link; the taken address gets a notice', async () => {
      const taker = await signUpAndLogin(t, 'taker');
      const holder = await signUpAndLogin(t, 'holder');
      const body = { firstName: 'Tak', lastName: 'Er1' };
      const taken = await taker.agent.put('/api/profile').send({ ...body, email: holder.email, currentPassword: taker.password });
      const free = await taker.agent.put('/api/profile').send({ ...body, email: 'taker-new@example.com', currentPassword: taker.password });
      const shape = (r: request.Response, email: string) => ({ status: r.status, message: r.body.message.replace(email, '<new>'), data: { ...r.body.data, updatedAt: 'x' } });
      expect(shape(taken, holder.email)).toEqual(shape(free, 'taker-new@example.com'));
      expect(taken.status).toBe(200);
      expect(taken.body.message).toBe(`Profile Updated Successfully. We sent a link to ${holder.email}: your e-mail address changes when you open it.`);
      // Nothing changes until the link is opened: the account keeps its verified address.
      expect(taken.body.data).toMatchObject({ email: taker.email, emailVerified: true, lastName: 'Er1' });
      // The holder of the taken address hears of it; no link goes there.
      const notice = await t.mail.waitFor(holder.email, /Someone asked to use your e-mail address/);
      expect(notice.text).toContain('nothing was changed');
      const link = await t.mail.waitFor('taker-new@example.com', /Verify/);
      expect(t.mail.messages.filter((m) => m.to.includes(holder.email) && /Verify/.test(m.subject))).toHaveLength(1); // the sign-up mail only
      // Opening the link applies the address, verified; the old address is told; sign-in uses the new one.
      const token = link.text.match(/\/verify\?token=([A-Za-z0-9_-]+)/)![1];
      expect((await t.agent().get(`/api/verify?token=${token}`).expect(200)).body).toEqual({ message: 'Email address changed', alreadyVerified: false });
      expect((await taker.agent.get('/api/profile').expect(200)).body.data).toMatchObject({ email: 'taker-new@example.com', emailVerified: true });
      expect((await t.mail.waitFor(taker.email, /e-mail address was changed/)).text).toContain('taker-new@example.com');
      await t.agent().post('/api/login').send({ email: 'taker-new@example.com', password: taker.password }).expect(200);
      await t.agent().post('/api/login').send({ email: taker.email, password: taker.password }).expect(401);
    });

    it('a link whose address was registered meanwhile → 409 to its holder; the account keeps its address', async () => {
      const s = await signUpAndLogin(t, 'slowclick');
      await s.agent.put('/api/profile').send({ firstName: 'Slo', lastName: 'Wclick', email: 'raced@example.com', currentPassword: s.password }).expect(200);
      const token = (await t.mail.waitFor('raced@example.com', /Verify/)).text.match(/\/verify\?token=([A-Za-z0-9_-]+)/)![1];
      // Someone signs up with that address before the link is opened.
      await t.agent().post('/api/register').send({ firstName: 'Rac', lastName: 'Ed1', username: 'raced', email: 'raced@example.com', password: 'password-123' }).expect(201);
      expect((await t.agent().get(`/api/verify?token=${token}`).expect(409)).body).toMatchObject({ code: 'email_taken' });
      expect((await s.agent.get('/api/profile').expect(200)).body.data.email).toBe(s.email);
    });

    it('the current password is still required, and links are limited to 5 an hour', async () => {
      const s = await signUpAndLogin(t, 'manychanges');
      const body = { firstName: 'Man', lastName: 'Ychanges' };
      expect((await s.agent.put('/api/profile').send({ ...body, email: 'mc-0@example.com' }).expect(400)).body.code).toBe('current_password_required');
      for (let i = 1; i <= 5; i++) await s.agent.put('/api/profile').send({ ...body, email: `mc-${i}@example.com`, currentPassword: s.password }).expect(200);
      const res = await s.agent.put('/api/profile').send({ ...body, email: 'mc-6@example.com', currentPassword: s.password }).expect(429);
      expect(res.body).toEqual({ statusCode: 429, message: 'Too many attempts. Please try again later.', code: 'too_many_attempts', requestId: expect.any(String) });
      // Other fields still save.
      await s.agent.put('/api/profile').send({ ...body, firstName: 'Renamed', email: s.email }).expect(200);
    });
  });

  describe('reactivated users and UTF-8 file names', () => {
    const http = () => request(t.app.getHttpServer());

    it('reactivating a user does not bring back their API keys', async () => {
      const s = await signUpAndLogin(t, 'keyholder');
      const secret = (await s.agent.post('/api/api-keys').send({ name: 'script', scope: 'read' }).expect(201)).body.data.secret as string;
      await http().get('/api/profile').set('Authorization', `Bearer ${secret}`).expect(200);
      await admin.put(`/api/users/${s.user._id}/status`).send({ status: 'inactive' }).expect(200);
      await admin.put(`/api/users/${s.user._id}/status`).send({ status: 'active' }).expect(200);
      const res = await http().get('/api/profile').set('Authorization', `Bearer ${secret}`).expect(401);
      expect(res.body).toMatchObject({ code: 'invalid_api_key', message: 'This API key has been revoked.' });
      // A key made after the reactivation works.
      const again = t.agent();
      await again.post('/api/login').send({ email: s.email, password: s.password }).expect(200);
      const fresh = (await again.post('/api/api-keys').send({ name: 'new', scope: 'read' }).expect(201)).body.data.secret as string;
      await http().get('/api/profile').set('Authorization', `Bearer ${fresh}`).expect(200);
    });

    it('a multipart file name in UTF-8 is stored as sent', async () => {
      const s = await signUpAndLogin(t, 'unicoder');
      const res = await s.agent.post('/api/images/bulk-upload').attach('files', await transparentPng(), 'é∂ƒ 日本.png').expect(201);
      expect(res.body.data.map((i: { name: string }) => i.name)).toEqual(['é∂ƒ 日本']);
      expect(await db.query(`SELECT name FROM images WHERE user_id = $1`, [s.user._id])).toEqual([{ name: 'é∂ƒ 日本' }]);
      // Let the preview job finish before the app closes.
      for (let i = 0; i < 100 && (await s.agent.get(`/api/images/${res.body.data[0]._id}`)).body.data.status === 'processing'; i++) await new Promise((r) => setTimeout(r, 200));
    });
  });
});

describe('PayPal return before approval changes nothing (e2e, fake PayPal)', () => {
  let t: TestApp;
  let paypal: FakePayPal;
  beforeAll(async () => {
    paypal = await new FakePayPal().start();
    t = await createTestApp({
      PAYMENT_PROVIDER: 'paypal',
      PAYPAL_CLIENT_ID: FAKE_CLIENT_ID,
      PAYPAL_CLIENT_SECRET: FAKE_CLIENT_SECRET,
      PAYPAL_WEBHOOK_ID: FAKE_WEBHOOK_ID,
      PAYPAL_API_URL: paypal.url,
    });
  });
  afterAll(async () => {
    await t.close();
    await paypal.stop();
  });

  it('an unauthenticated return before approval changes nothing; the approved return still completes', async () => {
    const s = await signUpAndLogin(t, 'earlybird');
    const started = (await s.agent.post('/api/buyCredits').send({ sku: 'credits500' }).expect(200)).body.data;
    const orderId = new URL(started.link).searchParams.get('token')!;
    // Someone who knows the order id opens the return without a session, twice.
    for (let i = 0; i < 2; i++) {
      const early = await request(t.app.getHttpServer()).get(`/api/checkout/return?token=${orderId}`).expect(302);
      expect(early.headers.location).toBe('/dashboard?PaymentResult=Pending');
    }
    expect((await s.agent.get(`/api/payment/${started.paymentId}`).expect(200)).body.data.status).toBe('Pending');
    expect(paypal.requests.filter((r) => r.path.endsWith(`/${orderId}/capture`))).toEqual([]);
    // The buyer approves at PayPal and comes back: captured and credited.
    expect((await s.agent.get(paypal.approve(orderId)).expect(302)).headers.location).toBe('/dashboard?PaymentResult=Completed');
    expect((await s.agent.get(`/api/payment/${started.paymentId}`).expect(200)).body.data.status).toBe('Completed');
    expect((await s.agent.get('/api/profile').expect(200)).body.data.credit.availableCredits).toBe(500);
  });

  it('without TRUST_PROXY a forwarded https scheme gets no HSTS', async () => {
    const res = await request(t.app.getHttpServer()).get('/api/auth/config').set('X-Forwarded-Proto', 'https').expect(200);
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});
