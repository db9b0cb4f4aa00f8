import { UnauthorizedException } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../config/configuration';
import { RealtimeService } from '../realtime/realtime.service';
import { jwtKey, SESSION_COOKIE, SessionPayload, SessionService } from '../session/session.service';
import { User, UserStatus } from '../users/entities/user.entity';
import { Strategy } from 'passport-jwt';
import { JwtStrategy, VerifiedTokens } from './jwt.strategy';

/**
 * The session cookie: an HS256 JWT naming a server-side session row. Signing, verifying,
 * expiry and a wrong secret are jsonwebtoken's work as configured by SessionModule; the
 * revocation rules (row gone, session version moved on, user inactive) are SessionService's.
 * The session rows and users are stand-ins: no database.
 */
describe('session tokens', () => {
  const config = (secret = 'unit-test-secret-0123456789abcdef') =>
    ({
      auth: { jwtSecret: secret, jwtExpiresIn: '1h', cookieSecure: false, sessionCacheMs: 0 },
      database: { url: '' },
    }) as unknown as AppConfig;
  // As SessionModule registers it.
  const signer = (c: AppConfig) => new JwtService({ secret: jwtKey(c), signOptions: { algorithm: 'HS256' }, verifyOptions: { algorithms: ['HS256'] } });

  function setup(c = config()) {
    const user = { _id: randomUUID(), status: UserStatus.Active, sessionVersion: 3 } as User;
    const live = new Set<string>();
    const sessions = {
      delete: jest.fn(async (where: { _id?: string; userId?: string }) => {
        if (where._id) live.delete(where._id);
        else if (where.userId === user._id) live.clear();
      }),
      create: jest.fn((row: object) => ({ ...row, _id: randomUUID() })),
      save: jest.fn(async (row: { _id: string }) => (live.add(row._id), row)),
    };
    // userForSession's query: the user, joined to a live session row named in the cookie.
    let sid = '';
    interface Query {
      innerJoin(entity: unknown, alias: string, on: string, params: { sid: string }): Query;
      where(): Query;
      getOne(): Promise<User | null>;
    }
    const query: Query = {
      innerJoin: (_e, _a, _on, params) => ((sid = params.sid), query),
      where: () => query,
      getOne: async () => (live.has(sid) ? ({ ...user } as User) : null),
    };
    const users = { createQueryBuilder: () => query };
    const realtime = { disconnect: jest.fn() };
    const jwt = signer(c);
    const service = new SessionService(c, users as any, sessions as any, jwt, realtime as unknown as RealtimeService);
    const cookies: Record<string, string> = {};
    const reply = { setCookie: (name: string, value: string) => (cookies[name] = value), clearCookie: jest.fn() };
    const login = async () => {
      await service.issueSession({ protocol: 'http' } as any, reply as any, user);
      return cookies[SESSION_COOKIE];
    };
    const header = (token: string) => `theme=dark; ${SESSION_COOKIE}=${encodeURIComponent(token)}`;
    return { service, jwt, user, login, header, sessions, realtime, strategy: new JwtStrategy(c, service) };
  }

  it('signs a cookie that names the user, their session version and a live session row, expiring after JWT_EXPIRES_IN', async () => {
    const { jwt, user, login, header, service } = setup();
    const before = Math.floor(Date.now() / 1000);
    const token = await login();
    const payload = await jwt.verifyAsync<SessionPayload & { exp: number }>(token);
    expect(payload).toMatchObject({ sub: user._id, sv: 3 });
    expect(payload.exp - before).toBeGreaterThanOrEqual(3600);
    expect(payload.exp - before).toBeLessThanOrEqual(3601);
    expect((await service.sessionFromCookieHeader(header(token)))?.user._id).toBe(user._id);
  });

  it('rejects a cookie signed with another secret', async () => {
    const { header, service, user, jwt } = setup();
    const forged = await signer(config('another-secret-of-the-same-length!')).signAsync({ sub: user._id, sv: 3, sid: randomUUID() });
    await expect(jwt.verifyAsync(forged)).rejects.toThrow(/invalid signature/);
    expect(await service.sessionFromCookieHeader(header(forged))).toBeNull();
  });

  it('rejects an expired cookie even while its session row lives', async () => {
    const { jwt, header, service, login } = setup();
    const live = await jwt.verifyAsync<SessionPayload>(await login());
    const expired = await jwt.signAsync({ sub: live.sub, sv: live.sv, sid: live.sid, exp: Math.floor(Date.now() / 1000) - 10 });
    await expect(jwt.verifyAsync(expired)).rejects.toThrow(/jwt expired/);
    expect(await service.sessionFromCookieHeader(header(expired))).toBeNull();
  });

  it('rejects a token signed with another algorithm ("none" included)', async () => {
    const { jwt, user } = setup();
    const unsigned = new JwtService({}).sign({ sub: user._id, sv: 3, sid: randomUUID() }, { algorithm: 'none' } as any);
    await expect(jwt.verifyAsync(unsigned)).rejects.toThrow();
  });

  it('ends a session at logout: the same cookie, still validly signed, no longer logs in', async () => {
    const { service, login, header, realtime, strategy, jwt } = setup();
    const token = await login();
    const payload = await jwt.verifyAsync<SessionPayload>(token);
    expect(await strategy.validate({}, payload)).toBeTruthy();
    await service.endSession({ cookies: { [SESSION_COOKIE]: token }, protocol: 'http' } as any, { clearCookie: jest.fn() } as any);
    expect(realtime.disconnect).toHaveBeenCalledWith(RealtimeService.sessionRoom(payload.sid));
    expect(await service.sessionFromCookieHeader(header(token))).toBeNull();
    await expect(strategy.validate({}, payload)).rejects.toBeInstanceOf(UnauthorizedException);
  });

  it('ends every session when the session version moves on (a new password) or the user is deactivated', async () => {
    const { service, login, jwt, user } = setup();
    const payload = await jwt.verifyAsync<SessionPayload>(await login());
    expect(await service.userForSession(payload)).not.toBeNull();
    user.sessionVersion = 4;
    expect(await service.userForSession(payload)).toBeNull();
    user.sessionVersion = 3;
    user.status = UserStatus.Inactive;
    expect(await service.userForSession(payload)).toBeNull();
  });

  it('rejects payloads that do not name a user and a session by id', async () => {
    const { service, user, login, jwt } = setup();
    const { sid } = await jwt.verifyAsync<SessionPayload>(await login());
    expect(await service.userForSession({ sub: user._id, sv: 3, sid })).not.toBeNull();
    expect(await service.userForSession({ sub: "1' OR '1'='1", sv: 3, sid })).toBeNull();
    expect(await service.userForSession({ sub: user._id, sv: 3, sid: 'not-a-uuid' })).toBeNull();
    expect(await service.sessionFromCookieHeader('theme=dark')).toBeNull();
  });

  /** One request through the strategy as passport runs it: a per-request copy carrying the outcomes. */
  function attempt(strategy: JwtStrategy, token?: string): Promise<{ user?: User; failed?: unknown; error?: unknown }> {
    return new Promise((resolve) => {
      const run = Object.create(strategy) as JwtStrategy & Record<'success' | 'fail' | 'error', (x: unknown) => void>;
      run.success = (user) => resolve({ user: user as User });
      run.fail = (failed) => resolve({ failed });
      run.error = (error) => resolve({ error });
      run.authenticate({ cookies: token ? { [SESSION_COOKIE]: token } : {} } as any);
    });
  }

  it('checks a cookie signature once, then only its session on every request, until logout ends it', async () => {
    const { strategy, login, service } = setup();
    const verifier = jest.spyOn(Strategy as unknown as { JwtVerifier: (...a: unknown[]) => void }, 'JwtVerifier');
    try {
      const token = await login();
      expect((await attempt(strategy, token)).user).toBeTruthy();
      expect((await attempt(strategy, token)).user).toBeTruthy();
      expect(verifier).toHaveBeenCalledTimes(1);
      // The same cookie, one character changed: not the string that verified, so checked and refused.
      const tampered = token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.at(-1);
      expect((await attempt(strategy, tampered)).failed).toBeTruthy();
      expect(verifier).toHaveBeenCalledTimes(2);
      expect((await attempt(strategy)).failed).toBeTruthy();
      await service.endSession({ cookies: { [SESSION_COOKIE]: token }, protocol: 'http' } as any, { clearCookie: jest.fn() } as any);
      expect((await attempt(strategy, token)).error).toBeInstanceOf(UnauthorizedException);
    } finally {
      verifier.mockRestore();
    }
  });

  it('keeps a verified cookie only until the second its exp names, and at most `max` of them', () => {
    const cache = new VerifiedTokens(2);
    const payload = (exp?: number) => ({ sub: randomUUID(), sv: 1, sid: randomUUID(), exp });
    const now = 1_700_000_000_000;
    cache.put('a', payload(now / 1000 + 1));
    expect(cache.get('a', now + 999)).toBeTruthy();
    expect(cache.get('a', now + 1000)).toBeUndefined();
    cache.put('never', payload(undefined));
    expect(cache.get('never', now)).toBeUndefined();
    cache.put('b', payload(now / 1000 + 60));
    cache.put('c', payload(now / 1000 + 60));
    cache.put('d', payload(now / 1000 + 60));
    expect([cache.get('b', now), cache.get('c', now), cache.get('d', now)].map(Boolean)).toEqual([false, true, true]);
  });
});
