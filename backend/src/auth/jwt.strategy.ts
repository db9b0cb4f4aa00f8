import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-jwt';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { jwtKey, SESSION_COOKIE, SessionPayload, SessionService } from '../session/session.service';

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy) {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly sessions: SessionService,
  ) {
    super({
      // The session cookie itself, read on every request: no extractor list to walk.
      jwtFromRequest: (req: FastifyRequest) => req?.cookies?.[SESSION_COOKIE] ?? null,
      // jsonwebtoken takes a KeyObject (see jwtKey); passport-jwt's types predate that.
      secretOrKey: jwtKey(config) as unknown as Buffer,
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  /** Runs on every request: an inactive user or an outdated session is logged out at once. */
  async validate(payload: SessionPayload) {
    const user = await this.sessions.userForSession(payload);
    if (!user) throw new UnauthorizedException('Your session has ended. Please log in again.');
    return user;
  }
}
