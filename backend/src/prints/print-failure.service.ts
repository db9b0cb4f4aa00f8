import { Injectable, Logger } from '@nestjs/common';
import { CreditsService } from '../credits/credits.service';
import { NotificationsService } from '../notifications/notifications.service';
import { RealtimeService } from '../realtime/realtime.service';
import { StorageService } from '../storage/storage.service';
import type { WebhookEventData } from '../webhooks/webhook-events';
import { WebhooksService } from '../webhooks/webhooks.service';
import { DesignDecodeError, DesignTooLargeError, UnsafePathError } from './engine.adapter';
import { PrintStatus } from './entities/print.entity';
import { PermanentPrintError, RENDER_FAILED } from './print-failure';
import { PrintJobRepository } from './print-job.repository';
import { endAttemptWithRefund, printFolder } from './print-lifecycle';
import { PrintMail } from './print-mail';
import { printName } from './prints.rules';
import { printRefs } from './print-refs';

/**
 * A print attempt that failed for good: the print becomes Error with a message the seller can
 * act on, the attempt's charge is refunded once, and the owner hears of it (socket, bell,
 * e-mail) and so does the integrator (`print.failed`). Called by the job (permanent errors),
 * the queue's final failure handler and the recovery sweep.
 */
@Injectable()
export class PrintFailureService {
  private readonly logger = new Logger('PrintJob');

  constructor(
    private readonly prints: PrintJobRepository,
    private readonly credits: CreditsService,
    private readonly storage: StorageService,
    private readonly realtime: RealtimeService,
    private readonly mail: PrintMail,
    private readonly notifications: NotificationsService,
    private readonly webhooks: WebhooksService,
  ) {}

  /**
   * The print's error text for a permanent failure. Engine errors name designs by their
   * print item id and quote libvips; the seller gets the design's name and the cause in
   * plain words, the log keeps the original.
   */
  async sellerText(printId: string, e: Error): Promise<string> {
    if (e instanceof PermanentPrintError) return e.message;
    this.logger.warn(`print ${printId}: ${e.name}: ${e.message}`);
    const rows = await this.prints.designNames(printId);
    const named = rows.find((r) => e.message.includes(r.id));
    if (e instanceof DesignTooLargeError && named) return e.message.replace(`"${named.id}"`, `"${named.name}"`);
    if (e instanceof DesignDecodeError && named) return /pixel limit/.test(e.message) ? RENDER_FAILED.overLimit(named.name) : RENDER_FAILED.unreadable(named.name);
    if (e instanceof DesignDecodeError) return RENDER_FAILED.unreadable(rows.length === 1 ? rows[0].name : undefined);
    if (e instanceof UnsafePathError) return RENDER_FAILED.misplaced;
    return RENDER_FAILED.internal;
  }

  /**
   * Failed for good: Error with the message, the charge of this attempt refunded (once). The
   * print.failed deliveries, the bell's notification and the e-mail are written with the
   * status (one key per attempt), and sent after the commit.
   */
  async fail(printId: string, attempt: number, message: string): Promise<void> {
    const text = message.slice(0, 480) || 'Processing failed';
    const ended = await this.prints.transaction(async (m) => {
      const e = await endAttemptWithRefund(m, this.credits, { printId, attempt, status: PrintStatus.Error, error: text, note: `Refund: processing failed (${text.slice(0, 200)})` });
      if (!e?.userId) return null;
      const refs = await printRefs(m, printId);
      // a test print was never charged: nothing to refund
      const data: WebhookEventData['print.failed'] = { printId, status: 'Error', error: text, creditsRefunded: !refs.test, ...refs };
      const deliveries = await this.webhooks.record(m, e.userId, 'print.failed', data);
      const key = `print.failed:${printId}:${attempt}`;
      const notification = await this.notifications.record(m, e.userId, { type: 'print', message: `${printName(printId)} could not be processed: ${text}`, attachmentId: printId, dedupeKey: key });
      const mail = await this.mail.failed(m, e.userId, printId, key, text);
      return { userId: e.userId, deliveries, notification, mail };
    });
    if (!ended) return;
    const { userId } = ended;
    await this.storage.deleteFolder(`${printFolder(userId, printId)}/${attempt}`).catch(() => undefined);
    this.logger.warn(`print ${printId} attempt ${attempt} failed: ${text}`);
    this.realtime.emit(userId, 'print', { printId, status: 'Error', message: text });
    await this.mail.dispatch(ended.mail);
    await this.notifications.announce(userId, ended.notification);
    await this.webhooks.dispatch(ended.deliveries);
  }
}
