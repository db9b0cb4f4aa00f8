import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { IDEMPOTENCY_IGNORED, IDEMPOTENT } from '../src/idempotency/idempotency.decorators';
import { createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/**
 * POST routes that do not honour an Idempotency-Key refuse it (400 idempotency_not_supported),
 * so a client never takes a retry for protected when it is not; every POST route is one or
 * the other, or a receiver of another system's calls that ignores the header.
 */
describe('Idempotency-Key support (e2e)', () => {
  let t: TestApp;
  let seller: Awaited<ReturnType<typeof signUpAndLogin>>;

  beforeAll(async () => {
    t = await createTestApp();
    seller = await signUpAndLogin(t, 'keysupport');
  });
  afterAll(() => t.close());

  /** The POST routes that answer idempotency_not_supported: none creates or spends. */
  const NOT_SUPPORTED = [
    'ApiKeysController.createApiKey', // the secret is kept only as a hash, so it cannot be answered again
    'ApiKeysController.revokeApiKey',
    'AuthController.register',
    'AuthController.login',
    'AuthController.logout',
    'AuthController.forgotPassword',
    'AuthController.resetPassword',
    'AuthController.verifyCaptcha',
    'ImagesController.bulkDeleteImages',
    'OrdersController.reviewOrderItems',
    'OrdersController.shipOrder', // idempotent by itself: the same shipment again changes nothing, another one is a 409
    'OrdersController.retryFulfilment', // only a failed fulfilment is retried: a second call is a 409
    'PrintsController.previewDraftPrint',
    'PrintsController.previewPrint',
    'PrintsController.cancelPrint',
    'PrintSharesController.createShareLinks',
    'PrintsController.checkLayout',
    'PrintsController.renestLayout',
    'PrintsController.layoutShapes', // reads the designs' outlines for the editor: nothing to repeat
  ];

  it('every POST route honours the key, ignores it (a receiver of calls from a shop or PayPal) or is listed here as refusing it', () => {
    const refusing: string[] = [];
    for (const mod of t.app.get(ModulesContainer).values())
      for (const wrapper of mod.controllers.values()) {
        const cls = wrapper.metatype as any;
        for (const name of Object.getOwnPropertyNames(cls.prototype)) {
          const fn = cls.prototype[name];
          if (typeof fn !== 'function' || Reflect.getMetadata(METHOD_METADATA, fn) !== RequestMethod.POST) continue;
          if (!Reflect.getMetadata(IDEMPOTENT, fn) && !Reflect.getMetadata(IDEMPOTENCY_IGNORED, fn)) refusing.push(`${cls.name}.${name}`);
        }
      }
    // A new POST route must choose: @Idempotent() when it creates or spends, else a line above.
    expect(refusing.filter((r) => !NOT_SUPPORTED.includes(r))).toEqual([]);
    expect(refusing.length).toBeGreaterThan(10);
  });

  it('refused with 400 idempotency_not_supported where not honoured, before the route acts', async () => {
    const key = { 'Idempotency-Key': randomUUID() };
    const refused = [
      await seller.agent.post('/api/api-keys').set(key).send({ name: 'k', scope: 'read' }),
      await seller.agent.post('/api/orders/review').set(key).send({ orderItems: [] }),
      await seller.agent.post('/api/images/bulk-delete').set(key).send({ ids: [] }),
      await t.agent().post('/api/forgot-password').set(key).send({ email: 'nobody@example.com' }),
    ];
    for (const res of refused) expect(res.body).toMatchObject({ statusCode: 400, code: 'idempotency_not_supported', requestId: expect.any(String) });
    expect((await seller.agent.get('/api/api-keys').expect(200)).body.data).toEqual([]);

    const hook = (await seller.agent.post('/api/webhooks').send({ url: 'https://93.184.216.34/h', events: ['print.completed'] }).expect(201)).body.data;
    const patch = await seller.agent.patch(`/api/webhooks/${hook._id}`).set(key).send({ active: false });
    expect(patch.body).toMatchObject({ statusCode: 400, code: 'idempotency_not_supported' });
    // GET, PUT and DELETE are repeatable anyway: the header is ignored there.
    await seller.agent.get('/api/webhooks').set(key).expect(200);
    const size = (await seller.agent.post('/api/sizes').send({ name: 'Pocket', value: 4 }).expect(201)).body.data;
    await seller.agent.put(`/api/sizes/${size._id}`).set(key).send({ name: 'Pocket', value: 5 }).expect(200);
    await seller.agent.delete(`/api/sizes/${size._id}`).set(key).expect(200);
    // who is asking comes first: without a session the answer is 401, whatever the header
    expect((await t.agent().post('/api/api-keys').set(key).send({ name: 'k', scope: 'read' }).expect(401)).body.code).toBe('unauthorized');
    // and the key's check comes before the body's
    expect((await seller.agent.post('/api/api-keys').set(key).send({}).expect(400)).body.code).toBe('idempotency_not_supported');
  });

  it('honoured on the creations that had none: a retry answers the first response and creates nothing', async () => {
    const key = { 'Idempotency-Key': randomUUID() };
    const first = await seller.agent.post('/api/image-categories').set(key).send({ name: 'Retro' }).expect(201);
    const again = await seller.agent.post('/api/image-categories').set(key).send({ name: 'Retro' }).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);

    const hookKey = { 'Idempotency-Key': randomUUID() };
    const body = { url: 'https://93.184.216.34/again', events: ['print.completed'] };
    const hook = await seller.agent.post('/api/webhooks').set(hookKey).send(body).expect(201);
    const hookAgain = await seller.agent.post('/api/webhooks').set(hookKey).send(body).expect(201);
    expect(hookAgain.body.data).toEqual(hook.body.data);
    expect((await seller.agent.get('/api/webhooks')).body.data.filter((w: { url: string }) => w.url === body.url)).toHaveLength(1);
  });

  it("a shop's or PayPal's callback is not refused for the header", async () => {
    const key = { 'Idempotency-Key': randomUUID() };
    const woo = await t.agent().post('/api/integrations/woocommerce/callback').set(key).send({ user_id: 'unknown', consumer_key: 'ck', consumer_secret: 'cs', new_field: 1 });
    expect(woo.body.code).not.toBe('idempotency_not_supported');
    expect(woo.body.code).not.toBe('validation_failed');
    const paypal = await t.agent().post('/api/webhooks/paypal').set(key).send({ id: 'WH-1', event_type: 'PAYMENT.CAPTURE.COMPLETED' });
    expect(paypal.body.code).not.toBe('idempotency_not_supported');
  });
});

