import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { isAbortError } from '../cpu/cpu-pool';
import { ImageStatus } from '../images/entities/image.entity';
import { ImagesService } from '../images/images.service';
import { NotificationsService } from '../notifications/notifications.service';
import { JobContext } from '../queue/queue.types';
import { LivePrintStage } from '../realtime/events';
import { RealtimeService } from '../realtime/realtime.service';
import { normalizeFormats, SheetSettingsValues, orderLabelsOn } from '../sheet-settings/entities/sheet-settings.entity';
import { StorageService } from '../storage/storage.service';
import type { WebhookEventData } from '../webhooks/webhook-events';
import { WebhooksService } from '../webhooks/webhooks.service';
import { fitProblem } from './design-fit';
import { EngineDesign, isPermanentEngineError, PRINT_ENGINE, PrintEngine } from './engine.adapter';
import { Print, PrintSheetFile, PrintStatus } from './entities/print.entity';
import { gigapixels, layoutBudget, OUTPUT_BYTES_PER_PIXEL } from './print-budget';
import { PrintCancellations, PrintCancelled } from './print-cancellations';
import { engineDesign } from './print-designs';
import { PermanentPrintError, RENDER_FAILED, TransientPrintError } from './print-failure';
import { PrintFailureService } from './print-failure.service';
import { PrintJobRepository } from './print-job.repository';
import { layoutPlan, layoutWithPlan } from './print-layout';
import { printFolder, ProcessJobData } from './print-lifecycle';
import { PrintMail } from './print-mail';
import { toFileDtos } from './print.mapper';
import { PrintRefs, printRefs } from './print-refs';
import { MSG, printName } from './prints.rules';
import { StoredLayout, storedLayout } from './stored-layout';

/** The text across every sheet of a test print. */
export const TEST_WATERMARK = 'TEST';

/** Each run renders into `<attempt folder>/.run-<uuid>/` (temporary rasters in its `.tmp/`). */
export const RUN_PREFIX = '.run-';
const MOVES_AT_ONCE = 4;

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

export type StageTimings = { trim: number; layout: number; render: number; store: number };

export interface ProcessOutcome {
  outcome: 'completed' | 'skipped' | 'failed';
  reason?: string;
  sheets?: number;
  copies?: number;
  timingsMs?: StageTimings;
}

/**
 * The processing job: trim → layout → render → store, then Completed (a failure for good goes
 * to PrintFailureService, file expiry is PrintRetentionService, the SQL is PrintJobRepository). Safe to run twice for
 * the same attempt (Bull's stalled-job recovery): it only starts while the print is Processing
 * at that attempt, renders into a private folder, and finalises under a row lock, so exactly
 * one run completes the print; the charge was made once when processing started.
 */
