import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { toE164 } from '../common/phone';
import { NotificationsService } from '../notifications/notifications.service';
import { User } from './entities/user.entity';
import { UsersService } from './users.service';

/** The fields a signed-in user edits on their own profile (validated by the caller's DTO). */
export interface ProfileFields {
  firstName: string;
  lastName: string;
  email: string;
  company?: string | null;
  phone?: string | null;
}

/**
 * The signed-in user's own profile: the write and its uniqueness rule. Proving the
 * current password and mailing the new and old addresses stay with auth, which calls this.
 */
@Injectable()
export class ProfileService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly accounts: UsersService,
    private readonly notifications: NotificationsService,
  ) {}

  emailChanges(user: User, email: string): boolean {
    return email.toLowerCase() !== user.email.toLowerCase();
  }

  /**
   * Saves the profile. When the e-mail changes the new address is marked unverified;
   * `onEmailChanged` runs with the saved user (auth sends the link and the notice) before
   * the bell is told.
   */
  async update(user: User, fields: ProfileFields, onEmailChanged?: (updated: User) => void): Promise<User> {
    const emailChanged = this.emailChanges(user, fields.email);
    if (emailChanged) await this.accounts.assertUnique(fields.email, undefined, user._id);
    await this.users
      .update(
        { _id: user._id },
        {
          firstName: fields.firstName,
          lastName: fields.lastName,
          email: fields.email,
          company: fields.company ?? null,
          phone: fields.phone ? toE164(fields.phone) : null,
          // A new address must be confirmed before it can be used to sign in.
          ...(emailChanged ? { emailVerifiedAt: null } : {}),
        },
      )
      .catch((e) => this.accounts.rethrowUnique(e));
    const updated = await this.users.findOneByOrFail({ _id: user._id });
    if (emailChanged) {
      onEmailChanged?.(updated);
      // notifications hook: e-mail changed
      await this.notifications.notify(user._id, { type: 'profile', message: `Your e-mail address was changed to ${updated.email}. Confirm it with the link we sent there.` });
    }
    return updated;
  }
}
