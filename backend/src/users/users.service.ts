import { BadRequestException, ConflictException, Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import { hashPassword } from '../common/password';
import { likePattern, paginate } from '../common/pagination';
import { toE164 } from '../common/phone';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { CreditsService } from '../credits/credits.service';
import { NotificationsService } from '../notifications/notifications.service';
import { SessionService } from '../session/session.service';
import { CreateUserDto, UpdateUserDto, UserListQueryDto } from './dto/user.dto';
import { Role, User, UserStatus } from './entities/user.entity';

/** What sign-up stores (validated by auth's RegisterDto). */
export interface SignUpFields {
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  company?: string | null;
  phone?: string | null;
}

@Injectable()
export class UsersService {
  private readonly logger = new Logger('Users');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: SessionService,
    private readonly credits: CreditsService,
    private readonly notifications: NotificationsService,
  ) {}

  async list(q: UserListQueryDto) {
    const page = q.page ?? 1;
    const limit = q.limit ?? 10;
    const qb = this.users.createQueryBuilder('u');
    if (q.search) {
      qb.andWhere(
        `(u.first_name ILIKE :s OR u.last_name ILIKE :s OR u.username ILIKE :s OR u.email ILIKE :s OR (u.first_name || ' ' || u.last_name) ILIKE :s)`,
        { s: likePattern(q.search) },
      );
    }
    if (q.role) qb.andWhere('u.role = :role', { role: q.role });
    if (q.status) qb.andWhere('u.status = :status', { status: q.status });
    const dir = q.sort === 'asc' ? 'ASC' : 'DESC';
    qb.orderBy(`u.${q.sortBy ?? 'createdAt'}`, q.sortBy ? dir : 'DESC').addOrderBy('u._id', 'ASC');
    const [rows, total] = await qb.skip((page - 1) * limit).take(limit).getManyAndCount();
    return paginate(rows, total, limit);
  }

  /** 409 when the e-mail or username (case-insensitive) belongs to another account. */
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

  async get(id: string): Promise<User> {
    const user = await this.users.findOne({ where: { _id: id } });
    if (!user) throw new NotFoundException('User not found');
    return user;
  }

  /** Created by an admin: always role user, and the admin vouches for the address. */
  async create(dto: CreateUserDto): Promise<User> {
    await this.assertUnique(dto.email, dto.username);
    return this.users
      .save(
        this.users.create({
          firstName: dto.firstName,
          lastName: dto.lastName,
          username: dto.username,
          email: dto.email,
          company: dto.company ?? null,
          phone: toE164(dto.phone),
          passwordHash: await hashPassword(dto.password),
          role: Role.User,
          emailVerifiedAt: new Date(),
        }),
      )
      .catch((e) => this.rethrowUnique(e));
  }

  findByEmail(email: string): Promise<User | null> {
    return this.users.createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).getOne();
  }

  /**
   * Sign-up's write (its verification token and mails stay with auth). An address that is
   * already registered is not an error here: its owner comes back with `created: false`
   * (also when another sign-up for it won a race), so the caller can answer the same
   * either way. A taken username is 409.
   */
  async createSelfRegistered(fields: SignUpFields, passwordHash: string): Promise<{ user: User; created: boolean }> {
    const existing = await this.findByEmail(fields.email);
    if (existing) return { user: existing, created: false };
    try {
      const user = await this.users.save(
        this.users.create({
          firstName: fields.firstName,
          lastName: fields.lastName,
          username: fields.username,
          email: fields.email,
          company: fields.company ?? null,
          phone: fields.phone ? toE164(fields.phone) : null,
          passwordHash,
        }),
      );
      return { user, created: true };
    } catch (e: any) {
      // Lost a race with another sign-up for the same address: treat it as existing.
      const owner = e?.code === '23505' && !String(e.constraint ?? e.detail ?? '').includes('username') ? await this.findByEmail(fields.email) : null;
      if (owner) return { user: owner, created: false };
      this.rethrowUnique(e);
    }
  }

  async update(id: string, dto: UpdateUserDto, actor: User): Promise<User> {
    const user = await this.get(id);
    if (dto.role && dto.role !== Role.Admin && user._id === actor._id) {
      throw new BadRequestException('You cannot remove your own admin role');
    }
    if (dto.email && dto.email !== user.email) {
      // Their own address changes on the profile, which asks for the current password.
      if (user._id === actor._id) {
        throw new BadRequestException({ message: 'Change your own e-mail on the profile page', code: 'use_profile' });
      }
      await this.assertUnique(dto.email, undefined, id);
    }
    const patch: Partial<User> = {};
    if (dto.firstName !== undefined) patch.firstName = dto.firstName;
    if (dto.lastName !== undefined) patch.lastName = dto.lastName;
    if (dto.email !== undefined) patch.email = dto.email;
    if (dto.role !== undefined) patch.role = dto.role;
    if (Object.keys(patch).length) await this.users.update({ _id: id }, patch).catch((e) => this.rethrowUnique(e));
    return this.get(id);
  }

  async setStatus(id: string, status: UserStatus, actor: User): Promise<User> {
    const user = await this.get(id);
    if (user._id === actor._id && status === UserStatus.Inactive) throw new BadRequestException('You cannot deactivate your own account');
    // Deactivation also ends the user's sessions (checked on their next request) and revokes
    // their API keys: reactivating the account must not bring back keys issued before it.
    await this.users.manager.transaction(async (m) => {
      await m.update(User, { _id: id }, { status, ...(status === UserStatus.Inactive ? { sessionVersion: user.sessionVersion + 1 } : {}) });
      if (status === UserStatus.Inactive) await m.query(`UPDATE api_keys SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`, [id]);
    });
    if (status === UserStatus.Inactive) await this.sessions.endAllSessions(id);
    return this.get(id);
  }

  /** A correction of the balance. A raise is notified like a grant; the admin's reason stays in the audit. */
  async setCredit(id: string, availableCredits: number, why: string, actor: User): Promise<User> {
    const change = await this.credits.setAvailable(id, availableCredits, actor._id, why);
    // notifications hook: the balance an admin set, up or down (the seller's header follows the notification)
    if (change && change.availableDelta !== 0) {
      const d = change.availableDelta;
      const what = d > 0 ? `added ${d} credits to` : `removed ${-d} credits from`;
      await this.notifications.notify(id, { type: 'profile', message: `An administrator ${what} your account. Available now: ${change.availableAfter}.`, attachmentId: change._id });
    }
    return this.get(id);
  }

  async grantCredit(id: string, credits: number, why: string, actor: User): Promise<User> {
    const change = await this.credits.grant(id, credits, actor._id, why);
    // notifications hook: credits granted by an admin
    await this.notifications.notify(id, { type: 'profile', message: `An administrator added ${credits} credits to your account. Available now: ${change.availableAfter}.`, attachmentId: change._id });
    return this.get(id);
  }

  async creditHistory(id: string, page: number, limit: number) {
    await this.get(id);
    const { rows, total } = await this.credits.history(id, page, limit);
    return paginate(rows, total, limit);
  }

  async remove(id: string, actor: User): Promise<void> {
    const user = await this.get(id);
    if (user._id === actor._id) throw new BadRequestException('You cannot delete your own account');
    await this.users.delete({ _id: id });
  }

  /**
   * The first admin: ADMIN_EMAIL/ADMIN_PASSWORD when set (created once, promoted if it
   * exists). On the embedded default with neither set and no admin yet, admin@localhost
   * with a random password that is printed once.
   */
  async ensureFirstAdmin(): Promise<void> {
    const { email, password } = this.config.admin;
    if (email && password) {
      const existing = await this.users.createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).getOne();
      if (existing) {
        if (existing.role !== Role.Admin) await this.users.update({ _id: existing._id }, { role: Role.Admin });
        return;
      }
      await this.createAdmin(email, password);
      this.logger.log(`Created the admin account ${email} from ADMIN_EMAIL`);
      return;
    }
    if (this.config.database.url) return;
    if (await this.users.exists({ where: { role: Role.Admin } })) return;
    const generated = randomBytes(12).toString('base64url');
    await this.createAdmin('admin@localhost', generated);
    // Printed once, on purpose: there is no other way to learn it.
    console.log(
      `\n  First start: created the admin account\n    e-mail:   admin@localhost\n    password: ${generated}\n  Change it from the profile page after logging in.\n`,
    );
  }

  private async createAdmin(email: string, password: string) {
    const username = email.split('@')[0].replace(/[^a-zA-Z0-9._-]/g, '').slice(0, 40) || 'admin';
    const taken = await this.users.createQueryBuilder('u').where('lower(u.username) = lower(:username)', { username }).getExists();
    await this.users.save(
      this.users.create({
        // Both names meet the profile's rules, so the admin can save the profile as it is.
        firstName: 'Admin',
        lastName: 'Account',
        username: taken ? `${username}-${randomBytes(3).toString('hex')}` : username,
        email: email.toLowerCase(),
        passwordHash: await hashPassword(password),
        role: Role.Admin,
        emailVerifiedAt: new Date(),
      }),
    );
  }
}
