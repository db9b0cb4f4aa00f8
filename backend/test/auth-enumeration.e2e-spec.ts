import { createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';
import { resetCodeFrom } from './utils/mail-catcher';

const signup = (name: string, email: string) => ({ firstName: 'Some', lastName: 'Body', username: name, email, password: 'password-1' });

describe('Sign-up and reset do not tell who has an account (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('register answers an existing e-mail exactly like a new one, and mails the owner instead', async () => {
    await signUpAndLogin(t, 'known');
    const fresh = await t.agent().post('/api/register').send(signup('newcomer', 'newcomer@example.com')).expect(201);
    const taken = await t.agent().post('/api/register').send(signup('intruder', 'KNOWN@example.com')).expect(201);
    expect(taken.body).toEqual(fresh.body);
    expect(fresh.body).toEqual({ message: 'User registered successfully' });
    const notice = await t.mail.waitFor('known@example.com', /tried to register/);
    expect(notice.text).toContain('username "known"');
    // No account was made for the intruder; the owner's password still works.
    await t.agent().post('/api/login').send({ email: 'intruder', password: 'password-1' }).expect(401);
    await t.agent().post('/api/login').send({ email: 'known@example.com', password: 'password-123' }).expect(200);
  });

  it('an unverified owner registering again gets a fresh verification link', async () => {
    await t.agent().post('/api/register').send(signup('forgot1', 'forgot1@example.com')).expect(201);
    await t.mail.waitFor('forgot1@example.com', /Verify/);
    const before = t.mail.messages.length;
    await t.agent().post('/api/register').send(signup('forgot2', 'forgot1@example.com')).expect(201);
    await t.mail.waitFor('forgot1@example.com', /Verify/, 10_000, before);
  });

  it('a taken username is still refused (usernames are public handles)', async () => {
    const res = await t.agent().post('/api/register').send(signup('KNOWN', 'someone-else@example.com')).expect(409);
    expect(res.body.message).toBe('Username is already taken');
  });

  it('the reset code still arrives after the answer', async () => {
    await t.agent().post('/api/forgot-password').send({ email: 'known@example.com' }).expect(200);
    expect(resetCodeFrom(await t.mail.waitFor('known@example.com', /reset code/))).toMatch(/^[0-9A-Z]{10}$/);
  });
});

describe('Answers do not wait for the mail server (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('with SMTP down, existing and unknown accounts get the same answers', async () => {
    await signUpAndLogin(t, 'present');
    // Sending now fails: any answer that still waited for the mail would differ (500).
    await t.mail.stop();
    const known = await t.agent().post('/api/forgot-password').send({ email: 'present@example.com' });
    const unknown = await t.agent().post('/api/forgot-password').send({ email: 'absent@example.com' });
    expect([known.status, known.body]).toEqual([unknown.status, unknown.body]);
    expect(known.status).toBe(200);
    const again = await t.agent().post('/api/register').send(signup('present2', 'present@example.com'));
    const fresh = await t.agent().post('/api/register').send(signup('absent2', 'absent@example.com'));
    expect([again.status, again.body]).toEqual([fresh.status, fresh.body]);
    expect(fresh.status).toBe(201);
  });
});
