import { AddressInfo } from 'node:net';
import { io, Socket } from 'socket.io-client';
import request from 'supertest';
import { RealtimeService } from '../src/realtime/realtime.service';
import { resetCodeFrom } from './utils/mail-catcher';
import { createTestApp, ORIGIN, signUpAndLogin, TestApp } from './utils/create-test-app';

function connect(port: number, cookie?: string, origin?: string, transport: 'websocket' | 'polling' = 'websocket'): Promise<Socket> {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (origin) headers.origin = origin;
  const socket = io(`http://127.0.0.1:${port}`, { transports: [transport], extraHeaders: headers, reconnection: false });
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
    t.app.get(RealtimeService).emit(alice.user._id, 'print', { printId: 'p1', status: 'In Draft' });
    await expect(received).resolves.toEqual({ printId: 'p1', status: 'In Draft' });
    await new Promise((r) => setTimeout(r, 200));
    expect(bobGot).toEqual([]);

    const anon = io(`http://127.0.0.1:${port}`, { transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve) => anon.on('disconnect', () => resolve()));
    a.close();
    b.close();
  });

  it('logout closes the sockets of that session; a password reset closes all of the user', async () => {
    const dan = await signUpAndLogin(t, 'rt_dan');
    const first = sessionCookie(await dan.agent.post('/api/login').send({ email: dan.email, password: dan.password }));
    const other = t.agent();
    const second = sessionCookie(await other.post('/api/login').send({ email: dan.email, password: dan.password }));
    const s1 = await connect(port, first);
    const s2 = await connect(port, second);
    await new Promise((r) => setTimeout(r, 200));
    const closed1 = new Promise<string>((resolve) => s1.on('disconnect', resolve));
    await request(t.app.getHttpServer()).post('/api/logout').set('Origin', ORIGIN).set('Cookie', first).expect(200);
    await expect(closed1).resolves.toBe('io server disconnect');
    expect(s2.connected).toBe(true);
    const closed2 = new Promise<string>((resolve) => s2.on('disconnect', resolve));
    await t.agent().post('/api/forgot-password').send({ email: dan.email }).expect(200);
    const code = resetCodeFrom(await t.mail.waitFor(dan.email, /reset code/));
    await t.agent().post('/api/reset-password').send({ email: dan.email, resetToken: code, password: 'another-pass-1' }).expect(200);
    await expect(closed2).resolves.toBe('io server disconnect');
  });

  it('applies the HTTP API origin rule to the handshake: a page on another site cannot listen in', async () => {
    const carol = await signUpAndLogin(t, 'rt_carol');
    const cookie = sessionCookie(await carol.agent.post('/api/login').send({ email: carol.email, password: carol.password }));
    for (const transport of ['websocket', 'polling'] as const) {
      await expect(connect(port, cookie, 'https://evil.example', transport)).rejects.toBeTruthy();
      // Our APP_URL, and the origin the page was loaded from (same-origin), are fine.
      (await connect(port, cookie, ORIGIN, transport)).close();
      (await connect(port, cookie, `http://127.0.0.1:${port}`, transport)).close();
    }
  });
});
