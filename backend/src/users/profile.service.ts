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
  company?: string | null;
  phone?: string | null;
}

/**
 * The signed-in user's own profile. A new e-mail address is not saved with the other
 * fields: auth proves the current password and mails a link to the new address, and the
 * address changes (applyEmail) when that link is opened.
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

  /** Saves the profile's fields other than the e-mail. */
  async update(user: User, fields: ProfileFields): Promise<User> {
    await this.users.update(
      { _id: user._id },
      {
        firstName: fields.firstName,
        lastName: fields.lastName,
        company: fields.company ?? null,
        phone: fields.phone ? toE164(fields.phone) : null,
      },
    );
    return this.users.findOneByOrFail({ _id: user._id });
  }

  /** Tells the user's bell that a link went to `email`: the same whether or not the address is free. */
  async emailChangeRequested(userId: string, email: string) {
    // notifications hook: e-mail change requested
    await this.notifications.notify(userId, { type: 'profile', message: `We sent a link to ${email}. Your e-mail address changes to it when you open the link.` });
  }

  /**
   * The link mailed to the new address was opened: that proves the address, so it is saved
   * verified. 409 email_taken when another account took it meanwhile (only the holder of
   * the link, who owns that address, learns this).
   */
  async applyEmail(userId: string, email: string): Promise<User> {
    await this.accounts.assertUnique(email, undefined, userId);
    await this.users.update({ _id: userId }, { email, emailVerifiedAt: new Date() }).catch((e) => this.accounts.rethrowUnique(e));
    // notifications hook: e-mail changed
    await this.notifications.notify(userId, { type: 'profile', message: `Your e-mail address was changed to ${email}.` });
    return this.users.findOneByOrFail({ _id: userId });
  }
}
