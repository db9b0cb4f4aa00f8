import { readFileSync } from 'node:fs';
import { OPENAPI_FILE } from '../src/openapi';

/**
 * The committed OpenAPI document (kept fresh by openapi.e2e-spec.ts) describes every route for
 * integrators: its security schemes, a summary, its error answers and a curl example.
 */
describe('OpenAPI for integrators', () => {
  const doc = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
  const ops = Object.entries<any>(doc.paths).flatMap(([path, item]) => Object.entries<any>(item).map(([method, op]) => ({ path, method, op })));

  it('declares the cookie session and the bearer API key', () => {
    expect(doc.components.securitySchemes.cookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'gs_session' });
    expect(doc.components.securitySchemes['api-key']).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('every route: security, summary, error answers with the error schema, a curl example', () => {
    expect(ops.length).toBeGreaterThan(50);
    for (const { path, method, op } of ops) {
      const where = `${method.toUpperCase()} ${path}`;
      expect([where, typeof op.summary === 'string' && op.summary.length > 3]).toEqual([where, true]);
      expect([where, Array.isArray(op.security)]).toEqual([where, true]);
      const errors = Object.keys(op.responses).filter((s) => Number(s) >= 400);
      if (op.security.length) expect([where, errors.includes('401')]).toEqual([where, true]);
      // shared answers (500, 503) are references to components.responses
      const answer = (r: any) => (r.$ref ? doc.components.responses[r.$ref.split('/').pop()] : r);
      for (const s of errors) expect([where, s, answer(op.responses[s]).content['application/json'].example.statusCode]).toEqual([where, s, Number(s)]);
      expect([where, op['x-codeSamples'][0].source.startsWith('curl')]).toEqual([where, true]);
      expect(op.description).toContain('```sh');
    }
  });

  it('a key is offered where a key works: not on public, admin-only or session-only routes', () => {
    const security = (method: string, path: string) => ops.find((o) => o.method === method && o.path === path)!.op.security;
    expect(security('post', '/api/login')).toEqual([]);
    expect(security('get', '/api/health')).toEqual([]);
    expect(security('post', '/api/print/{id}/process')).toEqual([{ cookie: [] }, { 'api-key': [] }]);
    expect(security('post', '/api/images/bulk-upload')).toEqual([{ cookie: [] }, { 'api-key': [] }]);
    expect(security('post', '/api/api-keys')).toEqual([{ cookie: [] }]);
    expect(security('get', '/api/users')).toEqual([{ cookie: [] }]);
    expect(security('get', '/api/print/user/{userId}')).toEqual([{ cookie: [] }]);
    const idem = ops.find((o) => o.method === 'post' && o.path === '/api/print/{id}/process')!.op;
    expect(idem.parameters.map((p: any) => p.name)).toContain('Idempotency-Key');
    expect(idem.responses['422'].content['application/json'].example.code).toBe('idempotency_key_reused');
  });
});
