import { Logger } from '@nestjs/common';
import { createServer } from 'node:net';
import { redisClient } from './redis';

describe('redisClient', () => {
  it('an unreachable Redis is reported once per outage, not once per reconnect attempt', async () => {
    // a port nothing listens on
    const port = await new Promise<number>((res) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => res(p));
      });
    });
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
});
