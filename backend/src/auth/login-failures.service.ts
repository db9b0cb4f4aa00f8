import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { createHash } from 'node:crypto';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { redisClient } from '../common/redis';

/**
 * Wrong-password counter per (account, client IP) pair. Only failures count, and a
 * success from that pair clears it, so a stranger guessing from their own address locks
 * out only themselves: the owner signing in from anywhere else is never refused. Spread
 * guessing over many addresses is still bounded by the per-IP limit of the throttler.
 * Counters live in Redis when configured (shared by every API node), else in memory.
 */
@Injectable()
export class LoginFailuresService implements OnModuleDestroy {
  private client?: Redis;
  private readonly memory = new Map<string, { count: number; until: number }>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Connected on first use: worker processes load this module but never sign anyone in. */
  private get redis(): Redis | undefined {
    if (!this.config.redis.url) return undefined;
    return (this.client ??= redisClient(this.config.redis.url, 'login failures', { maxRetriesPerRequest: 2 }));
  }

  private get limit() {
    return this.config.auth.rateLimit.perAccount;
  }

  private get windowMs() {
    return this.config.auth.rateLimit.windowMs;
  }

  private key(account: string, ip: string | undefined) {
    const digest = createHash('sha256').update(`${account.toLowerCase()}\n${ip ?? ''}`).digest('hex');
    return `${this.config.redis.prefix}:loginfail:${digest}`;
  }

  async isLocked(account: string, ip: string | undefined): Promise<boolean> {
    const key = this.key(account, ip);
    if (this.redis) return Number((await this.redis.get(key)) ?? 0) >= this.limit;
    const entry = this.memory.get(key);
    return !!entry && entry.until > Date.now() && entry.count >= this.limit;
  }

  async recordFailure(account: string, ip: string | undefined): Promise<void> {
    const key = this.key(account, ip);
    if (this.redis) {
      // The window starts at the first failure, like the throttler's (INCR keeps the TTL).
      await this.redis.multi().set(key, 0, 'PX', this.windowMs, 'NX').incr(key).exec();
      return;
    }
    const now = Date.now();
    const entry = this.memory.get(key);
    if (!entry || entry.until <= now) this.memory.set(key, { count: 1, until: now + this.windowMs });
    else entry.count++;
    if (this.memory.size > 100_000) this.prune(now);
  }

  async clear(account: string, ip: string | undefined): Promise<void> {
    const key = this.key(account, ip);
    if (this.redis) await this.redis.del(key);
    else this.memory.delete(key);
  }

  private prune(now: number) {
    for (const [k, v] of this.memory) if (v.until <= now) this.memory.delete(k);
  }

  async onModuleDestroy() {
    await this.client?.quit().catch(() => undefined);
  }
}
