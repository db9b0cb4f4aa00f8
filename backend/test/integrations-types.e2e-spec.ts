import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/** GET /api/integrations/types: the form offers only what the server can connect, and says why not. */
describe('Integration types (e2e)', () => {
  describe('without the server\'s Etsy app', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ ETSY_KEYSTRING: '', ETSY_SHARED_SECRET: '' });
    });
    afterAll(() => t.close());

    it('needs a session', async () => {
      await t.agent().get('/api/integrations/types').expect(401);
    });

    it('lists Etsy as unavailable with a reason for the seller; the admin is told which settings are missing', async () => {
      const seller = await signUpAndLogin(t, 'typesseller');
      const res = await seller.agent.get('/api/integrations/types').expect(200);
      expect(res.body.data).toEqual([
        { type: 'WordPress', label: 'WooCommerce (WordPress)', available: true, reason: null },
        { type: 'Etsy', label: 'Etsy', available: false, reason: 'Etsy is not set up on this server yet. Ask the administrator to connect the server\'s Etsy app.' },
      ]);
      const admin = await adminAgent(t);
      const forAdmin = (await admin.get('/api/integrations/types').expect(200)).body.data;
      expect(forAdmin.find((x: { type: string }) => x.type === 'Etsy').reason).toMatch(/ETSY_KEYSTRING and ETSY_SHARED_SECRET/);
    });
  });

  describe('with the server\'s Etsy app', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ ETSY_KEYSTRING: 'keystring', ETSY_SHARED_SECRET: 'secret' });
    });
    afterAll(() => t.close());

    it('lists both types as available', async () => {
      const seller = await signUpAndLogin(t, 'typesseller2');
      const res = await seller.agent.get('/api/integrations/types').expect(200);
      expect(res.body.data.map((x: { type: string; available: boolean; reason: string | null }) => [x.type, x.available, x.reason])).toEqual([
        ['WordPress', true, null],
        ['Etsy', true, null],
      ]);
    });
  });
});
