import { AddressInfo } from 'node:net';
import { io, Socket } from 'socket.io-client';
import { RealtimeService } from '../src/realtime/realtime.service';
import { createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

function connect(port: number, cookie?: string): Promise<Socket> {
  const socket = io(`http://127.0.0.1:${port}`, { transports: ['websocket'], extraHeaders: cookie ? { cookie } : {}, reconnection: false });
  return new Promise((resolve, reject) => {
    socket.on('connect', () => resolve(socket));
    socket.on('connect_error', reject);
  });
}

const sessionCookie = (res: { headers: Record<string, any> }) => String(res.headers['set-cookie'][0]).split(';')[0];

describe('Realtime (e2e, socket.io over the Redis adapter)', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('delivers a user event only to that user; anonymous sockets are dropped', async () => {
    const alice = await signUpAndLogin(t, 'rt_alice');
    const bob = await signUpAndLogin(t, 'rt_bob');
    const aliceCookie = sessionCookie(await alice.agent.post('/api/login').send({ email: alice.email, password: alice.password }));
    const bobCookie = sessionCookie(await bob.agent.post('/api/login').send({ email: bob.email, password: bob.password }));
    const a = await connect(port, aliceCookie);
    const b = await connect(port, bobCookie);
    const bobGot: unknown[] = [];
    b.onAny((event, payload) => bobGot.push([event, payload]));
    // Let both joins land.
    await new Promise((r) => setTimeout(r, 200));
    const received = new Promise((resolve) => a.on(`print-${alice.user._id}`, resolve));
    t.app.get(RealtimeService).emitToUser(alice.user._id, `print-${alice.user._id}`, { status: 'Completed' });
    await expect(received).resolves.toEqual({ status: 'Completed' });
    await new Promise((r) => setTimeout(r, 200));
    expect(bobGot).toEqual([]);

    const anon = io(`http://127.0.0.1:${port}`, { transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve) => anon.on('disconnect', () => resolve()));
    a.close();
    b.close();
  });
});
