import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { ChildProcess } from 'node:child_process';
import { AddressInfo } from 'node:net';
import { io, Socket } from 'socket.io-client';
import { AppModule } from '../src/app.module';
import { APP_OPTIONS, configureApp, createHttpAdapter } from '../src/bootstrap';
import { addDesign, addSize, setCredits } from './prints.fixtures';
import { adminAgent, createTestApp, ORIGIN, signUpAndLogin, TestApp } from './utils/create-test-app';
import { startWorkerProcess } from './utils/worker-process';

jest.setTimeout(180_000);

const sessionCookie = (res: { headers: Record<string, any> }) => String(res.headers['set-cookie'][0]).split(';')[0];

function connect(port: number, cookie?: string): Promise<Socket> {
  const socket = io(`http://127.0.0.1:${port}`, { transports: ['websocket'], extraHeaders: cookie ? { cookie, origin: ORIGIN } : { origin: ORIGIN }, reconnection: false });
  return new Promise((resolve, reject) => {
    socket.on('connect', () => resolve(socket));
    socket.on('connect_error', reject);
  });
}

/** Resolves with the reason once the server ends the socket (or fails after `ms`). */
const refused = (s: Socket, ms = 5000) =>
  new Promise<string>((resolve, reject) => {
    if (!s.connected) return resolve('never connected');
    s.on('disconnect', resolve);
    setTimeout(() => reject(new Error('socket was not refused')), ms);
  });

/**
 * The scale-out shape: two API nodes (no job processing) sharing PostgreSQL and Redis, and a
 * separate worker process (src/worker.ts) doing the print. The worker has no socket server:
 * its events go through Redis (socket.io emitter) and must reach a browser connected to
 * either API node, and only the browser of the print's owner.
 */
describe('Realtime across API nodes and a worker (e2e)', () => {
  let a: TestApp;
  let b: NestFastifyApplication;
  let portB: number;
  let worker: ChildProcess | undefined;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    a = await createTestApp({ PROCESS_JOBS: 'false' });
    await a.app.listen(0, '127.0.0.1');
    const ref = await Test.createTestingModule({ imports: [AppModule.forRoot(a.config)] }).compile();
    b = ref.createNestApplication<NestFastifyApplication>(createHttpAdapter(a.config), { ...APP_OPTIONS, logger: ['error'] });
    configureApp(b);
    await b.listen(0, '127.0.0.1');
    portB = (b.getHttpServer().address() as AddressInfo).port;
    worker = await startWorkerProcess(a);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    if (worker && worker.exitCode === null) worker.kill('SIGTERM');
    await b?.close();
    await a?.close();
  });

  it('a print processed by the worker: its owner on the other node gets the print and notification events; nobody else does', async () => {
    const alice = await signUpAndLogin(t(), 'rs_alice');
    const bob = await signUpAndLogin(t(), 'rs_bob');
    // Sessions made on node A are valid on node B (one database, one secret).
    const aliceCookie = sessionCookie(await alice.agent.post('/api/login').send({ email: alice.email, password: alice.password }));
    const bobCookie = sessionCookie(await bob.agent.post('/api/login').send({ email: bob.email, password: bob.password }));
    const onB = await connect(portB, aliceCookie);
    const bobOnB = await connect(portB, bobCookie);
    sockets.push(onB, bobOnB);
    const bobGot: string[] = [];
    bobOnB.onAny((event) => bobGot.push(event));
    const aliceGot: Array<[string, any]> = [];
    onB.onAny((event, payload) => aliceGot.push([event, payload]));
    await new Promise((r) => setTimeout(r, 300)); // let the room joins land

    await setCredits(t(), await adminAgent(t()), alice.user._id, 100);
    const image = await addDesign(t(), alice.user._id, { name: 'scale' });
    const size = await addSize(t(), alice.user._id, 'Front', 3);
    const print = (await alice.agent.post('/api/print').send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 2 }] }).expect(201)).body.data;
    const completed = new Promise<any>((resolve) => onB.on(`print-${alice.user._id}`, (p) => p.status === 'Completed' && resolve(p)));
    const notified = new Promise<any>((resolve) => onB.on(`notification-${alice.user._id}`, resolve));
    await alice.agent.post(`/api/print/${print._id}/process`).send({}).expect(201);

    await expect(completed).resolves.toMatchObject({ printId: print._id, status: 'Completed' });
    const n = await notified;
    expect(n).toMatchObject({ type: 'print', attachmentId: print._id, status: 'unread', message: expect.stringContaining('ready') });
    expect(aliceGot.some(([e]) => e === `print-update-${alice.user._id}`)).toBe(true);
    // The same notification is stored, and listed by either node.
    const listed = (await alice.agent.get('/api/notifications').expect(200)).body;
    expect(listed.data[0]).toMatchObject({ _id: n._id, attachmentId: print._id });
    // The e-mail the processing overlay promises, with a link to the print.
    const mail = await t().mail.waitFor(alice.email, /ready/);
    expect(mail.text).toContain(`${ORIGIN}/prints/${print._id}`);

    await new Promise((r) => setTimeout(r, 300));
    expect(bobGot).toEqual([]);
  });

  it('a socket without a valid session cookie is refused by the node', async () => {
    const carol = await signUpAndLogin(t(), 'rs_carol');
    const valid = sessionCookie(await carol.agent.post('/api/login').send({ email: carol.email, password: carol.password }));
    const ended = sessionCookie(await carol.agent.post('/api/login').send({ email: carol.email, password: carol.password }));
    await carol.agent.post('/api/logout').set('Cookie', ended).expect(200);
    const [name, value] = valid.split('=');
    const forged = `${name}=${value.slice(0, -2)}${value.endsWith('AA') ? 'BB' : 'AA'}`;
    // The valid one is accepted, so a refusal below is about the cookie, not the node.
    sockets.push(await connect(portB, valid));
    for (const cookie of [undefined, forged, ended]) {
      const s = io(`http://127.0.0.1:${portB}`, { transports: ['websocket'], extraHeaders: cookie ? { cookie, origin: ORIGIN } : { origin: ORIGIN }, reconnection: false });
      sockets.push(s);
      await new Promise<void>((resolve) => s.on('connect', () => resolve()).on('connect_error', () => resolve()));
      await expect(refused(s)).resolves.toBeTruthy();
      expect(s.connected).toBe(false);
    }
  });

  const t = () => a;
});
