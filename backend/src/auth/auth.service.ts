import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  UnauthorizedException,
} from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { createHmac, randomBytes } from 'node:crypto';
import { DataSource, IsNull, Repository } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { returned } from '../common/sql';
import { mailTemplates, MailService } from '../mail/mail.service';
import { SessionService } from '../session/session.service';
import { UsersService } from '../users/users.service';
import { User, UserStatus } from '../users/entities/user.entity';
import { RegisterDto, ResetPasswordDto, UpdateProfileDto } from './dto/auth.dto';
import { AuthToken, AuthTokenKind } from './entities/auth-token.entity';
import { LoginFailuresService } from './login-failures.service';
import { checkPassword, hashPassword } from '../common/password';
import { ProfileService } from '../users/profile.service';

const TOO_MANY = 'Too many attempts. Please try again later.';
/** Links to a new e-mail address a user may ask for in an hour. */
const EMAIL_CHANGES_PER_HOUR = 5;

// Compared against when the account does not exist, so both paths take as long.
let dummyHash: Promise<string> | undefined;

@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectDataSource() private readonly db: DataSource,
    private readonly mail: MailService,
    private readonly failures: LoginFailuresService,
    private readonly sessions: SessionService,
    private readonly accounts: UsersService,
    private readonly profiles: ProfileService,
  ) {}

  /**
   * Mail leaves off the request path: the answer must not depend on whether (or how
   * quickly) a mail was sent, or timing tells who has an account. A failure is logged.
   */
  private background(what: string, work: () => Promise<unknown>) {
    void work().catch((e) => this.logger.error(`${what} failed: ${e?.message ?? e}`));
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
    await this.accounts.assertUnique(undefined, dto.username);
    // Hashed in both cases, so both take as long.
    const passwordHash = await hashPassword(dto.password);
    const { user, created } = await this.accounts.createSelfRegistered(dto, passwordHash);
    if (!created) return this.registerAttempt(user);
    this.background('Verification mail', () => this.sendVerification(user));
  }

  private registerAttempt(owner: User) {
    if (!owner.emailVerifiedAt) {
      this.background('Verification mail', () => this.sendVerification(owner));
      return;
    }
    this.background('Registration notice', () =>
      this.mail.send({ to: owner.email, ...mailTemplates.registrationAttempt(owner, this.config.appUrl) }),
    );
  }

  /** Mails a verification link to `user.email` (a new one, or `token` when given). */
  async sendVerification(user: User, token?: string) {
    token ??= await this.createToken(user._id, AuthTokenKind.Verify, this.config.auth.verifyTokenTtlMs);
    const link = `${this.config.appUrl}/verify?token=${token}`;
    if (!this.config.mail.smtpUrl) this.logger.log(`Verification link for ${user.email}: ${link}`);
    await this.mail.send({ to: user.email, ...mailTemplates.verification(user, link, this.config.auth.verifyTokenTtlMs) });
  }

  /** Returns true when the link had been used already and the address is verified (a second click). */
  async verifyEmail(token: string): Promise<{ alreadyVerified: boolean; emailChanged: boolean }> {
    const row = await this.consumeToken(token, [AuthTokenKind.Verify, AuthTokenKind.EmailChange]);
    if (row?.kind === AuthTokenKind.EmailChange) {
      await this.applyEmailChange(row.userId, row.email!);
      return { alreadyVerified: false, emailChanged: true };
    }
    if (row) {
      await this.users.update({ _id: row.userId }, { emailVerifiedAt: new Date() });
      return { alreadyVerified: false, emailChanged: false };
    }
    // Only whoever holds the (unguessable) link learns this, so it reveals nothing new.
    const used =
      token.length <= 100 &&
      (await this.db
        .getRepository(AuthToken)
        .createQueryBuilder('t')
        .innerJoin(User, 'u', 'u.id = t.user_id')
        .where('t.token_hash = :hash AND t.kind IN (:...kinds) AND t.used_at IS NOT NULL AND u.email_verified_at IS NOT NULL', {
          hash: this.hmac(token),
          kinds: [AuthTokenKind.Verify, AuthTokenKind.EmailChange],
        })
        .getExists());
    if (!used) throw new BadRequestException({ message: 'Email verification failed', code: 'invalid_token' });
    return { alreadyVerified: true, emailChanged: false };
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

  // ---- password reset ----------------------------------------------------------------

  /** Always answers the same way, so the form cannot be used to learn who has an account. */
  async forgotPassword(email: string): Promise<void> {
    const user = await this.accounts.findByEmail(email);
    // The code is created and mailed after the answer: both cases cost one lookup.
    if (user && user.status === UserStatus.Active) this.background('Password reset mail', () => this.sendResetCode(user));
  }

  private async sendResetCode(user: User) {
    const code = await this.createToken(user._id, AuthTokenKind.Reset, this.config.auth.resetTokenTtlMs, 'code');
    const link = `${this.config.appUrl}/auth/forgot-password?email=${encodeURIComponent(user.email)}&token=${code}`;
    if (!this.config.mail.smtpUrl) this.logger.log(`Password reset code for ${user.email}: ${code}`);
    await this.mail.send({ to: user.email, ...mailTemplates.resetCode(code, link, this.config.auth.resetTokenTtlMs) });
  }

  async resetPassword(dto: ResetPasswordDto): Promise<void> {
    if (dto.confirmPassword !== undefined && dto.confirmPassword !== dto.password) {
      throw new BadRequestException('Passwords do not match');
    }
    const user = await this.users.createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email: dto.email }).getOne();
    const row = user ? await this.consumeToken(dto.resetToken.toUpperCase(), AuthTokenKind.Reset, user._id) : null;
    if (!user || !row) throw new BadRequestException({ message: 'Invalid or expired reset token', code: 'invalid_token' });
    // The other codes mailed meanwhile (by the owner or by anyone typing their address) are done with.
    await this.db.getRepository(AuthToken).update({ userId: user._id, kind: AuthTokenKind.Reset, usedAt: IsNull() }, { usedAt: new Date() });
    // A new password ends every existing session.
    await this.users.update(
      { _id: user._id },
      { passwordHash: await hashPassword(dto.password), sessionVersion: () => 'session_version + 1' } as any,
    );
    await this.sessions.endAllSessions(user._id);
    this.background('Password changed notice', () =>
      this.notice(user.email, 'Your password was changed', [
        'The password of your GangSheet Studio account was just changed and every signed-in device was signed out.',
        `If this was not you, reset it at once: ${this.config.appUrl}/auth/forgot-password`,
      ]),
    );
  }

  /** A short security notice (plain text and the same as HTML). */
  private notice(to: string, subject: string, paragraphs: string[]) {
    return this.mail.send({ to, ...mailTemplates.notice(subject, paragraphs) });
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

  /**
   * Saves the profile. A new e-mail address waits for the link mailed to it (verifyEmail
   * applies it); the answer is the same whether or not the address already has an account,
   * so the profile cannot be used to learn who has one. The owner of a taken address gets a
   * notice instead of a link. Changing the address needs the current password.
   */
  async updateProfile(user: User, dto: UpdateProfileDto, ip?: string): Promise<{ user: User; pendingEmail: string | null }> {
    const emailChanged = this.profiles.emailChanges(user, dto.email);
    if (emailChanged) {
      await this.assertCurrentPassword(user, dto.currentPassword, ip);
      await this.assertEmailChangeBudget(user);
    }
    const updated = await this.profiles.update(user, dto);
    if (!emailChanged) return { user: updated, pendingEmail: null };
    const email = dto.email;
    // Created either way (the same work and the same budget); mailed only to a free address.
    const token = await this.createToken(user._id, AuthTokenKind.EmailChange, this.config.auth.verifyTokenTtlMs, 'link', email);
    const owner = await this.accounts.findByEmail(email);
    if (!owner) {
      this.background('E-mail change link', () => this.sendVerification({ ...updated, email }, token));
    } else {
      this.background('E-mail change notice', () =>
        this.notice(email, 'Someone asked to use your e-mail address', [
          'Someone signed in to another GangSheet Studio account asked to change its e-mail address to this one.',
          'This address already belongs to your account, so nothing was changed and you need not do anything.',
        ]),
      );
    }
    await this.profiles.emailChangeRequested(user._id, email);
    return { user: updated, pendingEmail: email };
  }

  /** At most EMAIL_CHANGES_PER_HOUR links (each one a mail to an address the user typed). */
  private async assertEmailChangeBudget(user: User) {
    const recent = await this.db
      .getRepository(AuthToken)
      .createQueryBuilder('t')
      .where(`t.userId = :id AND t.kind = :kind AND t.createdAt > now() - interval '1 hour'`, { id: user._id, kind: AuthTokenKind.EmailChange })
      .getCount();
    if (recent >= EMAIL_CHANGES_PER_HOUR) throw new HttpException({ message: TOO_MANY, code: 'too_many_attempts' }, HttpStatus.TOO_MANY_REQUESTS);
  }

  /** The link to a new address was opened: the address replaces the account's, and the old one is told. */
  private async applyEmailChange(userId: string, email: string) {
    const before = await this.users.findOneByOrFail({ _id: userId });
    const updated = await this.profiles.applyEmail(userId, email);
    // Any other pending change is void: the address just confirmed is the account's now.
    await this.db.getRepository(AuthToken).update({ userId, kind: AuthTokenKind.EmailChange, usedAt: IsNull() }, { usedAt: new Date() });
    // The old address hears of it, so an unnoticed change can still be challenged.
    this.background('E-mail changed notice', () =>
      this.notice(before.email, 'Your e-mail address was changed', [
        `The e-mail address of your GangSheet Studio account "${updated.username}" was changed from ${before.email} to ${updated.email}.`,
        'If this was not you, someone who knows your password did it: contact the administrator of this site at once.',
      ]),
    );
  }

  // ---- tokens ------------------------------------------------------------------------

  private hmac(token: string) {
    return createHmac('sha256', this.config.auth.jwtSecret).update(token).digest('hex');
  }

  private async createToken(userId: string, kind: AuthTokenKind, ttlMs: number, style: 'link' | 'code' = 'link', email: string | null = null) {
    // A reset code is typed by hand: 10 characters of Crockford base32 (50 bits) is plenty
    // with rate-limited guesses and a 30-minute life, even with several codes live at once.
    const token =
      style === 'code'
        ? [...randomBytes(10)].map((b) => '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[b & 31]).join('')
        : randomBytes(32).toString('base64url');
    // A new token leaves the earlier ones valid: anyone may ask for a reset code, and a code
    // that cancelled the last one let a stranger void the owner's code before they typed it.
    // Each is single use; a successful reset ends the others.
    await this.db.getRepository(AuthToken).insert({ userId, kind, email, tokenHash: this.hmac(token), expiresAt: new Date(Date.now() + ttlMs) });
    return token;
  }

  /** Marks the token used in the same statement that checks it, so it works exactly once. */
  private async consumeToken(token: string, kind: AuthTokenKind | AuthTokenKind[], userId?: string): Promise<AuthToken | null> {
    if (!token || token.length > 100) return null;
    const kinds = ([] as AuthTokenKind[]).concat(kind);
    const result = await this.db.query(
      `UPDATE auth_tokens SET used_at = now()
       WHERE token_hash = $1 AND ($2::uuid IS NULL OR user_id = $2) AND used_at IS NULL AND expires_at > now()
         AND kind IN (${kinds.map((_, i) => `$${i + 3}`).join(', ')})
       RETURNING id, user_id, kind, email`,
      [this.hmac(token), userId ?? null, ...kinds],
    );
    const rows = returned<{ id: string; user_id: string; kind: AuthTokenKind; email: string | null }>(result);
    return rows[0] ? ({ _id: rows[0].id, userId: rows[0].user_id, kind: rows[0].kind, email: rows[0].email } as AuthToken) : null;
  }
}
