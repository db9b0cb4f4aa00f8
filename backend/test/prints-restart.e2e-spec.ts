import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { waitDone, waitFor } from './prints.fixtures';
import { freePort } from './utils/free-port';

jest.setTimeout(600_000);

/**
 * The embedded default (PGlite, in-process jobs) killed with SIGKILL in the middle of a
 * render and started again on the same DATA_DIR: its jobs lived in memory, so the recovery
 * sweep at start must find the print still Processing and resume it — completed once,
 * charged once, the killed run's folder removed.
 */
describe('Prints: the embedded default restarted mid-job (e2e)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gs-restart-'));
  // chosen once: the restarted app comes back at the same address
  let port: number;
  let base: string;
  const admin = { email: 'admin@restart.test', password: 'restart-pass-1' };
  const apps: ChildProcess[] = [];

  beforeAll(async () => {
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(() => {
    for (const a of apps) if (a.exitCode === null && a.signalCode === null) a.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function startApp(): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts'], {
      cwd: join(__dirname, '..'),
      // no DATABASE_URL / REDIS_URL / SMTP_URL: the embedded default
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        PORT: String(port),
        APP_URL: base,
        DATA_DIR: dataDir,
        ADMIN_EMAIL: admin.email,
        ADMIN_PASSWORD: admin.password,
        JWT_SECRET: 'restart-secret-restart-secret-0123456789',
        JOB_RECOVERY_GRACE_SECONDS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    apps.push(child);
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    // ts-node compiles the whole app at each start: minutes when the other jest worker is busy
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode}):\n${out}`);
        return fetch(`${base}/api/health`).then((r) => r.ok, () => false);
      },
      240_000,
      'the app to become healthy',
    ).catch((e) => {
      throw new Error(`${e.message}; its output so far:\n${out.slice(-3000)}`);
    });
    return child;
  }

  const agent = () => request.agent(base).set('Origin', base).set('X-Requested-With', 'XMLHttpRequest');

  it('SIGKILL during render, restart → the sweep resumes the print: Completed once, charged once, run folder removed', async () => {
    let app = await startApp();
    const a = agent();
    const me = (await a.post('/api/login').send(admin).expect(200)).body.data;
    await a.put(`/api/users/${me._id}/credit`).send({ availableCredits: 500, reason: 'test setup' }).expect(200);
    const art = await sharp({ create: { width: 1160, height: 760, channels: 4, background: { r: 200, g: 30, b: 40, alpha: 1 } } }).png().toBuffer();
    const png = await sharp({ create: { width: 1200, height: 800, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: art, left: 20, top: 20 }])
      .png()
      .toBuffer();
    const imageId = (await a.post('/api/images/bulk-upload').attach('files', png, 'big.png').expect(201)).body.data[0]._id;
    await waitFor(async () => (await a.get(`/api/images/${imageId}`).expect(200)).body.data.status === 'ready', 60_000, 'the image to be ready');
    const sizeId = (await a.post('/api/sizes').send({ name: 'Back', value: 5 }).expect(201)).body.data._id;
    const copies = 60;
    const p = (await a.post('/api/print').send({ printItems: [{ imageId, sizeId, quantity: copies }] }).expect(201)).body.data;
    await a.post(`/api/print/${p._id}/process`).send({}).expect(201);

    // mid-render: a sheet is being written (the store's writes in progress are in files/.partial)
    const attemptDir = join(dataDir, 'files', 'users', me._id, 'prints', p._id, '1');
    const runDirs = () => (existsSync(attemptDir) ? readdirSync(attemptDir).filter((n) => n.startsWith('.run-')) : []);
    const partialDir = join(dataDir, 'files', '.partial');
    await waitFor(async () => existsSync(partialDir) && readdirSync(partialDir).length > 0, 120_000, 'the render to start');
    const killedRun = runDirs()[0];
    app.kill('SIGKILL');
    await new Promise((r) => app.once('exit', r));

    app = await startApp();
    const b = agent();
    await b.post('/api/login').send(admin).expect(200);
    const done = await waitDone(b, p._id, 180_000);
    expect(done.status).toBe('Completed');
    expect(done.fileId.length).toBeGreaterThan(0);
    await b.get(done.fileId[0].path).expect(200);
    expect((await b.get('/api/profile').expect(200)).body.data.credit).toEqual({ availableCredits: 500 - copies, usedCredits: copies });
    // the completing run removes the killed run's folder and its own just after the print turns Completed
    await waitFor(async () => runDirs().length === 0, 10_000, 'the run folders to be removed');
    expect(runDirs()).not.toContain(killedRun);
    // one "ready" mail (the embedded mail writes .eml files)
    await new Promise((r) => setTimeout(r, 1000));
    const ready = readdirSync(join(dataDir, 'outbox')).filter((f) => /ready/i.test(readFileSync(join(dataDir, 'outbox', f), 'utf8').split('\n').find((l) => l.startsWith('Subject:')) ?? ''));
    expect(ready).toHaveLength(1);
    app.kill('SIGTERM');
  });
});
