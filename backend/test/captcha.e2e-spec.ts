import { createTestApp, TestApp } from './utils/create-test-app';
import { FakeCaptcha, RECAPTCHA_TEST_SECRET, TURNSTILE_PASS_SECRET } from './fakes/captcha.fake';

describe.each([
  ['recaptcha', RECAPTCHA_TEST_SECRET],
  ['turnstile', TURNSTILE_PASS_SECRET],
] as const)('Captcha with %s (e2e)', (provider, secret) => {
  let t: TestApp;
  let fake: FakeCaptcha;
  beforeAll(async () => {
    fake = await new FakeCaptcha().start();
    t = await createTestApp({
      CAPTCHA_PROVIDER: provider,
      CAPTCHA_SITE_KEY: 'site-key',
      CAPTCHA_SECRET: secret,
      CAPTCHA_VERIFY_URL: fake.url(provider),
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  it('publishes the provider and site key', async () => {
    const res = await t.agent().get('/api/auth/config').expect(200);
    expect(res.body.data.captcha).toEqual({ provider, siteKey: 'site-key' });
  });

  it('login without a captcha → "Please verify the captcha"; register → "Please verify captcha"', async () => {
    const a = await t.agent().post('/api/login').send({ email: 'admin@test.local', password: 'admin-password-1' }).expect(400);
    expect(a.body.message).toBe('Please verify the captcha');
    const b = await t.agent().post('/api/register').send({ firstName: 'Bob', lastName: 'Bobby', username: 'bob', email: 'bob@example.com', password: 'secret1' }).expect(400);
    expect(b.body.message).toBe('Please verify captcha');
  });

  it('a wrong or reused token is refused with the spec message', async () => {
    const bad = await t.agent().post('/api/verify-captcha').send({ token: 'bad-token' }).expect(400);
    expect(bad.body.message).toBe('Captcha verification failed. Please try again.');
    await t.agent().post('/api/verify-captcha').send({ token: 'once' }).expect(200);
    await t.agent().post('/api/verify-captcha').send({ token: 'once' }).expect(400);
    expect((await t.agent().post('/api/verify-captcha').send({}).expect(400)).body.message).toBe('Please verify the captcha');
  });

  it('a verified captcha lets exactly one login through', async () => {
    const a = t.agent();
    const res = await a.post('/api/verify-captcha').send({ token: 'good-1' }).expect(200);
    expect(res.body).toEqual({ data: { success: true } });
    await a.post('/api/login').send({ email: 'admin@test.local', password: 'admin-password-1' }).expect(200);
    await a.post('/api/login').send({ email: 'admin@test.local', password: 'admin-password-1' }).expect(400);
    // or the token inline
    await t.agent().post('/api/login').send({ email: 'admin@test.local', password: 'admin-password-1', captchaToken: 'good-2' }).expect(200);
  });
});

describe('Captcha off (default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('verify-captcha succeeds and login needs none', async () => {
    expect((await t.agent().get('/api/auth/config').expect(200)).body.data.captcha).toEqual({ provider: 'none', siteKey: null });
    await t.agent().post('/api/verify-captcha').send({ token: 'anything' }).expect(200);
    await t.agent().post('/api/login').send({ email: 'admin@test.local', password: 'admin-password-1' }).expect(200);
  });
});
