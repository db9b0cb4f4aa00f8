import Redis from 'ioredis';

export interface RateLimitResult {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  allowed: boolean;
}

/**
 * Fixed-window request counter per API key. In Redis when it is configured, so every API
 * node counts against one budget; in memory on the embedded default (one process).
 */
export class KeyRateLimiter {
  private readonly memory = new Map<string, { window: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly redis?: Redis,
    private readonly prefix = 'gangsheet',
  ) {}

  async hit(keyId: string, now = Date.now()): Promise<RateLimitResult> {
    const window = Math.floor(now / this.windowMs);
    const resetSeconds = Math.max(1, Math.ceil(((window + 1) * this.windowMs - now) / 1000));
    let count: number;
    if (this.redis) {
      const k = `${this.prefix}:apikey-rate:${keyId}:${window}`;
      const [[, n]] = (await this.redis.multi().incr(k).pexpire(k, this.windowMs + 1000).exec()) as [[Error | null, number]];
      count = n;
    } else {
      const entry = this.memory.get(keyId);
      if (!entry || entry.window !== window) {
        this.memory.set(keyId, { window, count: 1 });
        if (this.memory.size > 10_000) this.prune(window);
        count = 1;
      } else count = ++entry.count;
    }
    return { limit: this.limit, remaining: Math.max(0, this.limit - count), resetSeconds, allowed: count <= this.limit };
  }

  private prune(window: number) {
    for (const [k, v] of this.memory) if (v.window !== window) this.memory.delete(k);
  }
}
