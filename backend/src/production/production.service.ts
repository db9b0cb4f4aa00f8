import { BadRequestException, HttpException, Injectable, Logger, NotFoundException, OnModuleInit } from '@nestjs/common';
import { paginate } from '../common/pagination';
import { NotificationsService } from '../notifications/notifications.service';
import { FulfilmentService } from '../orders/fulfilment.service';
import { OrdersService } from '../orders/orders.service';
import { designFit } from '../gangsheet';
import { PrintStatus } from '../prints/entities/print.entity';
import { PrintProcessingService } from '../prints/print-processing.service';
import { LivePrintEvent } from '../realtime/events';
import { RealtimeService } from '../realtime/realtime.service';
import { SheetSettingsValues } from '../sheet-settings/entities/sheet-settings.entity';
import { SheetSettingsService } from '../sheet-settings/sheet-settings.service';
import { User } from '../users/entities/user.entity';
import { UsersService } from '../users/users.service';
import { WebhooksService } from '../webhooks/webhooks.service';
import { Clock } from './clock';
import { BatchDto, ProductionQueueQueryDto, ProductionSettingsDto, ProductionSettingsInput, QueueItemDto } from './dto/production.dto';
import { BatchRow, ProductionRepository, QUEUE_MSG } from './production.repository';
import { DEFAULT_RULES, isAuto, latestCutoff, nextCutoff, ProductionRules, takeBatch, validTimeZone } from './production-rules';

/** Order items whose design files are imported per round; a batch run does rounds until none is left. */
const DOWNLOADS_PER_RUN = 200;
/** Rounds per batch run at most (a run never loops on a queue that keeps changing). */
const IMPORT_ROUNDS = 50;
/** Batches made by one run at most. */
const BATCHES_PER_RUN = 50;

export type BatchTrigger = 'manual' | 'length' | 'cutoff' | 'wait' | 'sync';

const toBatchDto = (b: BatchRow): BatchDto => ({
  printId: b.print_id,
  status: b.status,
  trigger: b.trigger,
  orders: b.orders,
  items: b.items,
  copies: b.copies,
  note: b.note,
  createdAt: new Date(b.created_at).toISOString(),
});

/**
 * Production: the queue of shop order items not yet in a print, each seller's batching rules,
 * and batches — prints of type Batch made from the queue by hand or by the rules, processed at
 * once when the seller asked for it and has the credits (see docs/production.md).
 */
@Injectable()
export class ProductionService implements OnModuleInit {
  private readonly logger = new Logger('Production');

  constructor(
    private readonly repo: ProductionRepository,
    private readonly clock: Clock,
    private readonly sheetSettings: SheetSettingsService,
    private readonly orders: OrdersService,
    private readonly processing: PrintProcessingService,
    private readonly notifications: NotificationsService,
    private readonly webhooks: WebhooksService,
    private readonly realtime: RealtimeService,
    private readonly fulfilment: FulfilmentService,
    private readonly users: UsersService,
  ) {}

  onModuleInit() {
    // Every print status change is announced through RealtimeService in the process that made
    // it; a batch's end is followed from there (the sweep catches what a crash lost).
    this.realtime.listen((userId, topic, payload) => {
      if (topic !== 'print') return;
      const e = payload as LivePrintEvent;
      if (e.status !== 'Completed' && e.status !== 'Error' && e.status !== 'In Draft') return;
      void this.settle(e.printId).catch((err) => this.logger.warn(`batch ${e.printId} of ${userId}: ${err}`));
    });
  }

  // ---- settings ----

  async rules(userId: string): Promise<ProductionRules> {
    const row = await this.repo.getRules(userId);
    return row ? mergeRules(DEFAULT_RULES, row.rules) : structuredClone(DEFAULT_RULES);
  }

  /** The sheet settings a batch gets: the seller's (or the preset's) with the saved changes. */
  private async sheetFor(userId: string, r: ProductionRules): Promise<SheetSettingsValues> {
    try {
      return await this.sheetSettings.resolve(userId, r.presetId, r.sheet as any);
    } catch (e) {
      // A preset deleted after it was chosen: the seller's own settings.
      if (e instanceof NotFoundException) return this.sheetSettings.resolve(userId, null, r.sheet as any);
      throw e;
    }
  }

  async settings(userId: string): Promise<ProductionSettingsDto> {
    const r = await this.rules(userId);
    const next = nextCutoff(this.clock.now(), r.triggers.cutoffs, r.timeZone);
    return { ...r, sheet: r.sheet as any, resolvedSheet: await this.sheetFor(userId, r), auto: isAuto(r), nextCutoffAt: next?.toISOString() ?? null };
  }

