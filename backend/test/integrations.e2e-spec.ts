import { DataSource } from 'typeorm';
import { etsyReceipt, FakeEtsy } from './fakes/etsy.fake';
import { FakeWooCommerce, notAShop, wooOrder } from './fakes/woocommerce.fake';
import { ORIGIN, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';
import { shopEnv, syncAndWait, wooKeys } from './utils/shops';

/** Follows the browser's way through a consent page: one redirect at a time, returns the last Location. */
async function follow(url: string): Promise<string> {
  const res = await fetch(url, { redirect: 'manual' });
  const loc = res.headers.get('location');
  if (!loc) throw new Error(`no redirect from ${url}: ${res.status} ${await res.text()}`);
  return loc;
}

describe('Integrations (e2e)', () => {
  let t: TestApp;
  let woo: FakeWooCommerce;
  let etsy: FakeEtsy;
  let seller: Awaited<ReturnType<typeof signUpAndLogin>>;
  let other: Awaited<ReturnType<typeof signUpAndLogin>>;
  beforeAll(async () => {
    woo = await new FakeWooCommerce().start();
    etsy = await new FakeEtsy().start();
    t = await createTestApp(shopEnv(woo, etsy));
    etsy.redirectUris.add(`${ORIGIN}/api/integrations/etsy/callback`);
    seller = await signUpAndLogin(t, 'shopseller');
    other = await signUpAndLogin(t, 'shopother');
  });
  afterAll(async () => {
    await t.close();
    await woo.stop();
    await etsy.stop();
  });

  it('needs a session', async () => {
    await t.agent().get('/api/integrations').expect(401);
    await t.agent().post('/api/integrations').send({ name: 'x', type: 'WordPress' }).expect(401);
  });

  it('POST /api/integrations validates name and type', async () => {
    expect((await seller.agent.post('/api/integrations').send({ type: 'WordPress' }).expect(400)).body.message).toBe('Name is required');
    expect((await seller.agent.post('/api/integrations').send({ name: 'A', type: 'Amazon' }).expect(400)).body.message).toBe('Type must be Etsy or WordPress');
  });

  it('WooCommerce: wrong keys and a site that is not WooCommerce are refused with a clear message', async () => {
    const wrong = await seller.agent.post('/api/integrations').send({ name: 'Shop', type: 'WordPress', keys: wooKeys(woo, { cs: 'cs_wrong' }) }).expect(400);
    expect(wrong.body).toMatchObject({ code: 'auth_failed' });
    expect(wrong.body.message).toMatch(/WooCommerce refused the keys: Consumer key is invalid\. Check the consumer key and secret\./);
    const site = await notAShop();
    const notWoo = await seller.agent.post('/api/integrations').send({ name: 'Blog', type: 'WordPress', keys: wooKeys(woo, { baseUrl: site.url }) }).expect(400);
    expect(notWoo.body.message).toMatch(/does not look like a WooCommerce shop/);
    await site.stop();
    expect((await seller.agent.get('/api/integrations').expect(200)).body.data).toEqual([]);
  });

  let wooId: string;
  it('WooCommerce: right keys connect; secrets are encrypted at rest and never returned; the same shop twice → shop_already_exists', async () => {
    const res = await seller.agent.post('/api/integrations').send({ name: 'My Woo', type: 'WordPress', keys: wooKeys(woo) }).expect(201);
    expect(res.body.data).toMatchObject({ name: 'My Woo', type: 'WordPress', connected: true, session: { connected: true } });
    expect(res.body.connectUrl).toBeUndefined();
    wooId = res.body.data._id;
    const text = JSON.stringify((await seller.agent.get('/api/integrations').expect(200)).body);
    expect(text).toContain(woo.consumerKey);
    expect(text).not.toContain(woo.consumerSecret);
    const [row] = await t.app.get(DataSource).query(`SELECT row_to_json(i)::text AS j FROM integrations i WHERE id = $1`, [wooId]);
    expect(row.j).not.toContain(woo.consumerSecret);
    const dup = await seller.agent.post('/api/integrations').send({ name: 'Again', type: 'WordPress', keys: wooKeys(woo, { baseUrl: woo.baseUrl + '/' }) }).expect(409);
    expect(dup.body).toEqual({ statusCode: 409, message: 'Shop already exists.', code: 'shop_already_exists', requestId: expect.any(String) });
  });

  it("only the owner sees or touches an integration", async () => {
    await other.agent.get(`/api/integrations/${wooId}`).expect(404);
    await other.agent.get(`/api/integrations/${wooId}/orders`).expect(404);
    await other.agent.put(`/api/integrations/${wooId}`).send({ name: 'Mine', type: 'WordPress' }).expect(404);
    await other.agent.delete(`/api/integrations/${wooId}`).expect(404);
    expect((await other.agent.get('/api/integrations').expect(200)).body.data).toEqual([]);
  });

  it('WooCommerce without keys: /wc-auth/v1/authorize, keys POSTed to our callback, verified, connected', async () => {
    const shop2 = await new FakeWooCommerce().start();
    try {
      const res = await seller.agent.post('/api/integrations').send({ name: 'Authorised', type: 'WordPress', keys: [{ key: 'baseUrl', value: shop2.baseUrl }] }).expect(201);
      expect(res.body.data.connected).toBe(false);
      const connectUrl = new URL(res.body.connectUrl);
      expect(connectUrl.pathname).toBe('/wc-auth/v1/authorize');
      expect(connectUrl.searchParams.get('callback_url')).toBe(`${ORIGIN}/api/integrations/woocommerce/callback`);
      // the fake store POSTs to the callback on the app's own address; point it at the test server
      const http = t.app.getHttpServer();
      if (!http.address()) await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
      connectUrl.searchParams.set('callback_url', `http://127.0.0.1:${(http.address() as { port: number }).port}/api/integrations/woocommerce/callback`);
      const back = new URL(await follow(connectUrl.toString()));
      expect(back.searchParams.get('success')).toBe('1');
      const i = (await seller.agent.get(`/api/integrations/${res.body.data._id}`).expect(200)).body.data;
      expect(i.connected).toBe(true);
      expect(i.keys).toContainEqual({ key: 'consumerKey', value: shop2.issued[0].consumer_key });
      // the state is single use: replaying the callback is refused (WooCommerce then deletes the key)
      await t.agent().post('/api/integrations/woocommerce/callback').send(shop2.issued[0]).expect(400);
    } finally {
      await shop2.stop();
    }
  });

  let etsyId: string;
  it('Etsy: connectUrl with PKCE S256 → consent → callback checks state, exchanges the code, stores tokens and the shop id', async () => {
    const res = await seller.agent.post('/api/integrations').send({ name: 'My Etsy', type: 'Etsy' }).expect(201);
    etsyId = res.body.data._id;
    const u = new URL(res.body.connectUrl);
    expect(u.origin + u.pathname).toBe(`${etsy.url}/oauth/connect`);
    expect(Object.fromEntries(u.searchParams)).toMatchObject({ response_type: 'code', client_id: etsy.keystring, scope: 'transactions_r transactions_w shops_r', code_challenge_method: 'S256' });
    // a forged state is refused
    const forged = await t.agent().get('/api/integrations/etsy/callback?code=x&state=forged').expect(302);
    expect(forged.headers.location).toBe(`${ORIGIN}/integrations?error=auth_failed`);
    const cb = new URL(await follow(u.toString()));
    const done = await t.agent().get(cb.pathname + cb.search).expect(302);
    expect(done.headers.location).toBe(`${ORIGIN}/integrations?connected=${etsyId}`);
    const i = (await seller.agent.get(`/api/integrations/${etsyId}`).expect(200)).body.data;
    expect(i).toMatchObject({ connected: true, session: { connected: true, shopId: String(etsy.shopId) } });
    // replaying the same callback: the state was single-use
    expect((await t.agent().get(cb.pathname + cb.search).expect(302)).headers.location).toBe(`${ORIGIN}/integrations?error=auth_failed`);
    // the same Etsy shop connected a second time
    const again = await seller.agent.post('/api/integrations').send({ name: 'Etsy again', type: 'Etsy' }).expect(201);
    const cb2 = new URL(await follow(again.body.connectUrl));
    expect((await t.agent().get(cb2.pathname + cb2.search).expect(302)).headers.location).toBe(`${ORIGIN}/integrations?error=shop_already_exists&integration=${again.body.data._id}`);
    // refused consent
    const refused = await seller.agent.get(`/api/integrations/${again.body.data._id}/auth`).expect(200);
    const cb3 = new URL(await follow(refused.body.connectUrl + '&deny=1'));
    expect((await t.agent().get(cb3.pathname + cb3.search).expect(302)).headers.location).toBe(`${ORIGIN}/integrations?error=auth_failed&integration=${again.body.data._id}`);
    await seller.agent.delete(`/api/integrations/${again.body.data._id}`).expect(200);
  });

  it('Etsy: an expired access token is refreshed and the rotated refresh token stored; a revoked one disconnects', async () => {
    etsy.receipts = [etsyReceipt(1001), etsyReceipt(1002, { status: 'Completed' })];
    etsy.expireAccessTokens();
    const first = await syncAndWait(seller.agent, etsyId);
    expect(first.integration).toMatchObject({ syncStatus: 'done', connected: true, syncError: null });
    expect(etsy.refreshes).toBe(1);
    // the second refresh uses the rotated token (the first one is dead at the fake)
    etsy.expireAccessTokens();
    expect((await syncAndWait(seller.agent, etsyId)).integration.syncStatus).toBe('done');
    expect(etsy.refreshes).toBe(2);
    const orders = (await seller.agent.get(`/api/orders?integrationId=${etsyId}`).expect(200)).body;
    expect(orders.pagination.totalDocuments).toBe(2);
    // the receipt's own status is kept beside ours (an order completed on Etsy is still Pending here until printed)
    expect(orders.data.map((o: any) => [o.orderId, o.shopStatus, o.status]).sort()).toEqual([['1001', 'paid', 'Pending'], ['1002', 'completed', 'Pending']]);
    // a 429 without any header (Etsy's may carry none): exponential back-off from 1 s, then on
    etsy.rateLimitNext = 1;
    etsy.retryAfter = null;
    etsy.log = [];
    expect((await syncAndWait(seller.agent, etsyId)).integration.syncStatus).toBe('done');
    const receipts = etsy.log.filter((l) => l.url.includes('/receipts'));
    expect(receipts.length).toBe(2);
    expect(receipts[1].at - receipts[0].at).toBeGreaterThanOrEqual(950);
    // the seller changed their Etsy password: the refresh is refused
    etsy.revokeRefreshTokens();
    etsy.expireAccessTokens();
    const failed = await syncAndWait(seller.agent, etsyId);
    expect(failed.integration).toMatchObject({ syncStatus: 'failed', connected: false, session: null });
    expect(failed.integration.syncError).toMatch(/Etsy ended the session.*refresh_token is revoked.*connect the integration again/);
    const notConnected = await seller.agent.get(`/api/integrations/${etsyId}/orders`).expect(400);
    expect(notConnected.body).toMatchObject({ message: 'Please connect your integration to sync order', code: 'not_connected' });
  });

  it('rate limit: a 429 with Retry-After is waited out and the sync resumes', async () => {
    woo.orders = [wooOrder({ id: 1 }), wooOrder({ id: 2 })];
    woo.rateLimitNext = 1;
    woo.retryAfter = '1';
    woo.log = [];
    const r = await syncAndWait(seller.agent, wooId);
    expect(r.integration.syncStatus).toBe('done');
    const calls = woo.log.filter((l) => l.url.startsWith('/wp-json/wc/v3/orders'));
    expect(calls.length).toBe(2);
    expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(950);
    expect((await seller.agent.get(`/api/orders?integrationId=${wooId}`).expect(200)).body.pagination.totalDocuments).toBe(2);
  });

  it('PUT changes the name; new wrong keys are refused; DELETE removes it with its orders', async () => {
    const res = await seller.agent.put(`/api/integrations/${wooId}`).send({ name: 'Renamed', type: 'WordPress' }).expect(200);
    expect(res.body.data).toMatchObject({ name: 'Renamed', connected: true });
    await seller.agent.put(`/api/integrations/${wooId}`).send({ name: 'Renamed', type: 'WordPress', keys: wooKeys(woo, { cs: 'cs_bad' }) }).expect(400);
    await seller.agent.delete(`/api/integrations/${wooId}`).expect(200);
    await seller.agent.get(`/api/integrations/${wooId}`).expect(404);
    expect((await seller.agent.get(`/api/orders?integrationId=${wooId}`).expect(200)).body.pagination.totalDocuments).toBe(0);
  });
});
