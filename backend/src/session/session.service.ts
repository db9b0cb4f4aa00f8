import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectRepository } from '@nestjs/typeorm';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createSecretKey, KeyObject } from 'node:crypto';
import { LessThan, Repository } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { RealtimeService } from '../realtime/realtime.service';
import { User, UserStatus } from '../users/entities/user.entity';
import { Session } from './entities/session.entity';
import { SessionCache } from './session-cache';

export const SESSION_COOKIE = 'gs_session';

export interface SessionPayload {
  sub: string;
  /** users.session_version when the cookie was issued. */
  sv: number;
  /** sessions.id: the server-side row logout deletes. */
  sid: string;
  /** Expiry (seconds since the epoch), set by the signer. */
  exp?: number;
}

const keys = new WeakMap<AppConfig, KeyObject>();

/**
 * The JWT secret as a `KeyObject`, one per configuration. Given a string, jsonwebtoken
 * first tries to parse it as a public key (`createPublicKey`) on every verification and
 * only then falls back to a secret; that failed parse would be a large share of the CPU of
 * a cheap authenticated route.
 */
export function jwtKey(config: AppConfig): KeyObject {
  let key = keys.get(config);
  if (!key) keys.set(config, (key = createSecretKey(Buffer.from(config.auth.jwtSecret, 'utf8'))));
  return key;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Sessions and their cookie: a signed cookie names a server-side row, valid while the row
 * lives, the user is active and their session version has not moved on. Used by sign-in
 * (auth), by users (deactivation ends every session) and by the socket handshake (realtime).
 */
@Injectable()
export class SessionService implements OnModuleDestroy {
  /** PostgreSQL mode only: the embedded database is one process with no other writer to hear from. */
  private readonly cache: SessionCache | null;
  private cacheStarted = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(Session) private readonly sessions: Repository<Session>,
    private readonly jwt: JwtService,
    private readonly realtime: RealtimeService,
  ) {
    const { url } = config.database;
    this.cache = url && config.auth.sessionCacheMs > 0 ? new SessionCache(url, config.auth.sessionCacheMs) : null;
  }

  async onModuleDestroy() {
    await this.cache?.stop();
  }

  /** After a request that wrote: waits until this node has heard of every change it committed. */
  async settle(): Promise<void> {
    await this.cache?.settle();
  }

  /** A new server-side session row, named in the signed cookie. */
  async issueSession(req: FastifyRequest, reply: FastifyReply, user: User) {
    const ttlMs = durationMs(this.config.auth.jwtExpiresIn);
    // The user's expired rows go here, so the table holds little more than live sessions.
    await this.sessions.delete({ userId: user._id, expiresAt: LessThan(new Date()) });
    const session = await this.sessions.save(this.sessions.create({ userId: user._id, expiresAt: new Date(Date.now() + ttlMs) }));
    const token = await this.jwt.signAsync({ sub: user._id, sv: user.sessionVersion, sid: session._id } satisfies SessionPayload, {
      expiresIn: this.config.auth.jwtExpiresIn as any,
    });
    reply.setCookie(SESSION_COOKIE, token, { ...this.cookieFlags(req), ...cookieLifetime(ttlMs) });
  }

  /** Logout: the session row goes, so this cookie no longer works anywhere, even if copied. */
  async endSession(req: FastifyRequest, reply: FastifyReply) {
    const token = req.cookies?.[SESSION_COOKIE];
    if (token) {
      const payload = await this.jwt.verifyAsync<SessionPayload>(token).catch(() => null);
      if (payload?.sid && UUID.test(payload.sid)) {
        await this.sessions.delete({ _id: payload.sid });
        this.cache?.invalidate(`s:${payload.sid}`);
        this.realtime.disconnect(RealtimeService.sessionRoom(payload.sid));
      }
    }
    reply.clearCookie(SESSION_COOKIE, this.cookieFlags(req));
  }

  /** Every session of the user (password reset, deactivation), sockets included. */
  async endAllSessions(userId: string) {
    await this.sessions.delete({ userId });
    this.cache?.invalidate(`u:${userId}`);
    this.realtime.disconnect(RealtimeService.room(userId));
  }

  /** The flags of every cookie we set: HttpOnly, SameSite=Lax, Secure per COOKIE_SECURE. */
  cookieFlags(req: FastifyRequest): CookieSerializeOptions {
    // req.protocol honours TRUST_PROXY (X-Forwarded-Proto only from a trusted proxy).
    const secure = this.config.auth.cookieSecure === 'auto' ? req.protocol === 'https' : this.config.auth.cookieSecure;
    return { httpOnly: true, sameSite: 'lax', secure, path: '/' };
  }

  /** The user of a verified cookie payload, or null when its session has ended. */
  async userForSession(payload: SessionPayload): Promise<User | null> {
    if (!payload?.sub || !UUID.test(payload.sub) || !payload.sid || !UUID.test(payload.sid)) return null;
    if (this.cache && !this.cacheStarted) {
      // Started by the first session check, so workers and the CLI never open the listener.
      this.cacheStarted = true;
      void this.cache.start();
    }
    const cached = this.cache?.get(payload.sid);
    if (cached) return cached._id === payload.sub && cached.sessionVersion === payload.sv ? cached : null;
    const generation = this.cache?.current ?? 0;
    // One query: the user, only while the cookie's session row is live.
    const user = await this.users
      .createQueryBuilder('u')
      .innerJoin(Session, 's', 's.id = :sid AND s.user_id = u.id AND s.expires_at > now()', { sid: payload.sid })
      .where('u.id = :id', { id: payload.sub })
      .getOne();
    if (!user || user.status !== UserStatus.Active || user.sessionVersion !== payload.sv) return null;
    this.cache?.put(payload.sid, user, generation, (payload.exp ?? 0) * 1000);
    return user;
  }

  /** The socket.io handshake: the user and session id of the cookie, if the session is live. */
  async sessionFromCookieHeader(header?: string): Promise<{ user: User; sid: string } | null> {
    const match = header?.split(';').map((c) => c.trim()).find((c) => c.startsWith(SESSION_COOKIE + '='));
    if (!match) return null;
    const payload = await this.jwt.verifyAsync<SessionPayload>(decodeURIComponent(match.slice(SESSION_COOKIE.length + 1))).catch(() => null);
    const user = payload ? await this.userForSession(payload) : null;
    return user && payload ? { user, sid: payload.sid } : null;
  }
}

/**
 * Max-Age and Expires of a cookie living `ms`, both sent as before (Express's res.cookie wrote
 * both from a maxAge in ms); @fastify/cookie takes maxAge in seconds and writes only what it
 * is given.
 */
export function cookieLifetime(ms: number): Pick<CookieSerializeOptions, 'maxAge' | 'expires'> {
  return { maxAge: Math.floor(ms / 1000), expires: new Date(Date.now() + ms) };
}

function durationMs(spec: string): number {
  const n = parseInt(spec, 10);
  const unit = spec.slice(-1);
  return n * ({ s: 1000, m: 60_000, h: 3600_000, d: 86400_000 } as Record<string, number>)[unit];
}