  async updateSettings(userId: string, dto: ProductionSettingsInput): Promise<ProductionSettingsDto> {
    const cur = await this.rules(userId);
    const next = mergeRules(cur, dto as Partial<ProductionRules>);
    if (!validTimeZone(next.timeZone)) throw new BadRequestException({ message: 'Time zone must be an IANA name such as Europe/Vienna', code: 'invalid_time_zone' });
    next.triggers.cutoffs = [...new Set(next.triggers.cutoffs)].sort();
    if (next.presetId) {
      try {
        await this.sheetSettings.getPreset(userId, next.presetId);
      } catch {
        throw new BadRequestException({ message: 'Sheet preset not found', code: 'preset_not_found' });
      }
    }
    // The sheet changes must make valid settings with the base they apply to (the same checks as processing).
    await this.sheetSettings.resolve(userId, next.presetId, next.sheet as any);
    // Cut-offs count from now: saving at 15:00 does not batch for the 14:00 that has passed.
    await this.repo.saveRules(userId, next, isAuto(next), this.clock.now());
    return this.settings(userId);
  }

  // ---- queue ----

  async queue(userId: string, q: ProductionQueueQueryDto) {
    const rules = await this.rules(userId);
    const sheet = await this.sheetFor(userId, rules);
    const limit = q.limit ?? 50;
    const [{ rows, total }, s] = await Promise.all([this.repo.queuePage(userId, rules, sheet, q.status ?? 'all', q.page ?? 1, limit), this.repo.summary(userId, rules, sheet)]);
    const now = this.clock.now().getTime();
    const data: QueueItemDto[] = rows.map((r) => ({
      _id: r.id,
      orderId: r.order_id,
      orderNumber: r.order_number,
      orderedAt: new Date(r.ordered_at).toISOString(),
      ageHours: Math.max(0, Math.round(((now - new Date(r.ordered_at).getTime()) / 3_600_000) * 10) / 10),
      shop: r.shop_name,
      shopType: r.shop_type,
      title: r.title,
      sku: r.sku,
      size: r.size,
      copies: r.quantity,
      rush: !!r.rush,
      shipping: r.shipping ?? null,
      imageId: r.image_id,
      imageName: r.image_name,
      previewUrl: r.image_id ? `/api/images/${r.image_id}/preview` : null,
      sizeId: r.size_id,
      widthIn: r.size_value == null ? null : Number(r.size_value),
      designToDownload: r.to_download,
      reason: r.reason,
    }));
    return {
      ...paginate(data, total, limit),
      summary: {
        readyItems: s.ready_items,
        readyCopies: s.ready_copies,
        blockedItems: s.blocked_items,
        blockedCopies: s.blocked_copies,
        readyOrders: s.ready_orders,
        // Nothing measured yet among the ready items: the film is not known, not 0.
        estimatedLengthIn: s.ready_items > 0 && s.ready_unmeasured === s.ready_items ? null : Math.round((s.area_sq_in / (sheet.width * rules.triggers.density)) * 10) / 10,
        unmeasuredItems: s.ready_unmeasured,
        oldestReadyAt: s.oldest_ready_at ? new Date(s.oldest_ready_at).toISOString() : null,
      },
    };
  }

  async recentBatches(userId: string, limit = 20): Promise<BatchDto[]> {
    return (await this.repo.batches(userId, limit)).map(toBatchDto);
  }

  async orderCounts(userId: string) {
    return this.repo.orderCounts(userId);
  }

  // ---- batching ----

