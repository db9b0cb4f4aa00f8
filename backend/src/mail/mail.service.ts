import { Inject, Injectable, Logger } from '@nestjs/common';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport, Transporter } from 'nodemailer';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export { mailTemplates } from './mail-templates';
export type { MailContent } from './mail-templates';

/** SMTP when SMTP_URL is set; otherwise each message is written to DATA_DIR/outbox as an .eml file. */
@Injectable()
export class MailService {
  private readonly logger = new Logger('Mail');
  private readonly transport: Transporter;
  private readonly toOutbox: boolean;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.toOutbox = !config.mail.smtpUrl;
    this.transport = this.toOutbox
      ? createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
      : createTransport(config.mail.smtpUrl);
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
}
