import { BadRequestException, CanActivate, ExecutionContext, Inject, Injectable, Logger, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { cookieLifetime, SessionService } from '../session/session.service';

export const CAPTCHA_COOKIE = 'gs_captcha';
const CAPTCHA_MESSAGE = 'captchaMessage';

/** The route (login, register) needs a captcha when one is configured; `missing` is the message when none was sent. */
export const RequireCaptcha = (missing: string) => SetMetadata(CAPTCHA_MESSAGE, missing);

export const captchaFailed = () => new BadRequestException({ message: 'Captcha verification failed. Please try again.', code: 'captcha_failed' });

/**
 * Server-side captcha check. reCAPTCHA v2 and Turnstile share the siteverify protocol:
 * POST form fields secret, response, remoteip → JSON { success, "error-codes" }.
 */
@Injectable()
export class CaptchaService {
  private readonly logger = new Logger('Captcha');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jwt: JwtService,
    private readonly sessions: SessionService,
  ) {}

  get enabled(): boolean {
    return this.config.captcha.provider !== 'none';
  }

  publicConfig() {
    return { provider: this.config.captcha.provider, siteKey: this.enabled ? (this.config.captcha.siteKey ?? null) : null };
  }

  async verify(token: string, remoteIp?: string): Promise<boolean> {
    if (!this.enabled) return true;
    if (!token) return false;
    const body = new URLSearchParams({ secret: this.config.captcha.secret ?? '', response: token });
    if (remoteIp) body.set('remoteip', remoteIp);
    try {
      const res = await fetch(this.config.captcha.verifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) {
        this.logger.warn(`siteverify answered ${res.status}`);
        return false;
      }
      const json = (await res.json()) as { success?: boolean; 'error-codes'?: string[] };
      if (!json.success) this.logger.debug(`captcha refused: ${json['error-codes']?.join(',')}`);
      return json.success === true;
    } catch (e) {
      this.logger.warn(`siteverify unreachable: ${e}`);
      return false;
    }
  }

  /** After /verify-captcha succeeds, the next login/register may rely on this short-lived cookie. */
  async issueCaptchaPass(req: FastifyRequest, reply: FastifyReply) {
    const token = await this.jwt.signAsync({ cap: 1 }, { expiresIn: '5m' });
    reply.setCookie(CAPTCHA_COOKIE, token, { ...this.sessions.cookieFlags(req), ...cookieLifetime(5 * 60_000) });
  }

  async hasCaptchaPass(req: FastifyRequest): Promise<boolean> {
    const token = req.cookies?.[CAPTCHA_COOKIE];
    if (!token) return false;
    try {
      const p = await this.jwt.verifyAsync<{ cap?: number }>(token);
      return p.cap === 1;
    } catch {
      return false;
    }
  }

  clearCaptchaPass(req: FastifyRequest, reply: FastifyReply) {
    reply.clearCookie(CAPTCHA_COOKIE, this.sessions.cookieFlags(req));
  }

  /**
   * A captcha for this request: its token (`captchaToken` in the body) checked with the
   * provider, or else the pass cookie of an earlier /verify-captcha, used up here (one pass,
   * one attempt).
   */
  async require(req: FastifyRequest, reply: FastifyReply, missing: string): Promise<void> {
    if (!this.enabled) return;
    const body = req.body as { captchaToken?: unknown } | null | undefined;
    const token = typeof body?.captchaToken === 'string' && body.captchaToken ? body.captchaToken : undefined;
    if (token) {
      if (!(await this.verify(token, req.ip))) throw captchaFailed();
      return;
    }
    if (!(await this.hasCaptchaPass(req))) throw new BadRequestException({ message: missing, code: 'captcha_required' });
    this.clearCaptchaPass(req, reply);
  }
}

/** Enforces @RequireCaptcha(message) on a route (see CaptchaService.require). */
@Injectable()
export class CaptchaGuard implements CanActivate {
  constructor(
    private readonly captcha: CaptchaService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const missing = this.reflector.get<string | undefined>(CAPTCHA_MESSAGE, ctx.getHandler());
    if (missing === undefined) return true;
    const http = ctx.switchToHttp();
    await this.captcha.require(http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), missing);
    return true;
  }
}