  /**
   * The scheduled evaluation of one seller (job id per seller, so never two at once): batches
   * when a trigger is due — the ready film reached the minimum length, a cut-off passed, or
   * the oldest ready item waited long enough.
   */
  async evaluate(userId: string, cause: 'schedule' | 'sync' = 'schedule'): Promise<BatchDto[]> {
    const row = await this.repo.getRules(userId);
    if (!row) return [];
    const rules = mergeRules(DEFAULT_RULES, row.rules);
    if (!isAuto(rules)) return [];
    const now = this.clock.now();
    let trigger: BatchTrigger | null = null;
    const cut = latestCutoff(now, rules.triggers.cutoffs, rules.timeZone);
    if (cut && (!row.last_cutoff_at || cut > new Date(row.last_cutoff_at)) && (await this.repo.passCutoff(userId, cut))) trigger = 'cutoff';
    if (!trigger && (rules.triggers.minLengthIn != null || rules.triggers.maxWaitHours != null)) {
      const sheet = await this.sheetFor(userId, rules);
      const s = await this.repo.summary(userId, rules, sheet);
      const length = s.area_sq_in / (sheet.width * rules.triggers.density);
      if (rules.triggers.minLengthIn != null && s.ready_items > 0 && length >= rules.triggers.minLengthIn) trigger = 'length';
      else if (rules.triggers.maxWaitHours != null && s.oldest_ready_at && now.getTime() - new Date(s.oldest_ready_at).getTime() >= rules.triggers.maxWaitHours * 3_600_000)
        trigger = 'wait';
    }
    if (!trigger) {
      if (cause === 'sync') this.realtime.emit(userId, 'production', { reason: 'queue' });
      return [];
    }
    return this.batch(userId, trigger);
  }

  /**
   * Makes batches of everything ready, `maxCopiesPerBatch` copies each at most: design files
   * still to download are imported first (as orders → print imports them), then each batch
   * takes its items in one transaction under the seller's lock.
   */
  async batch(userId: string, trigger: BatchTrigger): Promise<BatchDto[]> {
    const rules = await this.rules(userId);
    const sheet = await this.sheetFor(userId, rules);
    await this.importDesigns(userId, rules, sheet);
    const made: string[] = [];
    for (let n = 0; n < BATCHES_PER_RUN; n++) {
      const printId = await this.makeOne(userId, rules, sheet, trigger);
      if (!printId) break;
      made.push(printId);
      await this.afterCreate(userId, printId, rules, trigger);
    }
    if (!made.length) return [];
    this.realtime.emit(userId, 'production', { reason: 'batch-created', printId: made[0] });
    return (await this.repo.batches(userId, made.length, made)).map(toBatchDto);
  }

  /** Imports the design files of ready items, a round of DOWNLOADS_PER_RUN at a time, until none is left to try. */
  private async importDesigns(userId: string, rules: ProductionRules, sheet: SheetSettingsValues) {
    let user: User | null = null;
    for (let round = 0; round < IMPORT_ROUNDS; round++) {
      const rows = await this.repo.toDownload(userId, rules, sheet, DOWNLOADS_PER_RUN);
      if (!rows.length) return;
      user ??= await this.users.get(userId);
      await this.importRound(user, rows);
    }
  }

  private async importRound(user: User, rows: Array<{ id: string; design_url: string | null }>) {
    const resolved = await this.orders.resolveItems(user, rows.map((r) => r.id));
    const urls = new Map(rows.map((r) => [r.id, r.design_url]));
    for (const r of resolved) {
      if (r.downloadProblem) await this.repo.recordProblem(r.orderItemId, { kind: 'download', designUrl: urls.get(r.orderItemId), problem: r.downloadProblem });
    }
  }

  private async makeOne(userId: string, rules: ProductionRules, sheet: SheetSettingsValues, trigger: BatchTrigger): Promise<string | null> {
    const taken: string[] = [];
    try {
      return await this.repo.locked(userId, async (m) => {
        let rows = await this.repo.readyForBatch(m, userId, rules, sheet);
        // The engine's own fit check, as processing will apply it: a design that cannot fit the
        // sheet stays in the queue with its reason instead of failing the whole batch.
        const unfit = rows.filter((r) => r.trim_w && r.trim_h && !designFit({ widthPx: r.trim_w, heightPx: r.trim_h, width: Number(r.size_value) }, sheet).fits);
        for (const r of unfit) {
          const problem = QUEUE_MSG.tooLarge;
          await m.query(
            `INSERT INTO production_item_problems (order_item_id, kind, image_id, size_id, problem) VALUES ($1, 'fit', $2, $3, left($4, 500))
             ON CONFLICT (order_item_id, kind) DO UPDATE SET image_id = EXCLUDED.image_id, size_id = EXCLUDED.size_id, problem = EXCLUDED.problem`,
            [r.id, r.image_id, r.size_id, problem],
          );
        }
        const bad = new Set(unfit.map((r) => r.id));
        rows = rows.filter((r) => !bad.has(r.id));
        const chosen = takeBatch(rows, rules.maxCopiesPerBatch);
        if (!chosen.length) return null;
        const got = await this.repo.claim(m, userId, chosen.map((r) => r.id));
        taken.push(...got);
        const mine = chosen.filter((r) => got.has(r.id));
        if (!mine.length) return null;
        const settings = { ...sheet, orderLabels: rules.labels } as SheetSettingsValues;
        return this.repo.insertBatch(m, userId, {
          trigger,
          settings,
          rows: mine.map((r) => ({ id: r.id, order_id: r.order_id, image_id: r.image_id!, size_id: r.size_id!, quantity: r.quantity })),
        });
      });
    } finally {
      await this.repo.release(taken);
    }
  }

