import { readFileSync } from 'node:fs';
import { buildOpenApi } from '../src/bootstrap';
import { DOCUMENTED_SERVER, OPENAPI_FILE, sortedJson } from '../src/openapi';
import { createTestApp, TestApp } from './utils/create-test-app';

describe('OpenAPI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('docs/openapi.json is up to date (run `npm run openapi` to regenerate)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(sortedJson(buildOpenApi(t.app, DOCUMENTED_SERVER)));
  });

  it('GET /api/health reports database, queue and storage', async () => {
    const res = await t.agent().get('/api/health').expect(200);
    expect(res.body).toEqual({
      status: 'ok',
      database: { status: 'ok', kind: 'postgres' },
      queue: { status: 'ok', kind: 'bull-redis' },
      storage: { status: 'ok', kind: 'local' },
    });
  });
});
