import { DataSource } from 'typeorm';
import request from 'supertest';
import { adminAgent, createTestApp, ORIGIN, signUpAndLogin, TestApp } from './utils/create-test-app';
import { verifyTokenFrom } from './utils/mail-catcher';

const cookieOf = (res: { headers: Record<string, any> }) => String(res.headers['set-cookie'][0]).split(';')[0];

/** A bare request carrying only the given session cookie, as an attacker replaying it would. */
const replay = (t: TestApp, cookie: string) => ({
  get: (path: string) => request(t.app.getHttpServer()).get(path).set('Cookie', cookie),
  put: (path: string) => request(t.app.getHttpServer()).put(path).set('Cookie', cookie).set('Origin', ORIGIN),
});

describe('Sessions end on the server (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('after logout the old cookie is refused, even when replayed from elsewhere', async () => {
    const { agent, email, password } = await signUpAndLogin(t, 'leaver');
    const cookie = cookieOf(await agent.post('/api/login').send({ email, password }).expect(200));
    await replay(t, cookie).get('/api/profile').expect(200);
    await agent.post('/api/logout').expect(200);
    await replay(t, cookie).get('/api/profile').expect(401);
    await replay(t, cookie).put('/api/profile').send({ firstName: 'Evil', lastName: 'Doer', email: 'evil@example.com' }).expect(401);
  });

  it('logout ends only that session; other devices stay signed in', async () => {
    const { agent, email, password } = await signUpAndLogin(t, 'twodevices');
    const other = t.agent();
    await other.post('/api/login').send({ email, password }).expect(200);
    await agent.post('/api/logout').expect(200);
    await other.get('/api/profile').expect(200);
  });

  it('changing the e-mail needs the current password and tells the old address', async () => {
    const { agent, email, password } = await signUpAndLogin(t, 'changer');
    const body = { firstName: 'Chan', lastName: 'Ger', email: 'changer-new@example.com' };
    const missing = await agent.put('/api/profile').send(body).expect(400);
    expect(missing.body).toMatchObject({ code: 'current_password_required', message: 'Enter your current password to change the e-mail' });
    const wrong = await agent.put('/api/profile').send({ ...body, currentPassword: 'not-it' }).expect(400);
    expect(wrong.body).toMatchObject({ code: 'wrong_password', message: 'Current password is incorrect' });
    expect((await agent.get('/api/profile').expect(200)).body.data.email).toBe(email);
    // Other fields change without a password.
    await agent.put('/api/profile').send({ ...body, email, firstName: 'Renamed' }).expect(200);
    const ok = await agent.put('/api/profile').send({ ...body, currentPassword: password }).expect(200);
    // The address changes when the link mailed to it is opened; then the old one is told.
    expect(ok.body.data).toMatchObject({ email, emailVerified: true });
    const token = verifyTokenFrom(await t.mail.waitFor('changer-new@example.com', /Verify/));
    await t.agent().get(`/api/verify?token=${token}`).expect(200);
    expect((await agent.get('/api/profile').expect(200)).body.data.email).toBe('changer-new@example.com');
    const notice = await t.mail.waitFor(email, /e-mail address was changed/);
    expect(notice.text).toContain('changer-new@example.com');
  });

  it('an admin cannot change their own e-mail through the users screen (no password asked there)', async () => {
    const admin = await adminAgent(t);
    const me = (await admin.get('/api/profile').expect(200)).body.data;
    const res = await admin.put(`/api/users/${me._id}`).send({ email: 'taken-over@example.com' }).expect(400);
    expect(res.body).toMatchObject({ code: 'use_profile', message: 'Change your own e-mail on the profile page' });
    // Another user's address is still theirs to fix.
    const { user } = await signUpAndLogin(t, 'fixme');
    await admin.put(`/api/users/${user._id}`).send({ email: 'fixed@example.com' }).expect(200);
  });

  it('a password reset ends every session, notifies the owner, and its cookies cannot come back', async () => {
    const { agent, email, password } = await signUpAndLogin(t, 'resetter');
    const cookie = cookieOf(await agent.post('/api/login').send({ email, password }).expect(200));
    await t.agent().post('/api/forgot-password').send({ email }).expect(200);
    const code = (await t.mail.waitFor(email, /reset code/)).text.match(/reset code is:\s+([0-9A-Z]{10})/)![1];
    await t.agent().post('/api/reset-password').send({ email, resetToken: code, password: 'brand-new-pass' }).expect(200);
    await replay(t, cookie).get('/api/profile').expect(401);
    await t.mail.waitFor(email, /password was changed/);
    const rows = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1`, [email]);
    expect(rows[0].n).toBe(0);
  });

  it('a second click on a used verification link says "already verified"', async () => {
    const a = t.agent();
    await a.post('/api/register').send({ firstName: 'Twice', lastName: 'Click', username: 'twice', email: 'twice@example.com', password: 'password-1' }).expect(201);
    const token = verifyTokenFrom(await t.mail.waitFor('twice@example.com', /Verify/));
    expect((await a.get(`/api/verify?token=${token}`).expect(200)).body).toEqual({ message: 'Email verified successfully', alreadyVerified: false });
    expect((await a.get(`/api/verify?token=${token}`).expect(200)).body).toEqual({ message: 'Email already verified', alreadyVerified: true });
    expect((await a.get('/api/verify?token=unknown-token').expect(400)).body.message).toBe('Email verification failed');
  });
});

describe('Sign-in limits per (account, IP) behind a trusted proxy (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback', RATE_LIMIT_PER_ACCOUNT: '3', RATE_LIMIT_PER_IP: '50' });
  });
  afterAll(() => t.close());

  const login = (ip: string, email: string, password: string) =>
    t.agent().post('/api/login').set('X-Forwarded-For', ip).send({ email, password });

  it('a stranger failing from their address never locks the owner out elsewhere', async () => {
    const { email, password } = await signUpAndLogin(t, 'owner');
    for (let i = 0; i < 3; i++) await login('203.0.113.7', email, `guess-${i}`).expect(401);
    // That pair is limited, the right password included ...
    expect((await login('203.0.113.7', email, password).expect(429)).body.message).toBe('Too many attempts. Please try again later.');
    // ... by username too (one budget per account) ...
    await login('203.0.113.7', 'owner', 'guess-x').expect(429);
    // ... but the owner on another address signs in.
    await login('198.51.100.4', email, password).expect(200);
  });

  it('successful sign-ins do not count, and a success clears the failures', async () => {
    const { email, password } = await signUpAndLogin(t, 'frequent');
    for (let i = 0; i < 6; i++) await login('198.51.100.9', email, password).expect(200);
    await login('198.51.100.9', email, 'typo-1').expect(401);
    await login('198.51.100.9', email, 'typo-2').expect(401);
    await login('198.51.100.9', email, password).expect(200);
    await login('198.51.100.9', email, 'typo-3').expect(401);
    await login('198.51.100.9', email, 'typo-4').expect(401);
    await login('198.51.100.9', email, password).expect(200);
  });

  it('wrong current passwords on the profile count against the same budget', async () => {
    const { agent, password } = await signUpAndLogin(t, 'guessed');
    const body = { firstName: 'Gue', lastName: 'Ssed', email: 'guessed-2@example.com' };
    for (let i = 0; i < 3; i++) await agent.put('/api/profile').send({ ...body, currentPassword: `nope-${i}` }).expect(400);
    await agent.put('/api/profile').send({ ...body, currentPassword: password }).expect(429);
  });

  it('the cookie is Secure when the trusted proxy says https', async () => {
    const { email, password } = await signUpAndLogin(t, 'secure');
    const res = await t.agent().post('/api/login').set('X-Forwarded-Proto', 'https').send({ email, password }).expect(200);
    expect(res.headers['set-cookie'][0]).toMatch(/; Secure/);
  });
});

describe('Forwarded headers without TRUST_PROXY (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_IP: '3' });
  });
  afterAll(() => t.close());

  it('X-Forwarded-For from a client does not give it a fresh per-IP budget', async () => {
    for (let i = 0; i < 3; i++) await t.agent().post('/api/login').set('X-Forwarded-For', `10.9.0.${i}`).send({ email: `n${i}`, password: 'x' }).expect(401);
    await t.agent().post('/api/login').set('X-Forwarded-For', '10.9.0.99').send({ email: 'n9', password: 'x' }).expect(429);
  });

  it('X-Forwarded-Proto from a client does not make the cookie Secure', async () => {
    const t2 = await createTestApp();
    try {
      const { email, password } = await signUpAndLogin(t2, 'plain');
      const res = await t2.agent().post('/api/login').set('X-Forwarded-Proto', 'https').send({ email, password }).expect(200);
      expect(res.headers['set-cookie'][0]).not.toMatch(/Secure/);
    } finally {
      await t2.close();
    }
  });
});

describe('Same-origin requests (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const post = (host: string, origin: string) =>
    request(t.app.getHttpServer()).post('/api/login').set('Host', host).set('Origin', origin).send({ email: 'nobody', password: 'whatever' });

  it('the app opened at 127.0.0.1 or a LAN address may sign in (Origin equals Host)', async () => {
    expect((await post('127.0.0.1:3000', 'http://127.0.0.1:3000').expect(401)).body.code).toBe('invalid_credentials');
    expect((await post('192.168.1.20:3000', 'http://192.168.1.20:3000').expect(401)).body.code).toBe('invalid_credentials');
  });

  it('another origin is still refused, also one that differs only in port or scheme', async () => {
    expect((await post('127.0.0.1:3000', 'http://127.0.0.1:4000').expect(403)).body.code).toBe('bad_origin');
    expect((await post('127.0.0.1:3000', 'https://127.0.0.1:3000').expect(403)).body.code).toBe('bad_origin');
    expect((await post('127.0.0.1:3000', 'https://evil.example').expect(403)).body.code).toBe('bad_origin');
  });
});
