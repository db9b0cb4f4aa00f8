import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { CreditsService } from '../credits/credits.service';
import { ImagesService } from '../images/images.service';
import { MailContent, MailService, mailTemplates } from '../mail/mail.service';
import { NotificationsService } from '../notifications/notifications.service';
import { JobContext } from '../queue/queue.types';
import { LivePrintStage } from '../realtime/events';
import { RealtimeService } from '../realtime/realtime.service';
import { StorageService } from '../storage/storage.service';
import { User } from '../users/entities/user.entity';
import { DesignDecodeError, DesignTooLargeError, EngineDesign, isPermanentEngineError, PRINT_ENGINE, PrintEngine, UnsafePathError } from './engine.adapter';
import { isAbortError } from '../cpu/cpu-pool';
import { PrintItem } from './entities/print-item.entity';
import { Print, PrintSheetFile, PrintStatus } from './entities/print.entity';
import { normalizeFormats } from '../sheet-settings/entities/sheet-settings.entity';
import { toFileDtos } from './print.mapper';
import { returned } from '../common/sql';
import { endAttemptWithRefund, printFolder, ProcessJobData } from './print-lifecycle';
import { engineDesign, withMasks } from './print-designs';
import { MSG, printName } from './prints.rules';
import { StoredLayout, storedLayout } from './stored-layout';
import { PrintCancellations, PrintCancelled } from './print-cancellations';
import { gigapixels, layoutBudget, OUTPUT_BYTES_PER_PIXEL } from './print-budget';
import type { WebhookEventData } from '../webhooks/webhook-events';
import { WebhooksService } from '../webhooks/webhooks.service';
import { ImageStatus } from '../images/entities/image.entity';
import { SheetSettingsValues } from '../sheet-settings/entities/sheet-settings.entity';
import { fitProblem } from './design-fit';

/** Each run renders into `<attempt folder>/.run-<uuid>/` (temporary rasters in its `.tmp/`). */
export const RUN_PREFIX = '.run-';

/**
 * The layout search reports nothing until it is done, and a true-shape print's search may use
 * its whole budget (tens of seconds): the job's percent moves with the time spent against
 * that budget, within the layout's share (rendering starts at `to`), so the seller sees the
 * job working rather than a bar stuck at its start.
 */
export const LAYOUT_PERCENT = { from: 5, to: 10 } as const;
const LAYOUT_TICK_MS = 500;
export function layoutPercent(elapsedMs: number, budgetMs: number): number {
  const share = LAYOUT_PERCENT.to - LAYOUT_PERCENT.from;
  return LAYOUT_PERCENT.from + Math.min(share - 1, Math.floor((share * Math.max(0, elapsedMs)) / Math.max(1, budgetMs)));
}

/** A failure that retrying cannot fix; the print fails at once instead of after every attempt. */
export class PermanentPrintError extends Error {}

/** A failure that is retried, whose message is written for the seller (the internals are logged). */
export class TransientPrintError extends Error {}

/** What a seller reads when the engine fails: never ids, stacks or Node's own messages. */
export const RENDER_FAILED = {
  internal: 'The sheet could not be rendered (an error on our side). Your credits were refunded; please process the print again.',
  disk: 'The sheet could not be rendered (the server ran short of disk space). Your credits were refunded; please process the print again later.',
  interrupted: 'The sheet could not be rendered (processing was interrupted). Your credits were refunded; please process the print again.',
  unreadable: (name?: string) => `The sheet could not be rendered: ${name ? `the file of design "${name}"` : 'a design file'} could not be read. Please replace the design.`,
  overLimit: (name: string) => `The sheet could not be rendered: design "${name}" has more pixels than allowed. Please upload a smaller file.`,
  misplaced: 'The sheet could not be rendered: a design file could not be found. Please upload the design again.',
};

/**
 * The seller-facing text of a job failure that reached the queue's final failure handler:
 * the job's own errors are already worded for the seller; anything else (the queue's
 * "job stalled more than allowable limit" after its worker died twice, a database error
 * before the run started) gets the generic text.
 */
export function failureText(e: unknown): string {
  if (e instanceof TransientPrintError || e instanceof PermanentPrintError) return e.message;
  return RENDER_FAILED.interrupted;
}