@Injectable()
export class PrintJobService {
  private readonly logger = new Logger('PrintJob');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PRINT_ENGINE) private readonly engine: PrintEngine,
    private readonly prints: PrintJobRepository,
    private readonly failures: PrintFailureService,
    private readonly storage: StorageService,
    private readonly realtime: RealtimeService,
    private readonly mail: PrintMail,
    private readonly cancellations: PrintCancellations,
    private readonly images: ImagesService,
    private readonly notifications: NotificationsService,
    private readonly webhooks: WebhooksService,
  ) {}

  async run(job: JobContext<ProcessJobData>): Promise<ProcessOutcome> {
    const { printId, attempt } = job.data;
    const print = await this.prints.find(printId);
    if (!print || print.status !== PrintStatus.Processing || print.attempt !== attempt) {
      return { outcome: 'skipped', reason: print ? `print is ${print.status} at attempt ${print.attempt}` : 'print was deleted' };
    }
    const progress = this.progressReporter(job, print.userId, printId);
    const attemptKey = `${printFolder(print.userId, printId)}/${attempt}`;
    const runId = randomUUID();
    const runKey = `${attemptKey}/${RUN_PREFIX}${runId}`;
    // the render's temporary rasters: on this machine's disk whatever the store
    const tmpDir = join(this.config.dataDir, 'tmp', 'runs', runId);
    // A cancel aborts this: directly when it happens in this process, through the status poll
    // when it happens in another one (the API while this is a worker).
    const abort = new AbortController();
    const unregister = this.cancellations.register(printId, attempt, abort);
    const poll = setInterval(() => {
      void this.prints.stillProcessing(printId, attempt).then(
        (yes) => yes || abort.abort(new PrintCancelled()),
        () => undefined,
      );
    }, this.config.prints.cancelPollMs);
    poll.unref();
    // The heartbeat: our own record that this attempt is running (the recovery sweep takes a
    // running job without one for JOB_STALL_SECONDS as lost, whatever the queue says).
    const beat = () => this.prints.touch(printId, attempt).catch(() => undefined);
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
      const designs = await this.prints.withLabels(await this.designs(printId, settings.nesting === 'shape'), orderLabelsOn(settings, print.type));
      lap('trim');
      await progress('layout', LAYOUT_PERCENT.from);
      const budget = layoutBudget(designs, settings, this.config.prints);
      const layoutStarted = performance.now();
      const ticking = setInterval(() => void progress('layout', layoutPercent(performance.now() - layoutStarted, budget)), LAYOUT_TICK_MS);
      ticking.unref();
      // the seller's edited layout, while it matches the print, is printed exactly as saved
      const plan = layoutPlan(await this.prints.editedLayout(printId), designs, settings);
      const layout = await layoutWithPlan(this.engine, designs, settings, plan, budget, abort.signal).finally(() => clearInterval(ticking));
      lap('layout');
      // Rendering is the long stage: skip it when the print was cancelled meanwhile.
      if (abort.signal.aborted || !(await this.prints.stillProcessing(printId, attempt))) return { outcome: 'skipped', reason: 'no longer Processing (cancelled?)' };
      const pixels = layout.sheets.reduce((a, sh) => a + sh.widthPx * sh.lengthPx, 0);
      if (pixels > this.config.prints.maxPixels)
        throw new PermanentPrintError(
          `The layout needs ${gigapixels(pixels)} gigapixels; the limit is ${gigapixels(this.config.prints.maxPixels)}. Lower the DPI, use fewer copies or split the print.`,
        );
      await progress('render', LAYOUT_PERCENT.to);
      const free = await this.storage.freeBytes();
      // Not enough room now is not the print's fault: a retry (Bull's backoff) may find it.
      // The print files land on this disk only with the local folder; a bucket takes them as they are written.
      const outputHere = this.storage.driver === 'local' ? pixels * OUTPUT_BYTES_PER_PIXEL : 0;
      if (free < this.config.prints.minFreeBytes + outputHere) {
        this.logger.error(`print ${printId}: not enough disk space to render (${free} bytes free)`);
        throw new TransientPrintError(RENDER_FAILED.disk);
      }
      await mkdir(tmpDir, { recursive: true });
      // The formats the seller chose (prints processed before the choice existed: PNG).
      const formats = normalizeFormats(settings.formats);
      // The designs are read by path: the stored files, or local copies of a bucket's.
      const inputs = await this.storage.local(designs.map((d) => d.file));
      const rendered = await this.engine
        .render({
          layout,
          designs,
          root: inputs.root,
          store: { storage: this.config.storage, filesDir: this.config.filesDir },
          output: (i) => ({
            png: formats.includes('png') ? `${runKey}/sheet-${i + 1}.png` : undefined,
            pdf: formats.includes('pdf') ? `${runKey}/sheet-${i + 1}.pdf` : undefined,
            preview: `${runKey}/sheet-${i + 1}.preview.webp`,
          }),
          onProgress: (p) => void progress('render', 10 + Math.floor(p.percent * 0.85)),
          tmpDir,
          // a test print's sheets are marked all over, so they cannot be used for production
          watermark: print.test ? TEST_WATERMARK : undefined,
          signal: abort.signal,
        })
        .finally(() => inputs.release());
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
      const copiesByImage = await this.prints.copiesByImage(printId);
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
        const text = await this.failures.sellerText(printId, e as Error);
        await this.failures.fail(printId, attempt, text);
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
      await rm(tmpDir, { recursive: true, force: true }).catch(() => undefined);
      await this.storage.deleteFolder(runKey).catch(() => undefined);
    }
  }

  /** Removes the run folders of an attempt that is over (left by runs killed with their process). */
  private async removeRuns(attemptKey: string): Promise<void> {
    const entries = await this.storage.entries(attemptKey);
    for (const e of entries.filter((n) => n.startsWith(RUN_PREFIX))) await this.storage.deleteFolder(`${attemptKey}/${e}`);
  }

  /** The print's designs with their stored trim (and masks for "shape"); a design whose file is gone fails the print. */
  private async designs(printId: string, masks: boolean): Promise<EngineDesign[]> {
    const items = await this.prints.items(printId);
    if (!items.length) throw new PermanentPrintError('The print has no items.');
    const out: EngineDesign[] = [];
    const measured = new Map<string, EngineDesign['mask']>();
    for (const it of items) {
      if (!it.image) throw new PermanentPrintError(MSG.imageMissing);
      if (!it.size) throw new PermanentPrintError(MSG.sizeMissing);
      if (!(await this.storage.exists(it.image.fileKey))) throw new PermanentPrintError(`The file of design "${it.image.name}" is missing. Please upload it again.`);
      if (!it.image.trim || !it.image.width || !it.image.height) {
        // Not inspected yet (should not happen once the image is ready): measure it now.
        const local = await this.storage.local([it.image.fileKey]);
        const info = await this.engine.inspect(it.image.fileKey, local.root).finally(() => local.release());
        Object.assign(it.image, { trim: info.trim, width: info.widthPx, height: info.heightPx });
        measured.set(it._id, info.mask);
      }
      out.push(engineDesign(it));
    }
    if (!masks) return out;
    const withStored = await this.prints.withMasks(out, items);
    return withStored.map((d) => (measured.has(d.id) ? { ...d, mask: measured.get(d.id) } : d));
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
    return this.prints.transaction(async (m) => {
      const row = await this.prints.lockAttempt(m, print._id);
      if (!row || row.status !== PrintStatus.Processing || row.attempt !== attempt) return null;
      const moves = files.flatMap((f) => [
        ...(f.formats ?? []).map((x) => [`${runKey}/sheet-${f.n}.${x.format}`, x.key]),
        [`${runKey}/sheet-${f.n}.preview.webp`, f.previewKey],
      ]);
      // a few at once: on a bucket each is a server-side copy and a delete
      for (let i = 0; i < moves.length; i += MOVES_AT_ONCE) await Promise.all(moves.slice(i, i + MOVES_AT_ONCE).map(([from, to]) => this.storage.move(from, to)));
      const printedAt = await this.prints.complete(m, print._id, files, layout);
      // test prints are not counted as printing (the dashboard's printed images)
      if (!print.test) await this.images.addPrintedCopies(m, copies);
      const deliveries = await this.webhooks.record(m, print.userId, 'print.completed', { ...this.completedEvent(print._id, printedAt, files), ...(await printRefs(m, print._id)) });
      // one key per attempt: the bell and the mail are each written once however often this runs
      const key = `print.completed:${print._id}:${attempt}`;
      const notification = await this.notifications.record(m, print.userId, {
        type: 'print',
        message: `${printName(print._id)} is ready: ${files.length} sheet${files.length === 1 ? '' : 's'} to download.`,
        attachmentId: print._id,
        dedupeKey: key,
      });
      const mail = await this.mail.ready(m, print.userId, print._id, key);
      return { deliveries, notification, mail };
    });
  }

  /**
   * A print processed while some of its images were still being inspected waits here until
   * they are ready (then checks that each design fits the sheet); an image that fails
   * inspection, or is not ready within PRINT_IMAGE_WAIT_SECONDS, fails the print with its
   * reason (refunded by PrintFailureService.fail). Polls the rows, so it works whichever process inspects them.
   */
  private async waitForImages(printId: string, attempt: number, settings: SheetSettingsValues, signal: AbortSignal): Promise<boolean> {
    const deadline = Date.now() + this.config.prints.imageWaitMs;
    for (;;) {
      const rows = await this.prints.designReadiness(printId);
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
      if (signal.aborted || !(await this.prints.stillProcessing(printId, attempt))) return false;
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  private completedEvent(printId: string, printedAt: Date, files: PrintSheetFile[]): Omit<WebhookEventData['print.completed'], keyof PrintRefs> {
    return {
      printId,
      status: 'Completed',
      printedAt: printedAt.toISOString(),
      filesExpireAt: new Date(printedAt.getTime() + this.config.prints.retentionDays * 86_400_000).toISOString(),
      files: toFileDtos(printId, files).map((f) => ({
        format: f.format,
        sheet: f.sheet,
        n: f.sheet,
        url: this.config.appUrl + f.path,
        previewUrl: this.config.appUrl + f.previewPath,
        bytes: f.bytes,
        lengthIn: f.lengthIn,
        ...(f.format === 'png'
          ? { widthPx: f.widthPx, heightPx: f.heightPx }
          : { pageWidthIn: +((f.widthPx * f.lengthIn) / f.heightPx).toFixed(3), pageHeightIn: f.lengthIn }),
      })),
    };
  }
  // --- end public API

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

}
