import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { AddressInfo } from 'node:net';
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

  it('keeps an idle connection open longer than clients and proxies keep theirs (Node closes it after 5 s by default)', async () => {
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = new Agent({ keepAlive: true });
    const call = () =>
      new Promise<{ reused: boolean; keepAlive?: string }>((resolve, reject) => {
        const req = get({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/api/health', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ reused: req.reusedSocket, keepAlive: String(res.headers['keep-alive']) }));
        });
        req.on('error', reject);
      });
    expect(await call()).toEqual({ reused: false, keepAlive: 'timeout=125' });
    await new Promise((r) => setTimeout(r, 6000));
    expect((await call()).reused).toBe(true);
    agent.destroy();
  });
});
