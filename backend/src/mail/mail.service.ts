import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport, Transporter } from 'nodemailer';
import { EntityManager } from 'typeorm';
import { savepointed } from '../common/sql';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { JobName } from '../queue/jobs';
import { OutboxService } from '../queue/outbox.service';
import { JOB_RUNNER } from '../queue/queue.tokens';
import { JobRunner } from '../queue/queue.types';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export { mailTemplates } from './mail-templates';
export type { MailContent } from './mail-templates';

/**
 * A queued mail is tried this many times, `QUEUED_MAIL_BACKOFF_MS` doubling between tries
 * (30 s, 1, 2, 4 min): an SMTP server that is down for a few minutes delays the mail
 * instead of losing it.
 */
export const QUEUED_MAIL_ATTEMPTS = 5;
export const QUEUED_MAIL_BACKOFF_MS = 30_000;

/**
 * SMTP when SMTP_URL is set; otherwise each message is written to DATA_DIR/outbox as an .eml file.
 *
 * `send` delivers now (the request waits: sign-up and reset codes, where the user is waiting
 * for the mail and an error must reach them). `queue` writes a mail into the job outbox in the
 * caller's transaction, so it commits with the change it reports (a print Completed or
 * failed) and is sent by a `send-mail` job, with retries; `dispatch` enqueues it after the
 * commit, and the recovery sweep enqueues what a dying process left behind.
 */
@Injectable()
export class MailService implements OnModuleInit {
  private readonly logger = new Logger('Mail');
  private readonly transport: Transporter;
  private readonly toOutbox: boolean;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_RUNNER) private readonly jobs: JobRunner,
    private readonly outbox: OutboxService,
  ) {
    this.toOutbox = !config.mail.smtpUrl;
    this.transport = this.toOutbox
      ? createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
      : createTransport(config.mail.smtpUrl);
  }

  onModuleInit() {
    this.jobs.process(JobName.SendMail, (job) => this.send(job.data), {
      concurrency: 2,
      onFailed: async (job, e) => this.logger.error(`"${job.data.subject}" to ${job.data.to} not sent after ${job.attemptsMade} attempt(s): ${e.message}`),
    });
  }

  async send(mail: Mail): Promise<void> {
    const info = await this.transport.sendMail({ from: this.config.mail.from, ...mail });
    if (this.toOutbox) {
      await mkdir(this.config.outboxDir, { recursive: true });
      const safeTo = mail.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      const file = join(this.config.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeTo}.eml`);
      await writeFile(file, (info as unknown as { message: Buffer }).message);
      this.logger.log(`"${mail.subject}" to ${mail.to} written to ${file}`);
    } else {
      this.logger.log(`"${mail.subject}" sent to ${mail.to}`);
    }
  }

  /**
   * Writes the mail with the caller's transaction (`key` makes it once per key, e.g.
   * `print.completed:{printId}:{attempt}`). Returns the job id for `dispatch`, or null when
   * the write failed: that is logged and rolled back to a savepoint, never failing the
   * caller's change.
   */
  async queue(m: EntityManager, key: string, mail: Mail): Promise<string | null> {
    const jobId = `mail:${key}`;
    const written = await savepointed(
      m,
      'queued_mail',
      async () => {
        await this.outbox.write(m, { name: JobName.SendMail, data: mail, jobId, attempts: QUEUED_MAIL_ATTEMPTS, backoffMs: QUEUED_MAIL_BACKOFF_MS });
        return true;
      },
      (e) => this.logger.warn(`"${mail.subject}" to ${mail.to} not queued: ${e}`),
    );
    return written ? jobId : null;
  }

  /** Enqueues a mail `queue` wrote, once committed; when the queue refuses, the recovery sweep retries. */
  async dispatch(jobId: string | null): Promise<void> {
    if (!jobId) return;
    await this.outbox.dispatch(jobId).catch((e) => this.logger.warn(`mail ${jobId} left for the recovery sweep: ${e}`));
  }
}
