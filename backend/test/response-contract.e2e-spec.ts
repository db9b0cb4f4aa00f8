import Fastify from 'fastify';
import { readFileSync } from 'node:fs';
import { OPENAPI_FILE } from '../src/openapi';
import { ResponseContract } from './utils/response-contract';

/** The hook every e2e app runs (test/utils/response-contract.ts), checked on its own against docs/openapi.json. */
describe('the response contract', () => {
  /** One answer of a real Fastify app the contract watches: `body` undefined sends none. */
  const answer = async (c: ResponseContract, method: 'GET' | 'DELETE', url: string, status: number, body?: unknown) => {
    const app = Fastify();
    app.addHook('onRequest', (_req, reply, done) => {
      reply.header('request-id', 'req-1');
      done();
    });
    c.watch(app);
    app.route({ method, url, handler: (_req, reply) => reply.status(status).send(body) });
    await app.inject({ method, url });
    await app.close();
    return c.violations;
  };

  it('accepts a body that matches its schema, nullable references included', async () => {
    const c = new ResponseContract();
    expect(await answer(c, 'GET', '/api/events', 200, { data: [{ id: 'e1', type: 'print.completed', createdAt: '2026-01-01T00:00:00Z', livemode: true, data: {} }], hasMore: false })).toEqual([]);
    // PrintDto.settings is a nullable reference: null must validate
    const print = { _id: 'p', type: 'Manual', status: 'In Draft', settings: null };
    const before = c.violations.length;
    await answer(c, 'GET', '/api/print/00000000-0000-4000-8000-000000000000', 200, { data: print });
    expect(c.violations.slice(before).join('\n')).not.toMatch(/settings/);
  });

  it('records a body that breaks its schema, naming the field', async () => {
    const c = new ResponseContract();
    const v = await answer(c, 'GET', '/api/events', 200, { data: [{ id: 'e1', type: 'print.exploded', createdAt: 'x', data: {} }], hasMore: 'no' });
    expect(v).toHaveLength(1);
    expect(v[0]).toMatch(/body does not match GET \/api\/events 200/);
    expect(v[0]).toMatch(/\/hasMore must be boolean/);
    expect(v[0]).toMatch(/\/data\/0\/type must be equal to one of the allowed values/);
  });

  it('checks error bodies against the error schema too', async () => {
    const c = new ResponseContract();
    const v = await answer(c, 'GET', '/api/events', 400, { statusCode: 400, code: 'invalid_cursor', message: 'x', requestId: 'req-1', errors: 'none' });
    expect(v.join('\n')).toMatch(/errors/);
  });

  it('refuses a status the operation does not declare, errors included, and an error without its body', async () => {
    const c = new ResponseContract({
      paths: { '/api/sizes/{id}': { delete: { responses: { '200': {}, '404': { content: { 'application/json': { schema: { type: 'object' } } } } } } } },
    });
    const finish = (status: number, body?: unknown) => answer(c, 'DELETE', '/api/sizes/s1', status, body);
    await finish(404, { statusCode: 404, code: 'not_found', message: 'Size not found', requestId: 'req-1' });
    expect(c.violations).toEqual([]);
    await finish(409, { statusCode: 409, code: 'size_in_use', message: 'in use', requestId: 'req-1' });
    await finish(404);
    expect(c.violations).toEqual([
      'DELETE /api/sizes/s1 → 409: status not declared for DELETE /api/sizes/{id} (declared: 200, 404)',
      'DELETE /api/sizes/s1 → 404: error without its JSON body',
    ]);
  });

  it('every error the document declares has the one error shape', () => {
    const doc = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as {
      paths: Record<string, Record<string, { responses: Record<string, any> }>>;
      components: { responses: Record<string, any> };
    };
    const answer = (r: any) => (r.$ref ? doc.components.responses[r.$ref.split('/').pop()] : r);
    const other = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) =>
        Object.entries(op.responses ?? {})
          .filter(([status, r]) => Number(status) >= 400 && answer(r)?.content?.['application/json']?.schema?.$ref !== '#/components/schemas/ErrorResponse')
          .map(([status]) => `${method.toUpperCase()} ${path} ${status}`),
      ),
    );
    expect(other).toEqual([]);
  });

  it("checks webhook bodies against the document's webhooks", () => {
    const c = new ResponseContract();
    const envelope = (type: string, data: unknown) => JSON.stringify({ id: '6f1c9a2e-7b4d-4e0a-9c61-2b7f4f1c9a10', type, createdAt: '2026-01-01T00:00:00Z', livemode: true, data });
    const refs = { externalId: null, metadata: {}, test: false };
    expect(c.webhookProblems(envelope('print.cancelled', { printId: 'p', status: 'In Draft', creditsRefunded: true, ...refs }))).toEqual([]);
    expect(c.webhookProblems(envelope('print.cancelled', { printId: 'p', status: 'Cancelled' })).join('\n')).toMatch(/creditsRefunded|status/);
    const file = { format: 'pdf', sheet: 1, n: 1, url: 'u', previewUrl: 'p', bytes: 10, lengthIn: 3 };
    expect(c.webhookProblems(envelope('print.completed', { printId: 'p', status: 'Completed', printedAt: 'x', filesExpireAt: 'y', files: [file], ...refs }))).toEqual([]);
    expect(c.webhookProblems(envelope('print.completed', { printId: 'p', status: 'Completed', printedAt: 'x', filesExpireAt: 'y', files: [{ ...file, format: 'tiff' }], ...refs }))).toEqual([
      "print.completed: /data/files/0/format must be equal to one of the allowed values",
    ]);
    expect(c.webhookProblems(envelope('print.exploded', {}))).toEqual(['event type "print.exploded" is not in the document\'s webhooks']);
  });
});
