import { Logger } from '@nestjs/common';
import { createServer } from 'node:net';
import { redisClient } from './redis';

/** A port nothing listens on. */
function closedPort() {
  return new Promise<number>((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => res(p));
    });
  });
}

describe('redisClient', () => {
  it('an unreachable Redis is reported once per outage, not once per reconnect attempt', async () => {
    const port = await closedPort();
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let attempts = 0;
    const client = redisClient(`redis://127.0.0.1:${port}`, 'test client', { retryStrategy: () => 20, maxRetriesPerRequest: 0 });
    client.on('reconnecting', () => attempts++);
    await new Promise((r) => setTimeout(r, 600));
    client.disconnect();
    expect(attempts).toBeGreaterThan(3);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(/^test client: .*ECONNREFUSED.*\(reconnecting\)$/);
    expect(consoleError).not.toHaveBeenCalled();
    warn.mockRestore();
    consoleError.mockRestore();
  });

  // The socket.io adapter publishes without waiting; a failed publish (at shutdown, or after
  // an outage) was an unhandled rejection, which ends the process (and failed a CI run).
  it('a publish or subscribe nobody waits for does not become an unhandled rejection; one that is awaited still fails', async () => {
    const port = await closedPort();
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    const client = redisClient(`redis://127.0.0.1:${port}`, 'test client', { retryStrategy: () => 20, maxRetriesPerRequest: 0 });
    try {
      void client.publish('events', 'dropped');
      void client.subscribe('requests');
      void client.psubscribe('events#*');
      await expect(client.publish('events', 'awaited')).rejects.toThrow(/max retries/i);
      await new Promise((r) => setTimeout(r, 100));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      client.disconnect();
      warn.mockRestore();
    }
  });
});
