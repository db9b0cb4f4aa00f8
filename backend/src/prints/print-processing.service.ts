import { BadRequestException, ConflictException, Inject, Injectable, Logger, ServiceUnavailableException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { returned } from '../common/sql';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { CreditsService } from '../credits/credits.service';
import { ImageStatus } from '../images/entities/image.entity';
import { CreditReason } from '../credits/entities/credit-transaction.entity';
import { OutboxService } from '../queue/outbox.service';
import { RealtimeService } from '../realtime/realtime.service';
import { SheetSettingsValues } from '../sheet-settings/entities/sheet-settings.entity';
import { SheetSettingsService } from '../sheet-settings/sheet-settings.service';
import { StorageService } from '../storage/storage.service';
import { User } from '../users/entities/user.entity';
import { ProcessPrintDto } from './dto/print.dto';
import { Print, PrintStatus } from './entities/print.entity';
import { BudgetItem, budgetProblem, estimateWork } from './print-budget';
import { PrintCancellations } from './print-cancellations';
import { chargeReference, endAttemptWithRefund, printJobId, processJob } from './print-lifecycle';
import { assertStatus, itemProblem, MSG, PROCESSABLE } from './prints.rules';
import { PrintsService } from './prints.service';
import { printRefs } from './print-refs';
import { WebhookEventData } from '../webhooks/webhook-events';
import { WebhooksService } from '../webhooks/webhooks.service';
import { testModeRefusal } from '../api-keys/test-mode.decorators';

/**
 * The most copies a test print may have. Test prints are free; their watermark makes the
 * sheets useless for production, and this keeps each one small, so a test key cannot turn
 * into free rendering capacity.
 */
export const TEST_PRINT_MAX_COPIES = 100;

/**
 * The charge/refund lifecycle seen from a request: start processing (charge + job, once) and
 * cancel (refund, back to In Draft). The job's own end (Completed, or Error with a refund)
 * is PrintJobService; the sweep that resumes or refunds stuck attempts is PrintRecoveryService.
 */
@Injectable()
export class PrintProcessingService {
  private readonly logger = new Logger('Prints');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: OutboxService,
    private readonly credits: CreditsService,
    private readonly sheetSettings: SheetSettingsService,
    private readonly storage: StorageService,
    private readonly realtime: RealtimeService,
    private readonly cancellations: PrintCancellations,
    private readonly prints: PrintsService,
    private readonly webhooks: WebhooksService,
  ) {}

  /**
   * Charges and starts processing, once: the status UPDATE is conditional and in the same
   * transaction as the charge, so concurrent requests serialise on the row and only the first
   * finds the print processable. The job id is derived from the attempt, so the enqueue is
   * idempotent as well. A test print (Print.test) costs nothing: no charge, no ledger row, so
   * it needs no credits; in test mode (`testMode`, a test key) only test prints are processed.
   */
  async startProcessing(user: User, printId: string, dto: ProcessPrintDto, testMode = false): Promise<Print> {
    // Everything that reads outside the transaction happens before it: a request holding a
    // pool connection (an open transaction) must never wait for a second one, or a burst of
    // requests larger than the pool deadlocks it (see docs/prints.md).
    const settings = await this.sheetSettings.resolve(user._id, dto.presetId, dto.settings);
    const free = await this.storage.freeBytes();
    const { attempt } = await this.db.transaction(async (m) => {
      const print = await this.prints.find(user._id, printId, m);
      if (testMode && !print.test) throw testModeRefusal('A test key can process test prints only: this print was made in live mode.');
      assertStatus(print.status, PROCESSABLE, MSG.notProcessable(print.status));
      const items = print.items ?? [];
      if (!items.length) throw new BadRequestException({ message: MSG.noItems, code: 'no_items' });
      const copies = items.reduce((a, i) => a + i.quantity, 0);
      if (print.test && copies > TEST_PRINT_MAX_COPIES)
        throw new BadRequestException({
          message: `A test print can have at most ${TEST_PRINT_MAX_COPIES} copies; this one has ${copies}.`,
          code: 'test_print_too_large',
        });
      // An image still being inspected does not stop processing; the
      // job waits for it (print-job waitForImages) and checks its fit then. A failed one does.
      // The budget counts it at its whole size from the upload header, as if its art filled it
      // (an overestimate), so nothing too large is charged before the inspection ends.
      const measured: BudgetItem[] = [];
      const pending: string[] = [];
      for (const it of items) {
        const problem = itemProblem(it, settings);
        const img = it.image;
        if (problem?.code === 'image_not_ready' && img!.status !== ImageStatus.Error) {
          // No pixel size yet (an image stored before uploads read it): nothing to check the
          // budget with, so it waits for its inspection rather than being charged blind.
          if (!img!.width || !img!.height) throw new BadRequestException({ message: MSG.imageProcessing(img!.name), code: 'image_not_ready' });
          measured.push({ trim: { width: img!.width, height: img!.height }, widthIn: it.size!.value, quantity: it.quantity });
          pending.push(img!.name);
          continue;
        }
        // The refusal's code for a design too large is design_too_large (the preview's warning says too_large).
        if (problem) throw new BadRequestException({ message: problem.message, code: problem.code === 'too_large' ? 'design_too_large' : problem.code });
        measured.push({ trim: img!.trim!, widthIn: it.size!.value, quantity: it.quantity });
      }
      this.checkBudget(measured, settings, free, [...new Set(pending)]);
      // --- end public API
      const cost = print.test ? 0 : copies;
      const rows = returned<{ attempt: number }>(
        await m.query(
          `UPDATE prints SET status = $3, attempt = attempt + 1, credit_cost = $4, settings = $5, error = NULL, resumes = 0,
             files = '[]', layout = NULL, files_deleted_at = NULL, printed_at = NULL, updated_at = now()
           WHERE id = $1 AND user_id = $2 AND status = ANY($6) RETURNING attempt`,
          [printId, user._id, PrintStatus.Processing, cost, JSON.stringify(settings), PROCESSABLE],
        ),
      );
      if (!rows.length) throw new ConflictException({ message: 'This print is already being processed.', code: 'invalid_status' });
      const attempt = rows[0].attempt;
      try {
        if (cost > 0)
          await this.credits.apply(
            {
              userId: user._id,
              reason: CreditReason.PrintCharge,
              availableDelta: -cost,
              usedDelta: cost,
              actorId: user._id,
              reference: chargeReference(printId, attempt),
              note: `Print ${printId}: ${cost} copies`,
            },
            m,
          );
      } catch (e: any) {
        if (e?.getResponse?.()?.code === 'insufficient_credits') {
          const fresh = await m.findOne(User, { where: { _id: user._id } });
          throw new BadRequestException({ message: MSG.credits(cost, fresh?.availableCredits ?? 0), code: 'insufficient_credits' });
        }
        throw e;
      }
      // The job is part of the charge: if this process dies before the enqueue below, the
      // recovery sweep finds the row and enqueues it (see docs/prints.md).
      await this.outbox.write(m, processJob(printId, attempt, this.config.prints.jobAttempts, user._id));
      return { attempt };
    });
    const jobId = printJobId(printId, attempt);
    try {
      await this.outbox.dispatch(jobId);
    } catch (e) {
      this.logger.error(`enqueue of print ${printId} failed: ${e}`);
      await this.refundUnstarted(user._id, printId, attempt);
      await this.outbox.discard(jobId);
      throw new ServiceUnavailableException('Processing is not available right now; your credits were not charged. Please try again.');
    }
    return this.prints.find(user._id, printId);
  }

  /**
   * Bounded work, before anything is charged: the print's pixels (a lower bound from its items,
   * an estimate while some images are still being inspected: `pending`) within
   * PRINT_MAX_PIXELS, and room for its temporary rasters and files on DATA_DIR.
   */
  private checkBudget(items: BudgetItem[], settings: SheetSettingsValues, free: number, pending: string[]) {
    const work = estimateWork(items, settings);
    const tooLarge = budgetProblem(work, this.config.prints.maxPixels, pending);
    if (tooLarge) throw new BadRequestException({ message: tooLarge, code: 'print_too_large' });
    if (free < this.config.prints.minFreeBytes + work.bytes) {
      this.logger.error(`not enough disk space for print: ${free} bytes free, ${work.bytes} needed + ${this.config.prints.minFreeBytes} reserve`);
      throw new ServiceUnavailableException({ message: 'The server is short of disk space; this print cannot be processed right now. Nothing was charged.', code: 'insufficient_storage' });
    }
  }

  private async refundUnstarted(userId: string, printId: string, attempt: number) {
    await this.db.transaction((m) =>
      endAttemptWithRefund(m, this.credits, { printId, attempt, userId, status: PrintStatus.Error, error: 'Processing could not be started', note: 'Refund: not started' }),
    );
  }

  /**
   * Stops a Processing print: back to In Draft, the charge refunded. A job that has not
   * started skips it; a running one is aborted (see PrintCancellations) and discards its files. The spec's Cancelled status is not
   * used: it allows nothing (no edit, process or delete), while a seller who stops a print
   * wants to fix it and process it again, which is what In Draft allows.
   */
  async cancel(userId: string, printId: string): Promise<Print> {
    const print = await this.prints.find(userId, printId);
    const ended = await this.db.transaction(async (m) => {
      const e = await endAttemptWithRefund(m, this.credits, { printId, userId, status: PrintStatus.InDraft, error: null, note: 'Refund: processing cancelled' });
      if (!e) return null;
      const refs = await printRefs(m, printId);
      // a test print was never charged: nothing to refund
      const data: WebhookEventData['print.cancelled'] = { printId, status: 'In Draft', creditsRefunded: !refs.test, ...refs };
      return { ...e, deliveries: await this.webhooks.record(m, userId, 'print.cancelled', data) };
    });
    if (!ended) throw new ConflictException({ message: MSG.notCancellable(print.status), code: 'invalid_status' });
    // Files are not touched here: a running render is stopped (at once in this process, within
    // PRINT_CANCEL_POLL_MS in a worker) and removes its own run folder; nothing else was written.
    this.cancellations.abort(printId, ended.attempt);
    this.realtime.emit(userId, 'print', { printId, status: 'In Draft' });
    await this.webhooks.dispatch(ended.deliveries);
    return this.prints.find(userId, printId);
  }
}
