import { createTestApp, TestApp } from './utils/create-test-app';
import { resetCodeFrom } from './utils/mail-catcher';

// The embedded default creates admin@localhost (UsersService.createAdmin, as here through
// ADMIN_EMAIL); the README sends that admin to the profile to change the password.
describe('The default admin can use the profile (e2e)', () => {
  let t: TestApp;
  const ADMIN = { email: 'admin@localhost', password: 'first-start-pass' };
  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  });
  afterAll(() => t.close());

  it('saves the profile as it is, and changes the password with the mailed code', async () => {
    const a = t.agent();
    await a.post('/api/login').send(ADMIN).expect(200);
    const me = (await a.get('/api/profile').expect(200)).body.data;
    expect(me).toMatchObject({ email: 'admin@localhost', role: 'admin' });
    const saved = await a
      .put('/api/profile')
      .send({ firstName: me.firstName, lastName: me.lastName, email: me.email, company: me.company ?? '', phone: me.phone ?? '' })
      .expect(200);
    expect(saved.body.message).toBe('Profile Updated Successfully');
    // "Change Password" on the profile: Send code, then the reset form.
    await a.post('/api/forgot-password').send({ email: me.email }).expect(200);
    const code = resetCodeFrom(await t.mail.waitFor('admin@localhost', /reset code/));
    await a.post('/api/reset-password').send({ email: me.email, resetToken: code, password: 'changed-pass-1', confirmPassword: 'changed-pass-1' }).expect(200);
    await t.agent().post('/api/login').send({ email: ADMIN.email, password: 'changed-pass-1' }).expect(200);
  });
});
