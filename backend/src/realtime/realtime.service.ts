import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Emitter } from '@socket.io/redis-emitter';
import Redis from 'ioredis';
import { Server } from 'socket.io';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { LiveEvents, liveEventName, LiveTopic } from './events';
import { redisClient } from '../common/redis';

/**
 * Sends per-user events. In the API process the socket.io server does it (through the
 * Redis adapter when several API nodes run); a worker process has no server and
 * publishes through Redis with the socket.io emitter instead.
 */
@Injectable()
export class RealtimeService implements OnModuleDestroy {
  private server?: Server;
  private emitter?: Emitter;
  private redis?: Redis;
  private readonly listeners: Array<(userId: string, topic: LiveTopic, payload: unknown) => void> = [];

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  static room(userId: string) {
    return `user:${userId}`;
  }

  /** Every socket of one sign-in (the session id in the cookie). */
  static sessionRoom(sessionId: string) {
    return `session:${sessionId}`;
  }

  /**
   * Ends the sockets in a room, on every API node (through the Redis adapter): an ended
   * session must stop receiving events too, not only HTTP answers.
   */
  disconnect(room: string) {
    this.server?.in(room).disconnectSockets(true);
  }

  attach(server: Server) {
    this.server = server;
  }

  /** Sends `payload` to every socket of `userId` as the event `{topic}-{userId}` (see events.ts). */
  emit<K extends LiveTopic>(userId: string, topic: K, payload: LiveEvents[K]) {
    this.send(userId, liveEventName(topic, userId), payload);
    for (const l of this.listeners) l(userId, topic, payload);
  }

  /**
   * Hears every event this process emits. Every change of a print's status is announced here,
   * so a feature that follows prints (production batches) needs no hook in each print service;
   * a listener must not throw and must not wait (it runs inside `emit`).
   */
  listen(fn: (userId: string, topic: LiveTopic, payload: unknown) => void) {
    this.listeners.push(fn);
  }

  private send(userId: string, event: string, payload: unknown) {
    const room = RealtimeService.room(userId);
    if (this.server) {
      this.server.to(room).emit(event, payload);
      return;
    }
    if (this.config.redis.url) {
      if (!this.emitter) {
        this.redis = redisClient(this.config.redis.url, 'socket.io emitter', { lazyConnect: false, maxRetriesPerRequest: null });
        this.emitter = new Emitter(this.redis);
      }
      this.emitter.to(room).emit(event, payload);
    }
  }

  async onModuleDestroy() {
    await this.redis?.quit().catch(() => undefined);
  }
}
