import Fastify from 'fastify';
import { createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';
import { ResponseContract } from './utils/response-contract';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * One error shape for every refusal, from a route, a guard, a throttler, the upload parser,
 * the router's unknown path or the API-key middleware: `{statusCode, code, message,
 * requestId, errors?}`, with `requestId` the `Request-Id` header of the same response.
 */
describe('Errors and request ids', () => {
  let t: TestApp;
  let seller: Awaited<ReturnType<typeof signUpAndLogin>>;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_ACCOUNT: '2', API_KEY_RATE_LIMIT: '2', UPLOAD_MAX_FILES: '2' });
    seller = await signUpAndLogin(t, 'errorshape');
  });
  afterAll(() => t.close());

  /** The body has exactly the shape, and its requestId is the response's Request-Id. */
  function expectShape(res: { status: number; body: any; headers: Record<string, string> }, status: number, code: string, message?: string | RegExp) {
    expect(res.status).toBe(status);
    expect(Object.keys(res.body).sort()).toEqual(['code', 'message', 'requestId', 'statusCode', ...(res.body.errors ? ['errors'] : [])].sort());
    expect(res.body).toMatchObject({ statusCode: status, code, requestId: res.headers['request-id'] });
    expect(typeof res.body.message).toBe('string');
    if (typeof message === 'string') expect(res.body.message).toBe(message);
    else if (message) expect(res.body.message).toMatch(message);
  }

  it('a refused body: one entry per invalid field, the messages joined as before', async () => {
    const res = await seller.agent.post('/api/sizes').send({});
    expectShape(res, 400, 'validation_failed', 'Name is required. Value is required');
    expect(res.body.errors).toEqual([
      { field: 'name', code: 'required', message: 'Name is required' },
      { field: 'value', code: 'required', message: 'Value is required' },
    ]);
  });

  it('a body field the route does not take is refused, naming it; unknown query parameters are dropped', async () => {
    const res = await seller.agent.post('/api/sizes').send({ name: 'Pocket', value: 4, colour: 'red' });
    expectShape(res, 400, 'validation_failed', 'Unknown field "colour"');
    expect(res.body.errors).toEqual([{ field: 'colour', code: 'unknown_field', message: 'Unknown field "colour"' }]);
    await seller.agent.get('/api/sizes?page=1&limit=10&_cacheBust=1').expect(200);
  });

  it('a nested field is named by its path', async () => {
    const res = await seller.agent.put('/api/images/bulk-update').send({ images: [{ _id: '00000000-0000-4000-8000-000000000000', bogus: 1 }] });
    expectShape(res, 400, 'validation_failed');
    expect(res.body.errors).toContainEqual({ field: 'images[0].bogus', code: 'unknown_field', message: 'Unknown field "images[0].bogus"' });
  });

  it('an unknown route, a missing record, no session, an admin route, bad JSON', async () => {
    expectShape(await seller.agent.get('/api/no-such-route'), 404, 'not_found', 'Cannot GET /api/no-such-route');
    expectShape(await seller.agent.get('/api/sizes/00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    expectShape(await t.agent().get('/api/sizes'), 401, 'unauthorized', 'Please log in to continue');
    expectShape(await seller.agent.get('/api/users'), 403, 'forbidden', 'You are not authorized to view this page');
    expectShape(await seller.agent.post('/api/sizes').set('Content-Type', 'application/json').send('{"name":'), 400, 'invalid_json', 'The request body is not valid JSON');
  });

  it('a route code is kept; the throttler and an API key past its limit answer 429 rate_limited', async () => {
    expectShape(await t.agent().get('/api/sizes').set('Authorization', 'Bearer nope'), 401, 'invalid_api_key');
    for (let i = 0; i < 2; i++) await t.agent().post('/api/forgot-password').send({ email: 'someone@example.com' }).expect(200);
    const throttled = await t.agent().post('/api/forgot-password').send({ email: 'someone@example.com' });
    expectShape(throttled, 429, 'rate_limited', 'Too many attempts. Please try again later.');

    const created = await seller.agent.post('/api/api-keys').send({ name: 'limits', scope: 'read' }).expect(201);
    const key = created.body.data.secret as string;
    for (let i = 0; i < 2; i++) await t.agent().get('/api/sizes').set('Authorization', `Bearer ${key}`).expect(200);
    const limited = await t.agent().get('/api/sizes').set('Authorization', `Bearer ${key}`);
    expectShape(limited, 429, 'rate_limited', /Too many requests with this API key/);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
  });

  it("the upload parser's refusals have codes of their own", async () => {
    const png = Buffer.from('not really a png');
    const res = await seller.agent
      .post('/api/images/bulk-upload')
      .attach('files', png, 'a.png')
      .attach('files', png, 'b.png')
      .attach('files', png, 'c.png');
    expectShape(res, 400, 'too_many_files');
  });

  it('every response names its request: a valid X-Request-Id is reused, anything else replaced', async () => {
    const ok = await seller.agent.get('/api/sizes').expect(200);
    expect(ok.headers['request-id']).toMatch(UUID);
    const mine = await seller.agent.get('/api/sizes').set('X-Request-Id', 'order-42:try.1_a').expect(200);
    expect(mine.headers['request-id']).toBe('order-42:try.1_a');
    const refused = await seller.agent.get('/api/no-such-route').set('X-Request-Id', 'trace-7');
    expect(refused.headers['request-id']).toBe('trace-7');
    expect(refused.body.requestId).toBe('trace-7');
    for (const bad of ['has space', 'x'.repeat(201), 'ünïcode', '']) {
      const res = await seller.agent.get('/api/sizes').set('X-Request-Id', bad).expect(200);
      expect(res.headers['request-id']).toMatch(UUID);
    }
    const a = await seller.agent.get('/api/sizes');
    const b = await seller.agent.get('/api/sizes');
    expect(a.headers['request-id']).not.toBe(b.headers['request-id']);
  });

  it('the e2e hook checks every answer against docs/openapi.json, and names what breaks it', async () => {
    const contract = new ResponseContract({
      paths: {
        '/api/print/{id}': { get: { responses: { '200': {} } } },
        '/api/print/preview': { post: { responses: { '200': {}, '400': {} } } },
      },
    });
    expect(contract.operation('POST', '/api/print/preview')?.path).toBe('/api/print/preview');
    // A real Fastify app the contract watches, answering what each call says.
    const app = Fastify();
    contract.watch(app);
    let next: { status: number; headers: Record<string, string>; body?: unknown } = { status: 200, headers: {} };
    app.all('/*', (_req, reply) => reply.status(next.status).headers(next.headers).send(next.body));
    const answer = async (method: 'GET' | 'POST', url: string, status: number, headers: Record<string, string>, body?: unknown) => {
      next = { status, headers, body };
      await app.inject({ method, url });
    };
    await answer('GET', '/api/print/1', 200, { 'request-id': 'a' });
    await answer('POST', '/api/print/preview', 400, { 'request-id': 'b' }, { statusCode: 400, code: 'validation_failed', message: 'x', requestId: 'b' });
    expect(contract.violations).toEqual([]);
    await answer('GET', '/api/print/2', 201, {});
    await answer('POST', '/api/print/preview', 400, { 'request-id': 'c' }, { statusCode: 400, message: 'no code' });
    await app.close();
    expect(contract.violations).toEqual([
      'GET /api/print/2 → 201: no Request-Id header',
      'GET /api/print/2 → 201: status not declared for GET /api/print/{id} (declared: 200)',
      'POST /api/print/preview → 400: error shape: code undefined; requestId undefined is not the Request-Id header',
    ]);
    expect(() => contract.assertClean()).toThrow(/Responses that break docs\/openapi.json \(3\)/);
    expect(t.contract.violations).toEqual([]);
  });

  it('browsers of the allowed origins may read Request-Id', async () => {
    const res = await t.agent().get('/api/health');
    expect(res.headers['access-control-expose-headers']).toMatch(/Request-Id/);
  });
});
