import { ConsoleLogger, Logger } from '@nestjs/common';
import Fastify from 'fastify';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { currentRequestId, REQUEST_ID_PATTERN, RequestLogger, useRequestContext } from './request-context';

describe('request context', () => {
  /** One request through a real Fastify app with the hooks; `then` runs in its handler. */
  async function run(headers: Record<string, string>, then: () => unknown = () => undefined, method: 'GET' | 'POST' = 'GET') {
    const app = Fastify();
    useRequestContext(app);
    let inside: string | undefined;
    let onRequest: string | undefined;
    app.route({
      method,
      url: '/',
      handler: async (req) => {
        inside = currentRequestId();
        onRequest = (req as { requestId?: string }).requestId;
        await then();
        return {};
      },
    });
    const res = await app.inject({ method, url: '/', headers, ...(method === 'POST' ? { payload: { a: 1 } } : {}) });
    await app.close();
    return { header: res.headers['request-id'], onRequest, inside };
  }

  it("reuses a valid X-Request-Id, else makes one; the id is the handler's context", async () => {
    expect(await run({ 'x-request-id': 'abc-123:4.5_6' })).toEqual({ header: 'abc-123:4.5_6', onRequest: 'abc-123:4.5_6', inside: 'abc-123:4.5_6' });
    // With a body as well (inject feeds it in the same tick; the socket case is the next test).
    expect(await run({ 'x-request-id': 'with-body' }, undefined, 'POST')).toEqual({ header: 'with-body', onRequest: 'with-body', inside: 'with-body' });
    for (const bad of ['with space', 'x'.repeat(201), 'é', '']) {
      const r = await run({ 'x-request-id': bad });
      expect(r.header).not.toBe(bad);
      expect(r.header).toMatch(REQUEST_ID_PATTERN);
      expect(r.inside).toBe(r.header);
    }
    expect(currentRequestId()).toBeUndefined();
  });

  it('keeps the id when the body arrives on a real socket after the headers', async () => {
    const app = Fastify();
    useRequestContext(app);
    const seen: Array<string | undefined> = [];
    app.post('/', async () => {
      seen.push(currentRequestId());
      await new Promise((r) => setTimeout(r, 1));
      seen.push(currentRequestId());
      return {};
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    try {
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const body = JSON.stringify({ a: 1 });
        const req = request({ port, host: '127.0.0.1', method: 'POST', path: '/', headers: { 'content-type': 'application/json', 'content-length': body.length, 'x-request-id': 'late-body' } });
        req.on('response', (res) => res.resume().on('end', () => resolve(res.statusCode)));
        req.on('error', reject);
        req.flushHeaders();
        // The body is read from socket events well after onRequest's context has returned.
        setTimeout(() => req.end(body), 30);
      });
      expect(status).toBe(200);
      expect(seen).toEqual(['late-body', 'late-body']);
    } finally {
      await app.close();
    }
  });

  it('keeps the id across awaits inside the request', async () => {
    let later: string | undefined;
    await run({ 'x-request-id': 'async-1' }, async () => {
      await new Promise((r) => setTimeout(r, 5));
      later = currentRequestId();
    });
    expect(later).toBe('async-1');
  });

  it('RequestLogger writes the id in every line of the request, and none outside', async () => {
    const logger = new RequestLogger({ colors: false });
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      Logger.overrideLogger(logger);
      await run({ 'x-request-id': 'log-7' }, () => new Logger('Prints').log('queued'));
      new Logger('Prints').log('idle');
      const lines = write.mock.calls.map((c) => String(c[0]));
      expect(lines.find((l) => l.includes('queued'))).toContain('[Prints] [req log-7] queued');
      expect(lines.find((l) => l.includes('idle'))).not.toContain('[req');
    } finally {
      write.mockRestore();
      Logger.overrideLogger(new ConsoleLogger());
    }
  });

  it('adds requestId to JSON log lines', async () => {
    const logger = new RequestLogger({ json: true, colors: false });
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await run({ 'x-request-id': 'json-1' }, () => logger.log('hello', 'Ctx'));
      expect(JSON.parse(String(write.mock.calls.find((c) => String(c[0]).includes('hello'))![0]))).toMatchObject({ message: 'hello', context: 'Ctx', requestId: 'json-1' });
    } finally {
      write.mockRestore();
    }
  });
});
