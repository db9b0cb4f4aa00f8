import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  UnauthorizedException,
} from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { Request, Response } from 'express';
import { createHmac, randomBytes } from 'node:crypto';
import { DataSource, IsNull, LessThan, Repository } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { toE164 } from '../common/phone';
import { returned } from '../common/sql';
import { MailService } from '../mail/mail.service';
import { RealtimeService } from '../realtime/realtime.service';
import { User, UserStatus } from '../users/entities/user.entity';
import { RegisterDto, ResetPasswordDto, UpdateProfileDto } from './dto/auth.dto';
import { AuthToken, AuthTokenKind } from './entities/auth-token.entity';
import { Session } from './entities/session.entity';
import { LoginFailuresService } from './login-failures.service';
import { NotificationsService } from '../notifications/notifications.service';
import { checkPassword, hashPassword } from './password';

export const SESSION_COOKIE = 'gs_session';
export const CAPTCHA_COOKIE = 'gs_captcha';

export interface SessionPayload {
  sub: string;
  /** users.session_version when the cookie was issued. */
  sv: number;
  /** sessions.id: the server-side row logout deletes. */
  sid: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOO_MANY = 'Too many attempts. Please try again later.';

// Compared against when the account does not exist, so both paths take as long.
let dummyHash: Promise<string> | undefined;

@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(Session) private readonly sessions: Repository<Session>,
    @InjectDataSource() private readonly db: DataSource,
    private readonly jwt: JwtService,
    private readonly mail: MailService,
    private readonly failures: LoginFailuresService,
    private readonly realtime: RealtimeService,
    private readonly notifications: NotificationsService,
  ) {}

  /**
   * Mail leaves off the request path: the answer must not depend on whether (or how
   * quickly) a mail was sent, or timing tells who has an account. A failure is logged.
   */
  private background(what: string, work: () => Promise<unknown>) {
    void work().catch((e) => this.logger.error(`${what} failed: ${e?.message ?? e}`));
  }

  private findByEmail(email: string) {
    return this.users.createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).getOne();
  }

  // ---- registration and verification -------------------------------------------------

  /**
   * Answers the same for a new and an already registered e-mail (the caller says "check
   * your e-mail" either way), so sign-up cannot be used to learn who has an account. The
   * owner of an existing address gets a mail saying someone tried to register with it
   * (or a fresh verification link if they never verified). Usernames are public handles
   * and a taken one is still refused with 409.
   */
  async register(dto: RegisterDto): Promise<void> {
    await this.assertUnique(undefined, dto.username);
    // Hashed in both cases, so both take as long.
    const passwordHash = await hashPassword(dto.password);
    const existing = await this.findByEmail(dto.email);
    if (existing) return this.registerAttempt(existing);
    let user: User;
    try {
      user = await this.users.save(
        this.users.create({
          firstName: dto.firstName,
          lastName: dto.lastName,
          username: dto.username,
          email: dto.email,
          company: dto.company ?? null,
          phone: dto.phone ? toE164(dto.phone) : null,
          passwordHash,
        }),
      );
    } catch (e: any) {
      // Lost a race with another sign-up for the same address: treat it as existing.
      const owner = e?.code === '23505' && !String(e.constraint ?? e.detail ?? '').includes('username') ? await this.findByEmail(dto.email) : null;
      if (owner) return this.registerAttempt(owner);
      this.rethrowUnique(e);
    }
    this.background('Verification mail', () => this.sendVerification(user));
  }

  private registerAttempt(owner: User) {
    if (!owner.emailVerifiedAt) {
      this.background('Verification mail', () => this.sendVerification(owner));
      return;
    }
    this.background('Registration notice', () =>
      this.mail.send({
        to: owner.email,
        subject: 'Someone tried to register with your e-mail address',
        text:
          `Hello ${owner.firstName || owner.username},\n\nSomeone (perhaps you) tried to create a GangSheet Studio account with this e-mail address. ` +
          `You already have an account (username "${owner.username}").\n\nSign in: ${this.config.appUrl}/auth/signin\n` +
          `Forgot your password? ${this.config.appUrl}/auth/forgot-password\n\nIf it was not you, you can ignore this e-mail; nothing has changed.\n`,
        html:
          `<p>Hello ${escapeHtml(owner.firstName || owner.username)},</p><p>Someone (perhaps you) tried to create a GangSheet Studio account with this e-mail address. ` +
          `You already have an account (username <b>${escapeHtml(owner.username)}</b>).</p><p><a href="${this.config.appUrl}/auth/signin">Sign in</a> · ` +
          `<a href="${this.config.appUrl}/auth/forgot-password">Reset your password</a></p><p>If it was not you, you can ignore this e-mail; nothing has changed.</p>`,
      }),
    );
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

  /** Returns true when the link had been used already and the address is verified (a second click). */
  async verifyEmail(token: string): Promise<{ alreadyVerified: boolean }> {
    const row = await this.consumeToken(token, AuthTokenKind.Verify);
    if (row) {
      await this.users.update({ _id: row.userId }, { emailVerifiedAt: new Date() });
      return { alreadyVerified: false };
    }
    // Only whoever holds the (unguessable) link learns this, so it reveals nothing new.
    const used =
      token.length <= 100 &&
      (await this.db
        .getRepository(AuthToken)
        .createQueryBuilder('t')
        .innerJoin(User, 'u', 'u.id = t.user_id')
        .where('t.token_hash = :hash AND t.kind = :kind AND t.used_at IS NOT NULL AND u.email_verified_at IS NOT NULL', {
          hash: this.hmac(token),
          kind: AuthTokenKind.Verify,
        })
        .getExists());
    if (!used) throw new BadRequestException({ message: 'Email verification failed', code: 'invalid_token' });
    return { alreadyVerified: true };
  }

  // ---- login and sessions ------------------------------------------------------------

  /**
   * Wrong passwords are limited per (account, client IP): after RATE_LIMIT_PER_ACCOUNT
   * failures that pair gets 429 for the window, but only failures count and any other
   * client still signs in with the right password, so strangers cannot lock anyone out.
   */
  async login(identifier: string, password: string, ip: string | undefined): Promise<User> {
    const user = await this.users
      .createQueryBuilder('u')
      .addSelect('u.passwordHash')
      .where(identifier.includes('@') ? 'lower(u.email) = lower(:id)' : 'lower(u.username) = lower(:id)', { id: identifier })
      .getOne();
    // Keyed by the account, so e-mail and username share one budget.
    const account = user?._id ?? identifier;
    if (await this.failures.isLocked(account, ip)) throw new HttpException({ message: TOO_MANY, code: 'too_many_attempts' }, HttpStatus.TOO_MANY_REQUESTS);
    const ok = await checkPassword(password, user?.passwordHash ?? (await (dummyHash ??= hashPassword(randomBytes(16).toString('hex')))));
    if (!user || !ok) {
      await this.failures.recordFailure(account, ip);
      throw new UnauthorizedException({ message: 'Invalid email/username or password', code: 'invalid_credentials' });
    }
    await this.failures.clear(account, ip);
    if (user.status !== UserStatus.Active) {
      throw new ForbiddenException({ message: 'Your account is inactive. Please contact support.', code: 'account_inactive' });
    }
    if (!user.emailVerifiedAt) {
      this.background('Verification mail', () => this.sendVerification(user));
      throw new ForbiddenException({
        message: 'Please verify your email before logging in. We have sent you a new verification link.',
        code: 'email_not_verified',
      });
    }
    return user;
  }

  /** A new server-side session row, named in the signed cookie. */
  async issueSession(req: Request, res: Response, user: User) {
    const ttlMs = durationMs(this.config.auth.jwtExpiresIn);
    // The user's expired rows go here, so the table holds little more than live sessions.
    await this.sessions.delete({ userId: user._id, expiresAt: LessThan(new Date()) });
    const session = await this.sessions.save(this.sessions.create({ userId: user._id, expiresAt: new Date(Date.now() + ttlMs) }));
    const token = await this.jwt.signAsync({ sub: user._id, sv: user.sessionVersion, sid: session._id } satisfies SessionPayload, {
      expiresIn: this.config.auth.jwtExpiresIn as any,
    });
    res.cookie(SESSION_COOKIE, token, { ...this.cookieFlags(req), maxAge: ttlMs });
  }

  /** Logout: the session row goes, so this cookie no longer works anywhere, even if copied. */
  async endSession(req: Request, res: Response) {
    const token = req.cookies?.[SESSION_COOKIE];
    if (token) {
      const payload = await this.jwt.verifyAsync<SessionPayload>(token).catch(() => null);
      if (payload?.sid && UUID.test(payload.sid)) {
        await this.sessions.delete({ _id: payload.sid });
        this.realtime.disconnect(RealtimeService.sessionRoom(payload.sid));
      }
    }
    res.clearCookie(SESSION_COOKIE, this.cookieFlags(req));
  }

  /** Every session of the user (password reset, deactivation), sockets included. */
  async endAllSessions(userId: string) {
    await this.sessions.delete({ userId });
    this.realtime.disconnect(RealtimeService.room(userId));
  }

  cookieFlags(req: Request) {
    const secure = this.config.auth.cookieSecure === 'auto' ? req.secure : this.config.auth.cookieSecure;
    return { httpOnly: true, sameSite: 'lax' as const, secure, path: '/' };
  }

  async userForSession(payload: SessionPayload): Promise<User | null> {
    if (!payload?.sub || !UUID.test(payload.sub) || !payload.sid || !UUID.test(payload.sid)) return null;
    // One query: the user, only while the cookie's session row is live.
    const user = await this.users
      .createQueryBuilder('u')
      .innerJoin(Session, 's', 's.id = :sid AND s.user_id = u.id AND s.expires_at > now()', { sid: payload.sid })
      .where('u.id = :id', { id: payload.sub })
      .getOne();
    if (!user || user.status !== UserStatus.Active || user.sessionVersion !== payload.sv) return null;
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
    const user = await this.findByEmail(email);
    // The code is created and mailed after the answer: both cases cost one lookup.
    if (user && user.status === UserStatus.Active) this.background('Password reset mail', () => this.sendResetCode(user));
  }

  private async sendResetCode(user: User) {
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
    await this.endAllSessions(user._id);
    this.background('Password changed notice', () =>
      this.notice(user.email, 'Your password was changed', [
        'The password of your GangSheet Studio account was just changed and every signed-in device was signed out.',
        `If this was not you, reset it at once: ${this.config.appUrl}/auth/forgot-password`,
      ]),
    );
  }

  /** A short security notice (plain text and the same as HTML). */
  private notice(to: string, subject: string, paragraphs: string[]) {
    return this.mail.send({
      to,
      subject,
      text: paragraphs.join('\n\n') + '\n',
      html: paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join(''),
    });
  }

  /**
   * A sensitive change on a signed-in session (the e-mail) must prove the password too,
   * so a stolen cookie cannot take the account over. Wrong guesses count against the same
   * per-(account, IP) budget as the sign-in form.
   */
  private async assertCurrentPassword(user: User, password: string | undefined, ip: string | undefined) {
    if (!password) {
      throw new BadRequestException({ message: 'Enter your current password to change the e-mail', code: 'current_password_required' });
    }
    if (await this.failures.isLocked(user._id, ip)) throw new HttpException({ message: TOO_MANY, code: 'too_many_attempts' }, HttpStatus.TOO_MANY_REQUESTS);
    const row = await this.users.createQueryBuilder('u').addSelect('u.passwordHash').where('u.id = :id', { id: user._id }).getOneOrFail();
    if (!(await checkPassword(password, row.passwordHash))) {
      await this.failures.recordFailure(user._id, ip);
      throw new BadRequestException({ message: 'Current password is incorrect', code: 'wrong_password' });
    }
  }

  // ---- profile -----------------------------------------------------------------------

  async updateProfile(user: User, dto: UpdateProfileDto, ip?: string): Promise<User> {
    const emailChanged = dto.email.toLowerCase() !== user.email.toLowerCase();
    if (emailChanged) {
      await this.assertCurrentPassword(user, dto.currentPassword, ip);
      await this.assertUnique(dto.email, undefined, user._id);
    }
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
    if (emailChanged) {
      this.background('Verification mail', () => this.sendVerification(updated));
      // The old address hears of it, so an unnoticed change can still be challenged.
      this.background('E-mail changed notice', () =>
        this.notice(user.email, 'Your e-mail address was changed', [
          `The e-mail address of your GangSheet Studio account "${user.username}" was changed from ${user.email} to ${updated.email}.`,
          'If this was not you, someone who knows your password did it: contact the administrator of this site at once.',
        ]),
      );
      // notifications hook: e-mail changed
      await this.notifications.notify(user._id, { type: 'profile', message: `Your e-mail address was changed to ${updated.email}. Confirm it with the link we sent there.` });
    }
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
