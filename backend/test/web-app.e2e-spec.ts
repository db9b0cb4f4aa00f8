import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, TestApp } from './utils/create-test-app';

/**
 * The built web app is served beside the API: its files, and index.html for every other path
 * (client-side routes), while the API's and the live socket's paths never answer a file.
 */
describe('Web app beside the API', () => {
  let t: TestApp;
  const dist = mkdtempSync(join(tmpdir(), 'gs-dist-'));

  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>GangSheet Studio</title>');
    writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1)');
    // a file whose path looks like an API route must not shadow it
    mkdirSync(join(dist, 'api'));
    writeFileSync(join(dist, 'api', 'health'), 'not the API');
    t = await createTestApp({ FRONTEND_DIST: dist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves the files, cached, and index.html (not cached) for client routes', async () => {
    const js = await t.agent().get('/assets/app.js').expect(200);
    expect(js.text).toBe('console.log(1)');
    expect(js.headers['cache-control']).toBe('public, max-age=3600');
    for (const path of ['/', '/prints/abc', '/orders?status=Pending']) {
      const page = await t.agent().get(path).expect(200);
      expect(page.text).toContain('<title>GangSheet Studio</title>');
      expect(page.headers['cache-control']).toBe('no-cache');
    }
  });

  it('answers API paths from the API only, unknown ones as JSON errors', async () => {
    const health = await t.agent().get('/api/health').expect(200);
    expect(health.body.status).toBe('ok');
    const missing = await t.agent().get('/api/no-such-route').expect(404);
    expect(missing.body).toMatchObject({ code: 'not_found' });
    expect((await t.agent().get('/api').expect(404)).body).toMatchObject({ code: 'not_found' });
  });
});
