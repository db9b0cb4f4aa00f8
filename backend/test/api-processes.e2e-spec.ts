import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { io, Socket } from 'socket.io-client';
import request from 'supertest';
import { waitFor } from './prints.fixtures';
import { freePort } from './utils/free-port';
import { createTestDatabase, REDIS_URL } from './utils/test-env';

jest.setTimeout(600_000);

/** The direct children of `pid` (a node's API processes; their CPU pools are grandchildren). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * One API node of two processes (API_PROCESSES=2, main.ts as `npm start` runs it) on PostgreSQL
 * and Redis: every request, on whatever process the kernel hands its connection to, sees the
 * same sessions; a logout is refused at once by both; a process that dies is replaced while
 * the other keeps answering; SIGTERM stops the whole node.
 */
describe('An API node of several processes (e2e)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gs-cluster-'));
  const admin = { email: 'admin@cluster.test', password: 'cluster-pass-1' };
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let node: ChildProcess | undefined;
  let base: string;
  let out = '';
  let bothListening = 0;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    node = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts'], {
      cwd: join(__dirname, '..'),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        API_PROCESSES: '2',
        PORT: String(port),
        APP_URL: base,
        DATA_DIR: dataDir,
        DATABASE_URL: db.url,
        REDIS_URL,
        QUEUE_PREFIX: `gs_cluster_${process.pid}`,
        ADMIN_EMAIL: admin.email,
        ADMIN_PASSWORD: admin.password,
        JWT_SECRET: 'cluster-secret-cluster-secret-0123456789',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    node.stdout!.on('data', (d) => (out += d));
    node.stderr!.on('data', (d) => (out += d));
    // ts-node compiles the app in each process: minutes when the other jest worker is busy
    await waitFor(
      async () => {
        if (node!.exitCode !== null) throw new Error(`the node exited (${node!.exitCode})`);
        return childrenOf(node!.pid!).length === 2 && (await fetch(`${base}/api/health`).then((r) => r.ok, () => false));
      },
      300_000,
      'two API processes and a healthy node',
    ).catch((e) => {
      throw new Error(`${e.message}; its output so far:\n${out.slice(-3000)}`);
    });
    // the second process listens some seconds after it exists
    await waitFor(async () => out.split('Nest application successfully started').length - 1 >= 2, 300_000, 'both processes to listen');
    bothListening = Date.now();
  });

  afterAll(async () => {
    for (const s of sockets) s.close();
    if (node && node.exitCode === null) {
      for (const pid of childrenOf(node.pid!)) process.kill(pid, 'SIGKILL');
      node.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
    await db?.drop();
  });

  // supertest opens a connection per request, so the kernel spreads them over both processes
  const get = (path: string, cookie?: string) => {
    const r = request(base).get(path).timeout(10_000);
    return cookie ? r.set('Cookie', cookie) : r;
  };

  it('shares sessions between the processes: signed in on one, known to both; signed out, refused by both at once', async () => {
    const login = await request(base).post('/api/login').set('Origin', base).set('X-Requested-With', 'XMLHttpRequest').send(admin).expect(200);
    const cookie = String(login.headers['set-cookie'][0]).split(';')[0];
    const before = await Promise.all(Array.from({ length: 30 }, () => get('/api/profile', cookie)));
    expect(before.map((r) => r.status)).toEqual(Array(30).fill(200));
    expect(new Set(before.map((r) => r.body.data.email))).toEqual(new Set([admin.email]));

    await request(base).post('/api/logout').set('Origin', base).set('X-Requested-With', 'XMLHttpRequest').set('Cookie', cookie).expect(200);
    const after = await Promise.all(Array.from({ length: 30 }, () => get('/api/profile', cookie)));
    expect(after.map((r) => r.status)).toEqual(Array(30).fill(401));
  });

  it('runs the upload through the queue and sends its live event to websockets on either process; long polling is refused', async () => {
    const xhr = (r: request.Test) => r.set('Origin', base).set('X-Requested-With', 'XMLHttpRequest');
    const login = await xhr(request(base).post('/api/login')).send(admin).expect(200);
    const me = login.body.data;
    const cookie = String(login.headers['set-cookie'][0]).split(';')[0];
    const open = (transport: 'websocket' | 'polling') => {
      const socket = io(base, { transports: [transport], extraHeaders: { cookie, origin: base }, reconnection: false });
      sockets.push(socket);
      return new Promise<Socket>((resolve, reject) => {
        socket.on('connect', () => resolve(socket));
        socket.on('connect_error', reject);
      });
    };
    // four connections: the kernel spreads them over both processes
    const live = await Promise.all(Array.from({ length: 4 }, () => open('websocket')));
    await expect(open('polling')).rejects.toThrow();

    const ready = live.map(
      (s) => new Promise<string>((resolve) => s.on(`image-${me._id}`, (e: { status: string; data: { _id: string } }) => e.status === 'ready' && resolve(e.data._id))),
    );
    const png = await sharp({ create: { width: 300, height: 200, channels: 4, background: { r: 200, g: 30, b: 40, alpha: 1 } } }).png().toBuffer();
    const imageId = (await xhr(request(base).post('/api/images/bulk-upload')).set('Cookie', cookie).attach('files', png, 'live.png').expect(201)).body.data[0]._id;
    expect(await Promise.all(ready)).toEqual(Array(4).fill(imageId));
  });

  it('replaces a process that dies while the other keeps answering, and stops every process on SIGTERM', async () => {
    // a process that dies within 10 s of listening counts as failing to start, which stops the node
    await new Promise((r) => setTimeout(r, Math.max(0, bothListening + 11_000 - Date.now())));
    const [first, second] = childrenOf(node!.pid!);
    process.kill(first, 'SIGKILL');
    await waitFor(async () => /API process \d exited \(SIGKILL\); starting a new one/.test(out), 10_000, 'the primary to notice');
    // While the new one starts, the survivor answers every new connection. (A connection the
    // primary handed to the process in the instant it died is lost with it, as its requests in
    // flight are; Node's cluster gives such a handle to nobody else.)
    const meanwhile = await Promise.all(Array.from({ length: 20 }, () => get('/api/health')));
    expect(meanwhile.map((r) => r.status)).toEqual(Array(20).fill(200));
    await waitFor(async () => {
      const now = childrenOf(node!.pid!);
      return now.length === 2 && now.includes(second) && !now.includes(first);
    }, 60_000, 'a new process in place of the killed one');
    await waitFor(async () => out.split('Nest application successfully started').length - 1 >= 3, 300_000, 'the new process to listen');
    expect((await get('/api/health')).status).toBe(200);

    const processes = childrenOf(node!.pid!);
    const exit = new Promise<number | null>((resolve) => node!.once('exit', (code) => resolve(code)));
    node!.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(processes.filter(alive)).toEqual([]);
  });
});