/** Wrong API keys count per client address like wrong passwords; past the limit the address waits. */
describe('Failed API-key lookups are throttled per address (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_IP: '5', RATE_LIMIT_WINDOW_SECONDS: '60' });
  });
  afterAll(() => t.close());

  it('5 random invalid keys → 401 each; then 429 rate_limited with Retry-After, a valid key from there included', async () => {
    const s = await signUpAndLogin(t, 'guessed');
    const valid = (await s.agent.post('/api/api-keys').send({ name: 'real', scope: 'read' }).expect(201)).body.data.secret as string;
    const http = () => request(t.app.getHttpServer());
    await http().get('/api/sizes').set('Authorization', `Bearer ${valid}`).expect(200);
    for (let i = 0; i < 5; i++) {
      const res = await http().get('/api/sizes').set('Authorization', `Bearer gsk_${randomBytes(30).toString('base64url')}`).expect(401);
      expect(res.body.code).toBe('invalid_api_key');
    }
    const blocked = await http().get('/api/sizes').set('Authorization', `Bearer gsk_${randomBytes(30).toString('base64url')}`).expect(429);
    expect(blocked.body).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/invalid API keys from this address/) });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60);
    await http().get('/api/sizes').set('Authorization', `Bearer ${valid}`).expect(429);
    // The browser session is not a key lookup: it goes on.
    await s.agent.get('/api/sizes').expect(200);
  });
});
