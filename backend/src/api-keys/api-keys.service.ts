import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { BadRequestException, Inject, Injectable, NotFoundException, OnModuleDestroy, UnauthorizedException } from '@nestjs/common';
import { ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { Role, User, UserStatus } from '../users/entities/user.entity';
import { CreateApiKeyDto } from './dto/api-key.dto';
import { ApiKey, ApiKeyMode, ApiKeyScope } from './entities/api-key.entity';
import { redisClient } from '../common/redis';

/**
 * Secrets look like `gsk_` + 40 base64url characters (240 random bits), test keys'
 * `gsk_test_` + 40. The fixed prefix lets secret scanners find leaked keys (and people tell a
 * test key at a glance); the prefix and the next 8 characters are kept to tell keys apart.
 */
export const KEY_PREFIX = 'gsk_';
export const TEST_KEY_PREFIX = 'gsk_test_';
const KEY_PATTERN = /^gsk_(test_)?[A-Za-z0-9_-]{40}$/;
const SHOWN_RANDOM_CHARS = 8;

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export interface AuthenticatedKey {
  id: string;
  scope: ApiKeyScope;
  mode: ApiKeyMode;
  user: User;
}

const unauthorized = (message: string) => new UnauthorizedException({ message, code: 'invalid_api_key' });

export interface RateLimitResult {
  limit: number;
  remaining: number;
  /** Seconds until the key may send again: the window's end, or the refusal's when refused. */
  resetSeconds: number;
  allowed: boolean;
}

@Injectable()
export class ApiKeysService implements OnModuleDestroy {
  /**
   * Per-key request counters, @nestjs/throttler's storage: in Redis when it is configured, so
   * every API node counts against one budget; in memory on the embedded default (one process).
   */
  private readonly rateCounters: ThrottlerStorage;
  private readonly redis?: Redis;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    if (config.redis.url) this.redis = redisClient(config.redis.url, 'API key limits', { maxRetriesPerRequest: 2 });
    this.rateCounters = this.redis ? new ThrottlerStorageRedisService(this.redis) : new ThrottlerStorageService();
  }

  /** Failed key lookups per client address when there is no Redis (one process). */
  private readonly failures = new Map<string, { count: number; until: number }>();

  async onModuleDestroy() {
    if (this.rateCounters instanceof ThrottlerStorageService) this.rateCounters.onApplicationShutdown();
    await this.redis?.quit().catch(() => this.redis?.disconnect());
  }

  list(userId: string): Promise<ApiKey[]> {
    return this.db.getRepository(ApiKey).find({ where: { userId }, order: { createdAt: 'DESC' } });
  }

  async create(userId: string, dto: CreateApiKeyDto): Promise<{ key: ApiKey; secret: string }> {
    const expiresAt = dto.expiresAt ? new Date(dto.expiresAt) : null;
    if (expiresAt && expiresAt <= new Date()) throw new BadRequestException({ message: 'The expiry date must be in the future', code: 'invalid_expiry' });
    const count = await this.db.getRepository(ApiKey).count({ where: { userId } });
    if (count >= 50) throw new BadRequestException({ message: 'You have 50 API keys already. Revoke or delete one first.', code: 'too_many_keys' });
    const mode = dto.mode ?? ApiKeyMode.Live;
    const prefix = mode === ApiKeyMode.Test ? TEST_KEY_PREFIX : KEY_PREFIX;
    const secret = prefix + randomBytes(30).toString('base64url');
    const repo = this.db.getRepository(ApiKey);
    const key = await repo.save(
      repo.create({ userId, name: dto.name, scope: dto.scope, mode, expiresAt, prefix: secret.slice(0, prefix.length + SHOWN_RANDOM_CHARS), secretHash: hashSecret(secret) }),
    );
    return { key: await repo.findOneByOrFail({ _id: key._id }), secret };
  }

  async revoke(userId: string, id: string): Promise<ApiKey> {
    const repo = this.db.getRepository(ApiKey);
    const key = await repo.findOne({ where: { _id: id, userId } });
    if (!key) throw new NotFoundException('API key not found');
    if (!key.revokedAt) await this.db.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [id]);
    return repo.findOneByOrFail({ _id: id });
  }

  async remove(userId: string, id: string): Promise<void> {
    const res = await this.db.getRepository(ApiKey).delete({ _id: id, userId });
    if (!res.affected) throw new NotFoundException('API key not found');
  }

  /**
   * The key behind a bearer secret, with its owner loaded fresh (so a deactivated user's keys
   * stop at once). The owner acts as a seller even when an admin: keys never reach admin routes.
   */
  async authenticate(secret: string): Promise<AuthenticatedKey> {
    if (!KEY_PATTERN.test(secret)) throw unauthorized('This is not a GangSheet Studio API key. Send "Authorization: Bearer gsk_…".');
    const rows: Array<{ id: string; scope: ApiKeyScope; mode: ApiKeyMode; expires_at: Date | null; revoked_at: Date | null; user_id: string }> = await this.db.query(
      `SELECT id, scope, mode, expires_at, revoked_at, user_id FROM api_keys WHERE secret_hash = $1`,
      [hashSecret(secret)],
    );
    const k = rows[0];
    if (!k) throw unauthorized('Invalid API key.');
    // The account first: deactivation also revokes the keys, and while it lasts that is the reason to give.
    const user = await this.db.getRepository(User).findOne({ where: { _id: k.user_id } });
    if (!user || user.status !== UserStatus.Active) throw unauthorized('The account of this API key is deactivated.');
    if (k.revoked_at) throw unauthorized('This API key has been revoked.');
    if (k.expires_at && new Date(k.expires_at) <= new Date()) throw unauthorized('This API key has expired.');
    // At most one write a minute per key, not one per request.
    await this.db.query(
      `UPDATE api_keys SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [k.id],
    );
    return { id: k.id, scope: k.scope, mode: k.mode, user: Object.assign(new User(), user, { role: Role.User }) };
  }

  private failureKey(ip: string | undefined) {
    return `${this.config.redis.prefix}:apikeyfail:${createHash('sha256').update(ip ?? '').digest('hex')}`;
  }

  /**
   * Whether the address has failed too many key lookups: the sign-in limit per address
   * (RATE_LIMIT_PER_IP per RATE_LIMIT_WINDOW_SECONDS) applies to wrong keys as to wrong
   * passwords, so keys cannot be guessed at speed. Refused for the rest of the window, a valid
   * key included (else the guessing would go on, only told apart by the answer).
   */
  async lookupBlocked(ip: string | undefined): Promise<{ blocked: boolean; retryAfterSeconds: number }> {
    const { perIp } = this.config.auth.rateLimit;
    const key = this.failureKey(ip);
    if (this.redis) {
      const [[, count], [, ttl]] = (await this.redis.multi().get(key).pttl(key).exec()) as Array<[unknown, unknown]>;
      return { blocked: Number(count ?? 0) >= perIp, retryAfterSeconds: Math.max(1, Math.ceil(Number(ttl) / 1000)) };
    }
    const entry = this.failures.get(key);
    const now = Date.now();
    if (!entry || entry.until <= now) return { blocked: false, retryAfterSeconds: 0 };
    return { blocked: entry.count >= perIp, retryAfterSeconds: Math.max(1, Math.ceil((entry.until - now) / 1000)) };
  }

  /** Counts a lookup that found no usable key; the window starts at the first failure. */
  async recordFailedLookup(ip: string | undefined): Promise<void> {
    const { windowMs } = this.config.auth.rateLimit;
    const key = this.failureKey(ip);
    if (this.redis) {
      await this.redis.multi().set(key, 0, 'PX', windowMs, 'NX').incr(key).exec();
      return;
    }
    const now = Date.now();
    const entry = this.failures.get(key);
    if (!entry || entry.until <= now) this.failures.set(key, { count: 1, until: now + windowMs });
    else entry.count++;
    if (this.failures.size > 100_000) for (const [k, v] of this.failures) if (v.until <= now) this.failures.delete(k);
  }

  /**
   * Counts one request of the key: `API_KEY_RATE_LIMIT` per `API_KEY_RATE_WINDOW_SECONDS`. The
   * request past the limit is refused, and so is the key for one window from then.
   */
  async rateLimit(keyId: string): Promise<RateLimitResult> {
    const { keyRateLimit: limit, keyRateWindowMs: windowMs } = this.config.api;
    // Namespaced like the queues and the sign-in throttler, so deployments sharing one Redis keep separate counters.
    const hit = await this.rateCounters.increment(`${this.config.redis.prefix}:throttle:api-key:${keyId}`, windowMs, limit, windowMs, 'api-key');
    return {
      limit,
      remaining: Math.max(0, limit - hit.totalHits),
      resetSeconds: Math.max(1, hit.isBlocked ? hit.timeToBlockExpire : hit.timeToExpire),
      allowed: !hit.isBlocked,
    };
  }
}
