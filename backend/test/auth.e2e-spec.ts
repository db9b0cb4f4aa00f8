import request from 'supertest';
import { ADMIN, adminAgent, createTestApp, ORIGIN, signUpAndLogin, TestApp } from './utils/create-test-app';
import { resetCodeFrom, verifyTokenFrom } from './utils/mail-catcher';

const valid = {
  firstName: 'Alice',
  lastName: 'Printer',
  username: 'alice',
  company: 'Alice Prints',
  phone: '+1 415 555 0123',
  email: 'Alice@Example.com',
  password: 'secret-123',
};

describe('Accounts (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('POST /api/register', () => {
    it.each([
      [{ firstName: '' }, 'First name is required'],
      [{ firstName: 'Al' }, 'First name must be at least 3 characters'],
      [{ lastName: undefined }, 'Last name is required'],
      [{ username: 'a b' }, 'Username may contain only letters, digits, dots, dashes and underscores'],
      [{ username: 'ab' }, 'Username must be at least 3 characters'],
      [{ company: 'AB' }, 'Company must be at least 3 characters'],
      [{ phone: '12345' }, 'Phone number is not valid'],
      [{ email: 'not-an-email' }, 'Invalid email address'],
      [{ email: '' }, 'Email is required'],
      [{ password: '12345' }, 'Password must be at least 6 characters'],
      [{ password: undefined }, 'Password is required'],
    ])('%j → 400 %s', async (patch, message) => {
      const res = await t.agent().post('/api/register').send({ ...valid, ...patch }).expect(400);
      expect(res.body).toEqual({ statusCode: 400, code: 'validation_failed', message, requestId: expect.any(String), errors: [expect.objectContaining({ message })] });
    });

    it('registers, stores the phone in E.164 and the e-mail lower-case, and sends a verification mail', async () => {
      const res = await t.agent().post('/api/register').send(valid).expect(201);
      // The answer carries no account data: it must look the same for a taken e-mail.
      expect(res.body).toEqual({ message: 'User registered successfully' });
      const mail = await t.mail.waitFor('alice@example.com', /Verify your e-mail/);
      expect(mail.text).toContain(`${ORIGIN}/verify?token=`);
      const admin = await adminAgent(t);
      const listed = (await admin.get('/api/users?search=alice').expect(200)).body.data[0];
      expect(listed).toMatchObject({
        email: 'alice@example.com',
        phone: '+14155550123',
        company: 'Alice Prints',
        role: 'user',
        status: 'active',
        emailVerified: false,
        credit: { availableCredits: 0, usedCredits: 0 },
      });
      expect(listed.password).toBeUndefined();
      expect(listed.passwordHash).toBeUndefined();
    });

    it('refuses a second account with the same username (any case); a taken e-mail makes no second account', async () => {
      const b = await t.agent().post('/api/register').send({ ...valid, username: 'ALICE', email: 'x@example.com' }).expect(409);
      expect(b.body.message).toBe('Username is already taken');
      await t.agent().post('/api/register').send({ ...valid, username: 'other', email: 'ALICE@example.com' }).expect(201);
      const admin = await adminAgent(t);
      expect((await admin.get('/api/users?search=other').expect(200)).body.data).toEqual([]);
    });

    it('refuses a role in the body: sign-up never makes an admin', async () => {
      const res = await t.agent().post('/api/register').send({ ...valid, username: 'mallory', email: 'm@example.com', role: 'admin' }).expect(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'role', code: 'unknown_field' }] });
      const admin = await adminAgent(t);
      expect((await admin.get('/api/users?search=mallory').expect(200)).body.data).toEqual([]);
    });
  });

  describe('verification and login', () => {
    it('an unverified user cannot log in, and is told why (and gets a fresh link)', async () => {
      const before = t.mail.messages.length;
      const res = await t.agent().post('/api/login').send({ email: 'alice', password: valid.password }).expect(403);
      expect(res.body.code).toBe('email_not_verified');
      expect(res.body.message).toMatch(/verify your email/);
      await t.mail.waitFor('alice@example.com', /Verify/, 10_000, before);
    });

    it('GET /api/verify works once; a reused or unknown token fails; an earlier link still works', async () => {
      const older = t.mail.messages.filter((m) => m.to.includes('alice@example.com'))[0];
      const newest = await t.mail.waitFor('alice@example.com', /Verify/);
      expect(verifyTokenFrom(older)).not.toBe(verifyTokenFrom(newest));
      const ok = await t.agent().get(`/api/verify?token=${verifyTokenFrom(older)}`).expect(200);
      expect(ok.body.message).toBe('Email verified successfully');
      const again = await t.agent().get(`/api/verify?token=${verifyTokenFrom(older)}`).expect(200);
      expect(again.body).toEqual({ message: 'Email already verified', alreadyVerified: true });
      await t.agent().get('/api/verify?token=nonsense').expect(400);
      await t.agent().get('/api/verify').expect(400);
    });

    it('an expired verification link fails', async () => {
      await t.agent().post('/api/register').send({ ...valid, username: 'late', email: 'late@example.com' }).expect(201);
      const mail = await t.mail.waitFor('late@example.com', /Verify/);
      const ds = t.app.get(require('typeorm').DataSource);
      await ds.query(`UPDATE auth_tokens SET expires_at = now() - interval '1 second'`);
      await t.agent().get(`/api/verify?token=${verifyTokenFrom(mail)}`).expect(400);
    });

    it('logs in with e-mail or username; the cookie is httpOnly, SameSite=Lax, not Secure over http', async () => {
      const a = t.agent();
      const res = await a.post('/api/login').send({ email: 'ALICE@example.com', password: valid.password }).expect(200);
      const cookie = res.headers['set-cookie'][0];
      expect(cookie).toMatch(/^gs_session=/);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).not.toMatch(/Secure/);
      expect((await a.get('/api/profile').expect(200)).body.data.username).toBe('alice');
      await t.agent().post('/api/login').send({ email: 'Alice', password: valid.password }).expect(200);
    });

    it('wrong password or unknown account → 401 with one message', async () => {
      const a = await t.agent().post('/api/login').send({ email: 'alice', password: 'wrong-password' }).expect(401);
      const b = await t.agent().post('/api/login').send({ email: 'nobody@example.com', password: 'whatever' }).expect(401);
      expect(a.body.message).toBe('Invalid email/username or password');
      expect(b.body.message).toBe(a.body.message);
    });

    it('login validation messages', async () => {
      expect((await t.agent().post('/api/login').send({ password: 'x' }).expect(400)).body.message).toBe('Email is required');
      expect((await t.agent().post('/api/login').send({ email: 'alice' }).expect(400)).body.message).toBe('Password is required');
    });

    it('logout clears the cookie', async () => {
      const a = t.agent();
      await a.post('/api/login').send({ email: 'alice', password: valid.password }).expect(200);
      const res = await a.post('/api/logout').expect(200);
      expect(res.headers['set-cookie'][0]).toMatch(/gs_session=;/);
      await a.get('/api/profile').expect(401);
    });

    it('an inactive user cannot log in and is told why', async () => {
      const { agent, user, email, password } = await signUpAndLogin(t, 'sleepy');
      const admin = t.agent();
      await admin.post('/api/login').send(ADMIN).expect(200);
      await admin.put(`/api/users/${user._id}/status`).send({ status: 'inactive' }).expect(200);
      await agent.get('/api/profile').expect(401);
      const res = await t.agent().post('/api/login').send({ email, password }).expect(403);
      expect(res.body).toMatchObject({ code: 'account_inactive', message: 'Your account is inactive. Please contact support.' });
    });
  });

  describe('password reset', () => {
    it('sends a code, resets once, ends old sessions', async () => {
      const { agent, email } = await signUpAndLogin(t, 'forgetful', 'old-password');
      const res = await t.agent().post('/api/forgot-password').send({ email }).expect(200);
      expect(res.body.message).toBe('Password reset key sended to given email');
      const code = resetCodeFrom(await t.mail.waitFor(email, /reset code/));
      await t.agent().post('/api/reset-password').send({ email, resetToken: 'WRONGCODE1', password: 'new-password' }).expect(400);
      await t.agent().post('/api/reset-password').send({ email, resetToken: code, password: 'new', confirmPassword: 'new' }).expect(400);
      const mismatch = await t.agent().post('/api/reset-password').send({ email, resetToken: code, password: 'new-password', confirmPassword: 'other-password' }).expect(400);
      expect(mismatch.body.message).toBe('Passwords do not match');
      const ok = await t.agent().post('/api/reset-password').send({ email, resetToken: code.toLowerCase(), password: 'new-password' }).expect(200);
      expect(ok.body.message).toBe('Password reset successfully');
      const reused = await t.agent().post('/api/reset-password').send({ email, resetToken: code, password: 'third-password' }).expect(400);
      expect(reused.body.message).toBe('Invalid or expired reset token');
      await agent.get('/api/profile').expect(401);
      await t.agent().post('/api/login').send({ email, password: 'old-password' }).expect(401);
      await t.agent().post('/api/login').send({ email, password: 'new-password' }).expect(200);
    });

    it('a code for one account does not reset another', async () => {
      await signUpAndLogin(t, 'victim');
      await signUpAndLogin(t, 'attacker');
      await t.agent().post('/api/forgot-password').send({ email: 'attacker@example.com' }).expect(200);
      const code = resetCodeFrom(await t.mail.waitFor('attacker@example.com', /reset code/));
      await t.agent().post('/api/reset-password').send({ email: 'victim@example.com', resetToken: code, password: 'hijacked' }).expect(400);
    });

    it('does not reveal whether an account exists; validates the address', async () => {
      const res = await t.agent().post('/api/forgot-password').send({ email: 'ghost@example.com' }).expect(200);
      expect(res.body.message).toBe('Password reset key sended to given email');
      expect((await t.agent().post('/api/forgot-password').send({ email: 'nope' }).expect(400)).body.message).toBe('Invalid email address');
      expect((await t.agent().post('/api/forgot-password').send({}).expect(400)).body.message).toBe('Email is required');
    });
  });

  describe('profile', () => {
    it('GET /api/profile without a session → 401', async () => {
      await t.agent().get('/api/profile').expect(401);
    });

    it('PUT /api/profile updates fields, normalises the phone, validates', async () => {
      const { agent } = await signUpAndLogin(t, 'profiler');
      const body = { firstName: 'Pro', lastName: 'Filer', email: 'profiler@example.com', company: '', phone: '+44 20 7946 0958' };
      const res = await agent.put('/api/profile').send(body).expect(200);
      expect(res.body.message).toBe('Profile Updated Successfully');
      expect(res.body.data).toMatchObject({ firstName: 'Pro', phone: '+442079460958', company: null, emailVerified: true });
      expect((await agent.put('/api/profile').send({ ...body, phone: '123' }).expect(400)).body.message).toBe('Phone number is not valid');
      // A taken address answers like a free one (limits-and-bounds.e2e-spec.ts covers the flow).
      const taken = await agent.put('/api/profile').send({ ...body, email: 'alice@example.com', currentPassword: 'password-123' }).expect(200);
      expect(taken.body.message).toBe('Profile Updated Successfully. We sent a link to alice@example.com: your e-mail address changes when you open it.');
      expect(taken.body.data.email).toBe('profiler@example.com');
    });

    it('changing the e-mail waits for the link sent to the new address', async () => {
      const { agent, email } = await signUpAndLogin(t, 'mover');
      const res = await agent.put('/api/profile').send({ firstName: 'Mov', lastName: 'Er1', email: 'moved@example.com', currentPassword: 'password-123' }).expect(200);
      expect(res.body.data).toMatchObject({ email, emailVerified: true });
      const token = verifyTokenFrom(await t.mail.waitFor('moved@example.com', /Verify/));
      await t.agent().get(`/api/verify?token=${token}`).expect(200);
      expect((await agent.get('/api/profile').expect(200)).body.data).toMatchObject({ email: 'moved@example.com', emailVerified: true });
    });
  });

  describe('cross-site requests', () => {
    it('a mutation from another origin is refused', async () => {
      const res = await request(t.app.getHttpServer())
        .post('/api/login')
        .set('Origin', 'https://evil.example')
        .send({ email: 'alice', password: valid.password })
        .expect(403);
      expect(res.body.code).toBe('bad_origin');
    });

    it('a form post without our header is refused, even without Origin', async () => {
      await request(t.app.getHttpServer())
        .post('/api/logout')
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send('a=1')
        .expect(403);
    });

    it('the session cookie is SameSite=Lax and CORS allows only our origin', async () => {
      const login = await t.agent().post('/api/login').send({ email: 'alice', password: valid.password }).expect(200);
      expect(login.headers['set-cookie'][0]).toMatch(/SameSite=Lax/);
      const preflight = (origin: string) =>
        request(t.app.getHttpServer()).options('/api/profile').set('Origin', origin).set('Access-Control-Request-Method', 'PUT');
      // Our origin is allowed, with credentials; without CORS this header would be missing.
      const ours = await preflight(ORIGIN);
      expect(ours.headers['access-control-allow-origin']).toBe(ORIGIN);
      expect(ours.headers['access-control-allow-credentials']).toBe('true');
      // Any other origin gets no grant (and certainly not a reflected or wildcard one).
      const evil = await preflight('https://evil.example');
      expect(evil.headers['access-control-allow-origin']).toBeUndefined();
      const simple = await request(t.app.getHttpServer()).get('/api/auth/config').set('Origin', 'https://evil.example').expect(200);
      expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    });
  });
});

describe('Rate limits (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_ACCOUNT: '3', RATE_LIMIT_PER_IP: '6' });
  });
  afterAll(() => t.close());

  it('limits wrong passwords per account (from this IP), then all attempts per IP', async () => {
    for (let i = 0; i < 3; i++) await t.agent().post('/api/login').send({ email: 'target', password: `guess-${i}` }).expect(401);
    const res = await t.agent().post('/api/login').send({ email: 'target', password: 'guess-4' }).expect(429);
    expect(res.body.message).toBe('Too many attempts. Please try again later.');
    // Other accounts from the same IP still work until the IP budget (6) is spent.
    await t.agent().post('/api/login').send({ email: 'other1', password: 'x' }).expect(401);
    await t.agent().post('/api/login').send({ email: 'other2', password: 'x' }).expect(401);
    await t.agent().post('/api/login').send({ email: 'other3', password: 'x' }).expect(429);
  });

  it('limits forgot-password per account', async () => {
    for (let i = 0; i < 3; i++) await t.agent().post('/api/forgot-password').send({ email: 'spam@example.com' }).expect(200);
    await t.agent().post('/api/forgot-password').send({ email: 'spam@example.com' }).expect(429);
  });
});