  /** Announces a new batch, then processes it (auto-process) or leaves it In Draft with a bell notification. */
  private async afterCreate(userId: string, printId: string, rules: ProductionRules, trigger: BatchTrigger) {
    const [b] = await this.repo.batches(userId, 1, [printId]);
    this.realtime.emit(userId, 'print', { printId, status: 'In Draft' });
    let status: string = PrintStatus.InDraft;
    let note: string | null = null;
    if (rules.autoProcess) {
      try {
        const settings = { ...(rules.sheet as object), orderLabels: rules.labels };
        const p = await this.processing.startProcessing({ _id: userId } as User, printId, { presetId: rules.presetId ?? undefined, settings: settings as any });
        status = p.status;
      } catch (e) {
        const res = e instanceof HttpException ? (e.getResponse() as { code?: string; message?: string }) : null;
        note = res?.code === 'insufficient_credits' ? `Needs ${b.copies} credits` : `Not processed: ${res?.message ?? (e as Error).message}`;
        if (!res) this.logger.error(`batch ${printId}: processing did not start: ${(e as Error).stack ?? e}`);
      }
    }
    if (status === PrintStatus.InDraft) {
      await this.repo.setNote(printId, note);
      const why = note && !note.startsWith('Needs') ? ` (${note})` : '';
      await this.notifications.notify(userId, {
        type: 'print',
        message: `Batch of ${b.copies} ${b.copies === 1 ? 'copy' : 'copies'} ready — needs ${b.copies} credits${why}`,
        attachmentId: printId,
        dedupeKey: `batch.created:${printId}`,
      });
    }
    await this.webhooks
      .publish(userId, 'batch.created', { printId, trigger, orders: b.orders, items: b.items, copies: b.copies, status })
      .catch((e) => this.logger.warn(`webhook batch.created for ${printId}: ${e}`));
  }

  /**
   * A batch's end: Completed is announced once (batch.completed, the orders' fulfilment);
   * failed, or cancelled after processing started, it is retired (Cancelled), which returns
   * its items to the queue. Prints that are not batches are left alone.
   */
  async settle(printId: string): Promise<void> {
    const b = await this.repo.batchOf(printId);
    if (!b) return;
    if (b.status === PrintStatus.Completed) {
      const done = await this.repo.claimCompletion(printId);
      if (!done) return;
      await this.webhooks
        .publish(done.userId, 'batch.completed', { printId, orderIds: done.orderIds, copies: done.copies })
        .catch((e) => this.logger.warn(`webhook batch.completed for ${printId}: ${e}`));
      await this.fulfilment.requestForBatch(done.userId, printId).catch((e) => this.logger.warn(`fulfilment of batch ${printId}: ${e}`));
      this.realtime.emit(done.userId, 'production', { reason: 'batch-ended', printId });
      return;
    }
    const owner = await this.repo.retire(printId);
    if (owner) this.realtime.emit(owner, 'production', { reason: 'batch-ended', printId });
  }

  /** The sweep of the scheduled job: batch ends a crashed process did not settle. */
  async sweep(): Promise<void> {
    const { completed, retire } = await this.repo.unsettled();
    for (const id of [...completed, ...retire]) await this.settle(id).catch((e) => this.logger.warn(`sweep of batch ${id}: ${e}`));
  }

  autoSellers() {
    return this.repo.autoSellers();
  }
}

/** `patch` over `base`, one level into the nested objects; absent fields keep their value. */
function mergeRules(base: ProductionRules, patch: Partial<ProductionRules>): ProductionRules {
  const out = structuredClone(base);
  for (const [k, v] of Object.entries(patch ?? {})) {
    if (v === undefined) continue;
    const key = k as keyof ProductionRules;
    if (key === 'triggers' || key === 'rush') {
      for (const [k2, v2] of Object.entries(v as object)) if (v2 !== undefined) (out[key] as Record<string, unknown>)[k2] = v2;
    } else if (key in out) (out as unknown as Record<string, unknown>)[key] = v;
  }
  return out;
}