export type StageTimings = { trim: number; layout: number; render: number; store: number };

export interface ProcessOutcome {
  outcome: 'completed' | 'skipped' | 'failed';
  reason?: string;
  sheets?: number;
  copies?: number;
  timingsMs?: StageTimings;
}

/**
 * The processing job: trim → layout → render → store, then Completed. Safe to run twice for
 * the same attempt (Bull's stalled-job recovery): it only starts while the print is Processing
 * at that attempt, renders into a private folder, and finalises under a row lock, so exactly
 * one run completes the print; the charge was made once when processing started.
 */
@Injectable()
export class PrintJobService {
  private readonly logger = new Logger('PrintJob');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PRINT_ENGINE) private readonly engine: PrintEngine,
    private readonly credits: CreditsService,
    private readonly storage: StorageService,
    private readonly realtime: RealtimeService,
    private readonly mail: MailService,
    private readonly cancellations: PrintCancellations,
    private readonly images: ImagesService,
    private readonly notifications: NotificationsService,
    private readonly webhooks: WebhooksService,
  ) {}

  async run(job: JobContext<ProcessJobData>): Promise<ProcessOutcome> {
    const { printId, attempt } = job.data;
    const print = await this.db.getRepository(Print).findOne({ where: { _id: printId } });
    if (!print || print.status !== PrintStatus.Processing || print.attempt !== attempt) {
      return { outcome: 'skipped', reason: print ? `print is ${print.status} at attempt ${print.attempt}` : 'print was deleted' };
    }
    const progress = this.progressReporter(job, print.userId, printId);
    const attemptKey = `${printFolder(print.userId, printId)}/${attempt}`;
    const runKey = `${attemptKey}/${RUN_PREFIX}${randomUUID()}`;
    // A cancel aborts this: directly when it happens in this process, through the status poll
    // when it happens in another one (the API while this is a worker).
    const abort = new AbortController();
    const unregister = this.cancellations.register(printId, attempt, abort);
    const poll = setInterval(() => {
      void this.stillProcessing(printId, attempt).then(
        (yes) => yes || abort.abort(new PrintCancelled()),
        () => undefined,
      );
    }, this.config.prints.cancelPollMs);
    poll.unref();
    // The heartbeat: our own record that this attempt is running (the recovery sweep takes a
    // running job without one for JOB_STALL_SECONDS as lost, whatever the queue says).
    const beat = () =>
      this.db.query(`UPDATE prints SET updated_at = now() WHERE id = $1 AND status = 'Processing' AND attempt = $2`, [printId, attempt]).catch(() => undefined);
    await beat();
    const heartbeat = setInterval(() => void beat(), this.config.recovery.heartbeatMs);
    heartbeat.unref();
    const timings: StageTimings = { trim: 0, layout: 0, render: 0, store: 0 };
    let t = performance.now();
    const lap = (stage: keyof StageTimings) => {
      const now = performance.now();
      timings[stage] = Math.round(now - t);
      t = now;
    };
    try {
      await progress('trim', 0);
      const settings = print.settings!;
      if (!(await this.waitForImages(printId, attempt, settings, abort.signal))) return { outcome: 'skipped', reason: 'no longer Processing (cancelled?)' };
      const designs = await this.designs(printId, settings.nesting === 'shape');
      lap('trim');
      await progress('layout', LAYOUT_PERCENT.from);
      const budget = layoutBudget(designs, settings, this.config.prints);
      const layoutStarted = performance.now();
      const ticking = setInterval(() => void progress('layout', layoutPercent(performance.now() - layoutStarted, budget)), LAYOUT_TICK_MS);
      ticking.unref();
      const layout = await this.engine.layout(designs, settings, budget, { signal: abort.signal }).finally(() => clearInterval(ticking));
      lap('layout');
      // Rendering is the long stage: skip it when the print was cancelled meanwhile.
      if (abort.signal.aborted || !(await this.stillProcessing(printId, attempt))) return { outcome: 'skipped', reason: 'no longer Processing (cancelled?)' };
      const pixels = layout.sheets.reduce((a, sh) => a + sh.widthPx * sh.lengthPx, 0);
      if (pixels > this.config.prints.maxPixels)
        throw new PermanentPrintError(
          `The layout needs ${gigapixels(pixels)} gigapixels; the limit is ${gigapixels(this.config.prints.maxPixels)}. Lower the DPI, use fewer copies or split the print.`,
        );
      await progress('render', LAYOUT_PERCENT.to);
      const root = this.storage.root;
      await this.storage.prepare(`${runKey}/.tmp/x`);
      const free = await this.storage.freeBytes();
      // Not enough room now is not the print's fault: a retry (Bull's backoff) may find it.
      if (free < this.config.prints.minFreeBytes + pixels * OUTPUT_BYTES_PER_PIXEL) {
        this.logger.error(`print ${printId}: not enough disk space to render (${free} bytes free)`);
        throw new TransientPrintError(RENDER_FAILED.disk);
      }
      // The formats the seller chose (prints processed before the choice existed: PNG).
      const formats = normalizeFormats(settings.formats);
      const rendered = await this.engine.render({
        layout,
        designs,
        root,
        output: (i) => ({
          png: formats.includes('png') ? this.storage.path(`${runKey}/sheet-${i + 1}.png`) : undefined,
          pdf: formats.includes('pdf') ? this.storage.path(`${runKey}/sheet-${i + 1}.pdf`) : undefined,
          preview: this.storage.path(`${runKey}/sheet-${i + 1}.preview.webp`),
        }),
        onProgress: (p) => void progress('render', 10 + Math.floor(p.percent * 0.85)),
        tmpDir: this.storage.path(`${runKey}/.tmp`),
        signal: abort.signal,
      });
      lap('render');
      await progress('store', 95);
      const files: PrintSheetFile[] = rendered.map((r, i) => {
        const byFormat = r.files.map((f) => ({ format: f.format, key: `${attemptKey}/sheet-${i + 1}.${f.format}`, bytes: f.bytes }));
        return {
          n: i + 1,
          key: byFormat[0].key,
          previewKey: `${attemptKey}/sheet-${i + 1}.preview.webp`,
          widthPx: r.widthPx,
          heightPx: r.heightPx,
          lengthIn: +layout.sheets[i].length.toFixed(3),
          bytes: byFormat[0].bytes,
          formats: byFormat,
        };
      });
      const copiesByImage = await this.copiesByImage(printId);
      const done = await this.finalize(print, attempt, runKey, files, copiesByImage, storedLayout(layout));
      lap('store');
      if (!done) return { outcome: 'skipped', reason: 'another run finished this attempt' };
      await this.removeRuns(attemptKey);
      await progress('done', 100);
      this.realtime.emit(print.userId, 'print', { printId, status: 'Completed', fileId: toFileDtos(printId, files) });
      await this.webhooks.dispatch(done.deliveries);
      await this.mail.dispatch(done.mail);
      await this.notifications.announce(print.userId, done.notification);
      this.logger.log(`print ${printId} attempt ${attempt}: ${layout.copies} copies on ${files.length} sheet(s) ${JSON.stringify(timings)}`);
      return { outcome: 'completed', sheets: files.length, copies: layout.copies, timingsMs: timings };
    } catch (e) {
      if (abort.signal.aborted && (e === abort.signal.reason || isAbortError(e))) return { outcome: 'skipped', reason: 'cancelled while rendering' };
      if (e instanceof PermanentPrintError || isPermanentEngineError(e)) {
        const text = await this.sellerText(printId, e as Error);
        await this.fail(printId, attempt, text);
        return { outcome: 'failed', reason: text };
      }
      if (e instanceof TransientPrintError) throw e;
      // Retried; the internals go to the log, the seller reads only what the sheet suffered.
      this.logger.error(`print ${printId} attempt ${attempt} failed: ${(e as Error)?.stack ?? e}`);
      throw new TransientPrintError(RENDER_FAILED.internal, { cause: e });
    } finally {
      // The one place a run's files are removed (completed, failed, cancelled or retried);
      // runs killed with their process are removed by the recovery sweep.
      clearInterval(poll);
      clearInterval(heartbeat);
      unregister();
      await this.storage.deletePrefix(runKey).catch(() => undefined);
    }
  }

  /**
   * The print's error text for a permanent failure. Engine errors name designs by their
   * print item id and quote libvips; the seller gets the design's name and the cause in
   * plain words, the log keeps the original.
   */
  private async sellerText(printId: string, e: Error): Promise<string> {
    if (e instanceof PermanentPrintError) return e.message;
    this.logger.warn(`print ${printId}: ${e.name}: ${e.message}`);
    const rows: Array<{ id: string; name: string }> = await this.db.query(
      `SELECT i.id, img.name FROM print_items i JOIN images img ON img.id = i.image_id WHERE i.print_id = $1`,
      [printId],
    );
    const named = rows.find((r) => e.message.includes(r.id));
    if (e instanceof DesignTooLargeError && named) return e.message.replace(`"${named.id}"`, `"${named.name}"`);
    if (e instanceof DesignDecodeError && named) return /pixel limit/.test(e.message) ? RENDER_FAILED.overLimit(named.name) : RENDER_FAILED.unreadable(named.name);
    if (e instanceof DesignDecodeError) return RENDER_FAILED.unreadable(rows.length === 1 ? rows[0].name : undefined);
    if (e instanceof UnsafePathError) return RENDER_FAILED.misplaced;
    return RENDER_FAILED.internal;
  }

  /** Removes the run folders of an attempt that is over (left by runs killed with their process). */
  private async removeRuns(attemptKey: string): Promise<void> {
    const entries = await this.storage.list(attemptKey);
    for (const e of entries.filter((n) => n.startsWith(RUN_PREFIX))) await this.storage.deletePrefix(`${attemptKey}/${e}`);
  }

  private async stillProcessing(printId: string, attempt: number): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM prints WHERE id = $1 AND status = 'Processing' AND attempt = $2`, [printId, attempt]);
    return rows.length > 0;
  }

  /** The print's designs with their stored trim (and masks for "shape"); a design whose file is gone fails the print. */
  private async designs(printId: string, masks: boolean): Promise<EngineDesign[]> {
    const items = await this.db.getRepository(PrintItem).find({ where: { printId }, relations: { image: true, size: true }, order: { createdAt: 'ASC' } });
    if (!items.length) throw new PermanentPrintError('The print has no items.');
    const out: EngineDesign[] = [];
    const measured = new Map<string, EngineDesign['mask']>();
    for (const it of items) {
      if (!it.image) throw new PermanentPrintError(MSG.imageMissing);
      if (!it.size) throw new PermanentPrintError(MSG.sizeMissing);
      if (!(await this.storage.exists(it.image.fileKey))) throw new PermanentPrintError(`The file of design "${it.image.name}" is missing. Please upload it again.`);
      if (!it.image.trim || !it.image.width || !it.image.height) {
        // Not inspected yet (should not happen once the image is ready): measure it now.
        const info = await this.engine.inspect(it.image.fileKey, this.storage.root);
        Object.assign(it.image, { trim: info.trim, width: info.widthPx, height: info.heightPx });
        measured.set(it._id, info.mask);
      }
      out.push(engineDesign(it));
    }
    if (!masks) return out;
    const withStored = await withMasks(this.db.manager, out, items);
    return withStored.map((d) => (measured.has(d.id) ? { ...d, mask: measured.get(d.id) } : d));
  }

  private async copiesByImage(printId: string): Promise<Map<string, number>> {
    const rows: Array<{ image_id: string; n: number }> = await this.db.query(
      `SELECT image_id, SUM(quantity)::int AS n FROM print_items WHERE print_id = $1 AND image_id IS NOT NULL GROUP BY image_id`,
      [printId],
    );
    return new Map(rows.map((r) => [r.image_id, r.n]));
  }

  /**
   * Moves the run's files into place and completes the print, unless another run already did,
   * in one transaction with its print.completed webhook deliveries, its "ready" notification
   * and its "ready" e-mail (so a crash right after the commit cannot lose them: the webhook
   * sweep queues pending deliveries, the bell lists stored rows, the recovery sweep enqueues
   * the mail's outbox row); returns the deliveries to queue, the notification to announce and
   * the mail to dispatch, or null when another run got there first.
   */
  private async finalize(
    print: Print,
    attempt: number,
    runKey: string,
    files: PrintSheetFile[],
    copies: Map<string, number>,
    layout: StoredLayout,
  ): Promise<{ deliveries: string[]; notification: string | null; mail: string | null } | null> {
    return this.db.transaction(async (m) => {
      const [row] = await m.query(`SELECT status, attempt FROM prints WHERE id = $1 FOR UPDATE`, [print._id]);
      if (!row || row.status !== PrintStatus.Processing || row.attempt !== attempt) return null;
      for (const f of files) {
        for (const [from, to] of [
          ...(f.formats ?? []).map((x) => [`${runKey}/sheet-${f.n}.${x.format}`, x.key]),
          [`${runKey}/sheet-${f.n}.preview.webp`, f.previewKey],
        ]) {
          await this.storage.move(from, to);
        }
      }
      await m.query(
        `UPDATE prints SET status = 'Completed', printed_at = now(), files = $2, layout = $3, files_deleted_at = NULL, error = NULL, updated_at = now() WHERE id = $1`,
        [print._id, JSON.stringify(files), JSON.stringify(layout)],
      );
      await this.images.addPrintedCopies(m, copies);
      const [done]: Array<{ printed_at: Date }> = await m.query(`SELECT printed_at FROM prints WHERE id = $1`, [print._id]);
      const deliveries = await this.webhooks.record(m, print.userId, 'print.completed', this.completedEvent(print._id, new Date(done.printed_at), files));
      // notifications hook: print completed (written with the status, like the webhook deliveries)
      // one key per attempt: the bell and the mail are each written once however often this runs
      const key = `print.completed:${print._id}:${attempt}`;
      const notification = await this.notifications.record(m, print.userId, {
        type: 'print',
        message: `${printName(print._id)} is ready: ${files.length} sheet${files.length === 1 ? '' : 's'} to download.`,
        attachmentId: print._id,
        dedupeKey: key,
      });
      const mail = await this.queueMail(m, print.userId, key, (u) =>
        mailTemplates.printReady(u, printName(print._id), this.printLink(print._id), this.config.prints.retentionDays),
      );
      return { deliveries, notification, mail };
    });
  }

  /** Failed for good: Error with the message, the charge of this attempt refunded (once). */
  async fail(printId: string, attempt: number, message: string): Promise<void> {
    const text = message.slice(0, 480) || 'Processing failed';
    // the print.failed deliveries, the bell's notification and the e-mail are written with the status (see finalize)
    const ended = await this.db.transaction(async (m) => {
      const e = await endAttemptWithRefund(m, this.credits, { printId, attempt, status: PrintStatus.Error, error: text, note: `Refund: processing failed (${text.slice(0, 200)})` });
      if (!e?.userId) return null;
      const deliveries = await this.webhooks.record(m, e.userId, 'print.failed', { printId, status: 'Error', error: text, creditsRefunded: true } satisfies WebhookEventData['print.failed']);
      // notifications hook: print failed, with its reason
      const key = `print.failed:${printId}:${attempt}`;
      const notification = await this.notifications.record(m, e.userId, { type: 'print', message: `${printName(printId)} could not be processed: ${text}`, attachmentId: printId, dedupeKey: key });
      const mail = await this.queueMail(m, e.userId, key, (u) => mailTemplates.printFailed(u, printName(printId), text, this.printLink(printId)));
      return { userId: e.userId, deliveries, notification, mail };
    });
    const userId = ended?.userId;
    if (!userId) return;
    await this.storage.deletePrefix(`${printFolder(userId, printId)}/${attempt}`).catch(() => undefined);
    this.logger.warn(`print ${printId} attempt ${attempt} failed: ${text}`);
    this.realtime.emit(userId, 'print', { printId, status: 'Error', message: text });
    await this.mail.dispatch(ended.mail);
    await this.notifications.announce(userId, ended.notification);
    await this.webhooks.dispatch(ended.deliveries);
  }

  // --- public API ---

  /**
   * A print processed while some of its images were still being inspected waits here until
   * they are ready (then checks that each design fits the sheet); an image that fails
   * inspection, or is not ready within PRINT_IMAGE_WAIT_SECONDS, fails the print with its
   * reason (refunded by fail()). Polls the rows, so it works whichever process inspects them.
   */
  private async waitForImages(printId: string, attempt: number, settings: SheetSettingsValues, signal: AbortSignal): Promise<boolean> {
    const deadline = Date.now() + this.config.prints.imageWaitMs;
    for (;;) {
      const rows: Array<{ name: string; status: string; error: string | null; trim: { width: number; height: number } | null; value: number | null }> = await this.db.query(
        `SELECT img.name, img.status, img.error, img.trim, sz.value FROM print_items i
           JOIN images img ON img.id = i.image_id LEFT JOIN sizes sz ON sz.id = i.size_id WHERE i.print_id = $1`,
        [printId],
      );
      const failed = rows.find((r) => r.status === ImageStatus.Error);
      if (failed) throw new PermanentPrintError(`Image "${failed.name}" could not be read${failed.error ? `: ${failed.error}` : ''}. Please replace it.`);
      if (rows.every((r) => r.status === ImageStatus.Ready)) {
        for (const r of rows) {
          const problem = r.trim && r.value !== null ? fitProblem(r.name, r.trim, Number(r.value), settings) : null;
          if (problem) throw new PermanentPrintError(problem);
        }
        return true;
      }
      if (Date.now() > deadline) throw new PermanentPrintError('The images of this print were not ready in time. Please try again.');
      if (signal.aborted || !(await this.stillProcessing(printId, attempt))) return false;
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  private completedEvent(printId: string, printedAt: Date, files: PrintSheetFile[]): WebhookEventData['print.completed'] {
    const base = `${this.config.appUrl}/api/print/${printId}/files`;
    return {
      printId,
      status: 'Completed',
      printedAt: printedAt.toISOString(),
      filesExpireAt: new Date(printedAt.getTime() + this.config.prints.retentionDays * 86_400_000).toISOString(),
      files: files.map((f) => ({ n: f.n, url: `${base}/${f.n}`, previewUrl: `${base}/${f.n}/preview`, widthPx: f.widthPx, heightPx: f.heightPx, lengthIn: f.lengthIn, bytes: f.bytes })),
    };
  }
  // --- end public API

  /** Retention: sheet files of Completed prints go PRINT_RETENTION_DAYS after printedAt; the row stays. */
  async expireFiles(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.prints.retentionDays * 86_400_000);
    const due: Array<{ id: string; user_id: string }> = await this.db.query(
      `SELECT id, user_id FROM prints WHERE status = 'Completed' AND files_deleted_at IS NULL AND printed_at < $1 ORDER BY printed_at LIMIT 500`,
      [cutoff],
    );
    let n = 0;
    for (const p of due) {
      // files first: a crash in between leaves the row to be retried, never orphaned files
      await this.storage.deletePrefix(printFolder(p.user_id, p.id));
      const rows = returned(
        await this.db.query(
          `UPDATE prints SET files = '[]', files_deleted_at = now(), updated_at = now() WHERE id = $1 AND status = 'Completed' AND files_deleted_at IS NULL RETURNING id`,
          [p.id],
        ),
      );
      n += rows.length;
    }
    if (n) this.logger.log(`retention: deleted the files of ${n} print(s)`);
    return n;
  }

  private progressReporter(job: JobContext<ProcessJobData>, userId: string, printId: string) {
    let last = -1;
    let lastStage = '';
    return async (stage: LivePrintStage, percent: number) => {
      const p = Math.max(0, Math.min(100, Math.floor(percent)));
      if (p === last && stage === lastStage) return;
      last = p;
      lastStage = stage;
      this.realtime.emit(userId, 'print-update', { printId, percent: p, stage });
      await job.progress(p).catch(() => undefined);
    };
  }

  private printLink(printId: string) {
    return `${this.config.appUrl}/prints/${printId}`;
  }

  /**
   * The owner's e-mail about a print, written with the status change it reports (see
   * `MailService.queue`); the returned job id is dispatched after the commit.
   */
  private async queueMail(m: EntityManager, userId: string, key: string, content: (user: User) => MailContent): Promise<string | null> {
    const user = await m.getRepository(User).findOne({ where: { _id: userId } });
    return user ? this.mail.queue(m, key, { to: user.email, ...content(user) }) : null;
  }
}
