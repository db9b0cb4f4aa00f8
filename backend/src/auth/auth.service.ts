import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Inject,
  Injectable,
  Logger,
  UnauthorizedException,
} from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { Request, Response } from 'express';
import { createHmac, randomBytes } from 'node:crypto';
import { DataSource, IsNull, Repository } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { toE164 } from '../common/phone';
import { returned } from '../common/sql';
import { MailService } from '../mail/mail.service';
import { User, UserStatus } from '../users/entities/user.entity';
import { RegisterDto, ResetPasswordDto, UpdateProfileDto } from './dto/auth.dto';
import { AuthToken, AuthTokenKind } from './entities/auth-token.entity';
import { checkPassword, hashPassword } from './password';

export const SESSION_COOKIE = 'gs_session';
export const CAPTCHA_COOKIE = 'gs_captcha';

export interface SessionPayload {
  sub: string;
  /** users.session_version when the cookie was issued. */
  sv: number;
}

// Compared against when the account does not exist, so both paths take as long.
let dummyHash: Promise<string> | undefined;

@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectDataSource() private readonly db: DataSource,
    private readonly jwt: JwtService,
    private readonly mail: MailService,
  ) {}

  // ---- registration and verification -------------------------------------------------

  async register(dto: RegisterDto): Promise<User> {
    await this.assertUnique(dto.email, dto.username);
    const phone = dto.phone ? toE164(dto.phone) : null;
    const user = await this.users
      .save(
        this.users.create({
          firstName: dto.firstName,
          lastName: dto.lastName,
          username: dto.username,
          email: dto.email,
          company: dto.company ?? null,
          phone,
          passwordHash: await hashPassword(dto.password),
        }),
      )
      .catch((e) => this.rethrowUnique(e));
    await this.sendVerification(user);
    return user;
  }

  async assertUnique(email?: string, username?: string, exceptId?: string) {
    if (email) {
      const u = await this.users.createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).getOne();
      if (u && u._id !== exceptId) throw new ConflictException({ message: 'Email is already registered', code: 'email_taken' });
    }
    if (username) {
      const u = await this.users.createQueryBuilder('u').where('lower(u.username) = lower(:username)', { username }).getOne();
      if (u && u._id !== exceptId) throw new ConflictException({ message: 'Username is already taken', code: 'username_taken' });
    }
  }

  /** Two requests racing past assertUnique meet the unique index; answer the same way. */
  rethrowUnique(e: any): never {
    if (e?.code === '23505') {
      const which = String(e.constraint ?? e.detail ?? '');
      if (which.includes('username')) throw new ConflictException({ message: 'Username is already taken', code: 'username_taken' });
      throw new ConflictException({ message: 'Email is already registered', code: 'email_taken' });
    }
    throw e;
  }

  async sendVerification(user: User) {
    const token = await this.createToken(user._id, AuthTokenKind.Verify, this.config.auth.verifyTokenTtlMs);
    const link = `${this.config.appUrl}/verify?token=${token}`;
    if (!this.config.mail.smtpUrl) this.logger.log(`Verification link for ${user.email}: ${link}`);
    await this.mail.send({
      to: user.email,
      subject: 'Verify your e-mail address',
      text:
        `Hello ${user.firstName || user.username},\n\nPlease confirm your e-mail address for GangSheet Studio by opening this link:\n\n${link}\n\n` +
        `The link works once and expires in ${Math.round(this.config.auth.verifyTokenTtlMs / 3600_000)} hours.\n`,
      html: `<p>Hello ${escapeHtml(user.firstName || user.username)},</p><p>Please confirm your e-mail address for GangSheet Studio:</p><p><a href="${link}">Verify e-mail</a></p><p>The link works once and expires in ${Math.round(this.config.auth.verifyTokenTtlMs / 3600_000)} hours.</p>`,
    });
  }

  async verifyEmail(token: string): Promise<void> {
    const row = await this.consumeToken(token, AuthTokenKind.Verify);
    if (!row) throw new BadRequestException({ message: 'Email verification failed', code: 'invalid_token' });
    await this.users.update({ _id: row.userId }, { emailVerifiedAt: new Date() });
  }

  // ---- login and sessions ------------------------------------------------------------

  async login(identifier: string, password: string): Promise<User> {
    const user = await this.users
      .createQueryBuilder('u')
      .addSelect('u.passwordHash')
      .where(identifier.includes('@') ? 'lower(u.email) = lower(:id)' : 'lower(u.username) = lower(:id)', { id: identifier })
      .getOne();
    const ok = await checkPassword(password, user?.passwordHash ?? (await (dummyHash ??= hashPassword(randomBytes(16).toString('hex')))));
    if (!user || !ok) throw new UnauthorizedException({ message: 'Invalid email/username or password', code: 'invalid_credentials' });
    if (user.status !== UserStatus.Active) {
      throw new ForbiddenException({ message: 'Your account is inactive. Please contact support.', code: 'account_inactive' });
    }
    if (!user.emailVerifiedAt) {
      await this.sendVerification(user);
      throw new ForbiddenException({
        message: 'Please verify your email before logging in. We have sent you a new verification link.',
        code: 'email_not_verified',
      });
    }
    return user;
  }

  async issueSession(req: Request, res: Response, user: User) {
    const token = await this.jwt.signAsync({ sub: user._id, sv: user.sessionVersion } satisfies SessionPayload, {
      expiresIn: this.config.auth.jwtExpiresIn as any,
    });
    res.cookie(SESSION_COOKIE, token, { ...this.cookieFlags(req), maxAge: durationMs(this.config.auth.jwtExpiresIn) });
  }

  clearSession(req: Request, res: Response) {
    res.clearCookie(SESSION_COOKIE, this.cookieFlags(req));
  }

  cookieFlags(req: Request) {
    const secure = this.config.auth.cookieSecure === 'auto' ? req.secure : this.config.auth.cookieSecure;
    return { httpOnly: true, sameSite: 'lax' as const, secure, path: '/' };
  }

  /** The user of a session token, or null if the token, user, status or session version no longer hold. */
  async userFromToken(token?: string): Promise<User | null> {
    if (!token) return null;
    let payload: SessionPayload;
    try {
      payload = await this.jwt.verifyAsync<SessionPayload>(token);
    } catch {
      return null;
    }
    return this.userForSession(payload);
  }

  async userForSession(payload: SessionPayload): Promise<User | null> {
    if (!payload?.sub) return null;
    const user = await this.users.findOne({ where: { _id: payload.sub } });
    if (!user || user.status !== UserStatus.Active || user.sessionVersion !== payload.sv) return null;
    return user;
  }

  async userFromCookieHeader(header?: string): Promise<User | null> {
    const match = header?.split(';').map((c) => c.trim()).find((c) => c.startsWith(SESSION_COOKIE + '='));
    return this.userFromToken(match ? decodeURIComponent(match.slice(SESSION_COOKIE.length + 1)) : undefined);
  }

  // ---- captcha pass ------------------------------------------------------------------

  /** After /verify-captcha succeeds, the next login/register may rely on this short-lived cookie. */
  async issueCaptchaPass(req: Request, res: Response) {
    const token = await this.jwt.signAsync({ cap: 1 }, { expiresIn: '5m' });
    res.cookie(CAPTCHA_COOKIE, token, { ...this.cookieFlags(req), maxAge: 5 * 60_000 });
  }

  async hasCaptchaPass(req: Request): Promise<boolean> {
    const token = req.cookies?.[CAPTCHA_COOKIE];
    if (!token) return false;
    try {
      const p = await this.jwt.verifyAsync<{ cap?: number }>(token);
      return p.cap === 1;
    } catch {
      return false;
    }
  }

  clearCaptchaPass(req: Request, res: Response) {
    res.clearCookie(CAPTCHA_COOKIE, this.cookieFlags(req));
  }

  // ---- password reset ----------------------------------------------------------------

  /** Always answers the same way, so the form cannot be used to learn who has an account. */
  async forgotPassword(email: string): Promise<void> {
    const user = await this.users.createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).getOne();
    if (!user || user.status !== UserStatus.Active) return;
    const code = await this.createToken(user._id, AuthTokenKind.Reset, this.config.auth.resetTokenTtlMs, 'code');
    const link = `${this.config.appUrl}/auth/forgot-password?email=${encodeURIComponent(user.email)}&token=${code}`;
    if (!this.config.mail.smtpUrl) this.logger.log(`Password reset code for ${user.email}: ${code}`);
    const minutes = Math.round(this.config.auth.resetTokenTtlMs / 60_000);
    await this.mail.send({
      to: user.email,
      subject: 'Your password reset code',
      text: `Your GangSheet Studio password reset code is:\n\n${code}\n\nEnter it on the Update Password form, or open ${link}\n\nThe code works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.\n`,
      html: `<p>Your GangSheet Studio password reset code is:</p><p style="font-size:20px;font-weight:bold;letter-spacing:2px">${code}</p><p>Enter it on the Update Password form, or <a href="${link}">open this link</a>.</p><p>The code works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.</p>`,
    });
  }

  async resetPassword(dto: ResetPasswordDto): Promise<void> {
    if (dto.confirmPassword !== undefined && dto.confirmPassword !== dto.password) {
      throw new BadRequestException('Passwords do not match');
    }
    const user = await this.users.createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email: dto.email }).getOne();
    const row = user ? await this.consumeToken(dto.resetToken.toUpperCase(), AuthTokenKind.Reset, user._id) : null;
    if (!user || !row) throw new BadRequestException({ message: 'Invalid or expired reset token', code: 'invalid_token' });
    // A new password ends every existing session.
    await this.users.update(
      { _id: user._id },
      { passwordHash: await hashPassword(dto.password), sessionVersion: () => 'session_version + 1' } as any,
    );
  }

  // ---- profile -----------------------------------------------------------------------

  async updateProfile(user: User, dto: UpdateProfileDto): Promise<User> {
    const emailChanged = dto.email.toLowerCase() !== user.email.toLowerCase();
    if (emailChanged) await this.assertUnique(dto.email, undefined, user._id);
    await this.users
      .update(
        { _id: user._id },
        {
          firstName: dto.firstName,
          lastName: dto.lastName,
          email: dto.email,
          company: dto.company ?? null,
          phone: dto.phone ? toE164(dto.phone) : null,
          // A new address must be confirmed before it can be used to sign in.
          ...(emailChanged ? { emailVerifiedAt: null } : {}),
        },
      )
      .catch((e) => this.rethrowUnique(e));
    const updated = await this.users.findOneByOrFail({ _id: user._id });
    if (emailChanged) await this.sendVerification(updated);
    return updated;
  }

  // ---- tokens ------------------------------------------------------------------------

  private hmac(token: string) {
    return createHmac('sha256', this.config.auth.jwtSecret).update(token).digest('hex');
  }

  private async createToken(userId: string, kind: AuthTokenKind, ttlMs: number, style: 'link' | 'code' = 'link') {
    // A reset code is typed by hand: 10 characters of Crockford base32 (50 bits) is plenty
    // with per-account rate limiting and a 30-minute life.
    const token =
      style === 'code'
        ? [...randomBytes(10)].map((b) => '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[b & 31]).join('')
        : randomBytes(32).toString('base64url');
    await this.db.transaction(async (m) => {
      // Only the newest reset code is valid (a code is short, so fewer live ones is safer);
      // verification links stay valid side by side, so an earlier mail still works.
      if (kind === AuthTokenKind.Reset) await m.update(AuthToken, { userId, kind, usedAt: IsNull() }, { usedAt: new Date() });
      await m.save(m.create(AuthToken, { userId, kind, tokenHash: this.hmac(token), expiresAt: new Date(Date.now() + ttlMs) }));
    });
    return token;
  }

  /** Marks the token used in the same statement that checks it, so it works exactly once. */
  private async consumeToken(token: string, kind: AuthTokenKind, userId?: string): Promise<AuthToken | null> {
    if (!token || token.length > 100) return null;
    const result = await this.db.query(
      `UPDATE auth_tokens SET used_at = now()
       WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > now() AND ($3::uuid IS NULL OR user_id = $3)
       RETURNING id, user_id`,
      [this.hmac(token), kind, userId ?? null],
    );
    const rows = returned<{ id: string; user_id: string }>(result);
    return rows[0] ? ({ _id: rows[0].id, userId: rows[0].user_id } as AuthToken) : null;
  }
}

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function durationMs(spec: string): number {
  const n = parseInt(spec, 10);
  const unit = spec.slice(-1);
  return n * ({ s: 1000, m: 60_000, h: 3600_000, d: 86400_000 } as Record<string, number>)[unit];
}
