import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { MailContent, MailService, mailTemplates } from '../mail/mail.service';
import { User } from '../users/entities/user.entity';
import { printName } from './prints.rules';

/**
 * The owner's e-mails about a print's outcome ("ready", "could not be processed"). Each is
 * written in the transaction of the status change it reports, under that change's key (see
 * `MailService.queue`: a crash after the commit cannot lose it, a second run cannot repeat it);
 * the returned job id is dispatched after the commit.
 */
@Injectable()
export class PrintMail {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly mail: MailService,
  ) {}

  ready(m: EntityManager, userId: string, printId: string, key: string): Promise<string | null> {
    return this.queue(m, userId, key, (u) => mailTemplates.printReady(u, printName(printId), this.printLink(printId), this.config.prints.retentionDays));
  }

  failed(m: EntityManager, userId: string, printId: string, key: string, error: string): Promise<string | null> {
    return this.queue(m, userId, key, (u) => mailTemplates.printFailed(u, printName(printId), error, this.printLink(printId)));
  }

  /** Sends a queued mail now (after the commit); the recovery sweep sends one this misses. */
  dispatch(jobId: string | null): Promise<void> {
    return this.mail.dispatch(jobId);
  }

  private printLink(printId: string) {
    return `${this.config.appUrl}/prints/${printId}`;
  }

  private async queue(m: EntityManager, userId: string, key: string, content: (user: User) => MailContent): Promise<string | null> {
    const user = await m.getRepository(User).findOne({ where: { _id: userId } });
    return user ? this.mail.queue(m, key, { to: user.email, ...content(user) }) : null;
  }
}
