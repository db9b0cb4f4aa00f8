import { INestApplicationContext } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import Redis from 'ioredis';
import { ServerOptions } from 'socket.io';
import { isAllowedOrigin, rawSelfOrigin, TrustProxy } from '../common/origin.middleware';
import { redisClient, watchRedis } from '../common/redis';

/**
 * The socket.io server of the API. The handshake (polling or websocket) must pass the
 * same allowed-origin rule as the HTTP API: the session cookie rides along on a
 * websocket from any page, and browsers apply no CORS to websockets, so a page on another
 * site could otherwise listen to a signed-in user's events. With Redis, events emitted
 * on one API node reach browsers on all (pub/sub adapter).
 */
export class AppIoAdapter extends IoAdapter {
  private pub?: Redis;
  private sub?: Redis;

  constructor(
    nestApp: INestApplicationContext,
    private readonly opts: { allowedOrigins: string[]; trustProxy: TrustProxy; redisUrl?: string; websocketOnly?: boolean },
  ) {
    super(nestApp);
  }

  createIOServer(port: number, options?: ServerOptions) {
    const allowed = new Set(this.opts.allowedOrigins);
    // The handshake trusts the same peers as the HTTP API.
    const trust = this.opts.trustProxy;
    const server = super.createIOServer(port, {
      ...options,
      cors: { origin: this.opts.allowedOrigins, credentials: true },
      // Several API processes behind one port (API_PROCESSES): the long-polling transport's
      // requests of one session must all reach the process that holds it, which the kernel's
      // connection balancing does not do; a websocket is one connection, so it stays put.
      ...(this.opts.websocketOnly ? { transports: ['websocket'] } : {}),
      allowRequest: (req, callback) => {
        const origin = req.headers.origin;
        // No Origin: not a browser page (browsers always send it on these requests).
        callback(null, !origin || isAllowedOrigin(origin, allowed, rawSelfOrigin(req, trust)));
      },
    } as ServerOptions);
    if (this.opts.redisUrl) {
      this.pub = redisClient(this.opts.redisUrl, 'socket.io pub');
      this.sub = watchRedis(this.pub.duplicate(), 'socket.io sub');
      server.adapter(createAdapter(this.pub, this.sub));
    }
    return server;
  }

  async close(server: any) {
    await super.close(server);
    await Promise.all([this.pub?.quit(), this.sub?.quit()].map((p) => p?.catch(() => undefined)));
  }
}
