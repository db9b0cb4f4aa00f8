import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-jwt';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { jwtKey, SESSION_COOKIE, SessionPayload, SessionService } from '../session/session.service';

/** Fastify's request (passport-jwt's types name Express's): the parsed cookies are all it reads. */
type CookieRequest = { cookies?: Record<string, string | undefined> };

const sessionCookie = (req: CookieRequest): string | null => req?.cookies?.[SESSION_COOKIE] ?? null;

/**
 * Cookies whose signature and expiry jsonwebtoken has checked, kept until they expire, so a
 * browser's next requests with the same cookie skip the HMAC and the JSON parse (a tenth of
 * the CPU of a cheap route). Only that check is reused: the session row, the user's status
 * and session version are checked on every request (validate). A cookie is a string signed
 * with our key, so a cached one can only be the same string that verified before.
 */
export class VerifiedTokens {
  private readonly tokens = new Map<string, SessionPayload>();

  constructor(private readonly max = 10_000) {}

  get(token: string, now = Date.now()): SessionPayload | undefined {
    const payload = this.tokens.get(token);
    if (!payload) return undefined;
    // jsonwebtoken's own rule: expired from the second `exp` names.
    if (payload.exp === undefined || Math.floor(now / 1000) >= payload.exp) {
      this.tokens.delete(token);
      return undefined;
    }
    return payload;
  }

  put(token: string, payload: SessionPayload): void {
    if (payload.exp === undefined || this.tokens.has(token)) return;
    // The oldest goes first: the live browsers' cookies are the recent ones.
    if (this.tokens.size >= this.max) this.tokens.delete(this.tokens.keys().next().value as string);
    this.tokens.set(token, payload);
  }
}

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy) {
  private readonly verified = new VerifiedTokens();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly sessions: SessionService,
  ) {
    super({
      // The session cookie itself, read on every request: no extractor list to walk.
      jwtFromRequest: sessionCookie,
      // jsonwebtoken takes a KeyObject (see jwtKey); passport-jwt's types predate that.
      secretOrKey: jwtKey(config) as unknown as Buffer,
      algorithms: ['HS256'],
      ignoreExpiration: false,
      passReqToCallback: true,
    });
  }

  /**
   * passport-jwt's check, unless this cookie passed it before and has not expired: then
   * straight to validate, as passport-jwt would call it. `this` is passport's per-request
   * copy of the strategy, which carries success and error.
   */
  override authenticate(req: Parameters<Strategy['authenticate']>[0], options?: object): void {
    const token = sessionCookie(req);
    const payload = token ? this.verified.get(token) : undefined;
    if (!payload) return super.authenticate(req, options);
    this.validate(req, payload).then(
      (user) => this.success(user),
      (err: Error) => this.error(err),
    );
  }

  /** Runs on every request: an inactive user or an outdated session is logged out at once. */
  async validate(req: CookieRequest, payload: SessionPayload) {
    const user = await this.sessions.userForSession(payload);
    if (!user) throw new UnauthorizedException('Your session has ended. Please log in again.');
    // Reached only with a payload jsonwebtoken verified from this very cookie (or a cached one).
    const token = sessionCookie(req);
    if (token) this.verified.put(token, payload);
    return user;
  }
}
