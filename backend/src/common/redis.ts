import { Logger } from '@nestjs/common';
import Redis, { RedisOptions } from 'ioredis';

const logger = new Logger('Redis');

/**
 * A Redis client of ours (rate limits, sockets, key limits, events) that reports an outage
 * once and its end once. Without an 'error' listener ioredis prints "Unhandled error event"
 * for every reconnect attempt — 60 lines in a 5-second outage in the soak — and the
 * socket.io adapter's clients add "missing 'error' handler" on top.
 */
export function redisClient(url: string, name: string, options: RedisOptions = {}): Redis {
  return watchRedis(new Redis(url, options), name);
}

/** Attaches the outage reporting to a client made elsewhere (e.g. `duplicate()`). */
export function watchRedis(client: Redis, name: string): Redis {
  let down = false;
  client.on('error', (e: Error) => {
    if (down) return;
    down = true;
    logger.warn(`${name}: ${e.message} (reconnecting)`);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger.log(`${name}: connected again`);
  });
  handleDroppedReplies(client);
  return client;
}

/**
 * The socket.io adapter and emitter publish and subscribe without waiting for the reply. A
 * command that fails (sent while the client is quitting at shutdown, or flushed after an
 * outage outlasted its retries) would then be an unhandled rejection, which ends a Node
 * process. Each such call's promise gets a handler here; a caller that awaits it still sees
 * the failure, and the outage itself is reported by the 'error' listener above.
 */
function handleDroppedReplies(client: Redis) {
  for (const method of ['publish', 'subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe'] as const) {
    const send = (client[method] as (...args: unknown[]) => Promise<unknown>).bind(client);
    (client as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      const reply = send(...args);
      reply.catch(() => undefined);
      return reply;
    };
  }
}
