import { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** A real SMTP server (smtp-server) that keeps every message it receives. */
export class MailCatcher {
  readonly messages: CapturedMail[] = [];
  private server: SMTPServer;
  private waiters: Array<() => void> = [];
  port = 0;

  static readonly USER = 'mailer';
  static readonly PASS = 'mailer-secret';

  async start(): Promise<this> {
    this.server = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      allowInsecureAuth: true,
      logger: false,
      onAuth: (auth, _session, cb) =>
        auth.username === MailCatcher.USER && auth.password === MailCatcher.PASS
          ? cb(null, { user: auth.username })
          : cb(new Error('Invalid username or password')),
      onData: (stream, session, cb) => {
        simpleParser(stream)
          .then((parsed) => {
            this.messages.push({
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
            });
            this.waiters.splice(0).forEach((w) => w());
            cb();
          })
          .catch(cb);
      },
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `smtp://${MailCatcher.USER}:${MailCatcher.PASS}@127.0.0.1:${this.port}`;
  }

  /**
   * The newest message to `to` whose subject matches, waiting for it to arrive. `after`
   * (a messages.length taken earlier) skips older ones: mail is sent after the API answers.
   */
  async waitFor(to: string, subject: RegExp, timeoutMs = 10_000, after = 0): Promise<CapturedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(after).reverse().find((m) => m.to.includes(to) && subject.test(m.subject));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  private stopped?: Promise<void>;

  /** Idempotent: a test may take the mail server down early (the app's close stops it again). */
  stop() {
    return (this.stopped ??= new Promise<void>((resolve) => this.server.close(() => resolve())));
  }
}

export function verifyTokenFrom(mail: CapturedMail): string {
  const m = mail.text.match(/\/verify\?token=([A-Za-z0-9_-]+)/);
  if (!m) throw new Error('no verification link in mail');
  return m[1];
}

export function resetCodeFrom(mail: CapturedMail): string {
  const m = mail.text.match(/reset code is:\s+([0-9A-Z]{10})/);
  if (!m) throw new Error('no reset code in mail');
  return m[1];
}
