import { BadRequestException, ConflictException, GoneException, Inject, Injectable, Logger, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { paginate } from '../common/pagination';
import { returned } from '../common/sql';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { CreditsService } from '../credits/credits.service';
import { CreditReason } from '../credits/entities/credit-transaction.entity';
import { Image, ImageStatus } from '../images/entities/image.entity';
import { OutboxJob, OutboxService } from '../queue/outbox.service';
import { QueueName } from '../queue/queue.types';
import { SheetSettingsService } from '../sheet-settings/sheet-settings.service';
import { Size } from '../sizes/entities/size.entity';
import { StorageService } from '../storage/storage.service';
import { RealtimeService } from '../realtime/realtime.service';
import { Role, User } from '../users/entities/user.entity';
import { fitProblem, printedSize } from './design-fit';
import { estimateWork, freeBytes, gigapixels } from './print-budget';
import { SheetSettingsValues } from '../sheet-settings/entities/sheet-settings.entity';
import { CreatePrintDto, PreviewDraftDto, PrintItemInput, PrintListQueryDto, PrintPreviewDto, ProcessPrintDto, UpdatePrintItemDto } from './dto/print.dto';
import { DesignMask, EngineDesign, PRINT_ENGINE, PrintEngine, LOW_DPI_THRESHOLD } from './engine.adapter';
import { PrintItem } from './entities/print-item.entity';
import { PrintCancellations } from './print-cancellations';
import { Print, PrintStatus, PrintType } from './entities/print.entity';
import { toPrintDto } from './print.mapper';
import { rotationOf, StoredLayout, storedLayout } from './stored-layout';
import { assertStatus, DELETABLE, EDITABLE, MSG, PROCESSABLE } from './prints.rules';

export const PROCESS_JOB = 'process-print';
export const RETENTION_JOB = 'print-retention';

export interface ProcessJobData {
  printId: string;
  attempt: number;
}

export const printJobId = (printId: string, attempt: number) => `print:${printId}:${attempt}`;

/** The processing job of one attempt (the same options whether enqueued at once or resumed). */
export const processJob = (printId: string, attempt: number, attempts: number): OutboxJob<ProcessJobData> => ({
  queue: QueueName.Prints,
  name: PROCESS_JOB,
  data: { printId, attempt },
  jobId: printJobId(printId, attempt),
  attempts,
  backoffMs: 2000,
});
export const chargeReference = printJobId;
export const printFolder = (userId: string, printId: string) => `users/${userId}/prints/${printId}`;

/**
 * Ends a Processing attempt with `status` and refunds its charge, inside `m`. The UPDATE
 * matches only while the print is still Processing (at `attempt`, when given), so of a job
 * failing, a cancel and an enqueue failure racing for one attempt exactly one ends it and
 * refunds; the ledger's unique (reason, reference) guards the refund a second time.
 * Returns the owner and attempt, or null when the print was no longer Processing.
 */
export async function endAttemptWithRefund(
  m: EntityManager,
  credits: CreditsService,
  p: { printId: string; status: PrintStatus; error: string | null; note: string; attempt?: number; userId?: string },
): Promise<{ userId: string; attempt: number } | null> {
  const rows = returned<{ user_id: string; attempt: number; credit_cost: number }>(
    await m.query(
      `UPDATE prints SET status = $2, error = $3, updated_at = now()
        WHERE id = $1 AND status = 'Processing' AND ($4::int IS NULL OR attempt = $4) AND ($5::uuid IS NULL OR user_id = $5)
        RETURNING user_id, attempt, credit_cost`,
      [p.printId, p.status, p.error, p.attempt ?? null, p.userId ?? null],
    ),
  );
  if (!rows.length) return null;
  const { user_id: userId, attempt, credit_cost: cost } = rows[0];
  if (cost > 0)
    await credits.apply(
      { userId, reason: CreditReason.Refund, availableDelta: cost, usedDelta: -cost, reference: chargeReference(p.printId, attempt), note: p.note },
      m,
    );
  return { userId, attempt };
}

const SORT_COLUMNS: Record<string, string> = {
  createdAt: 'p.createdAt',
  printedAt: 'p.printedAt',
  status: 'p.status',
  type: 'p.type',
  updatedAt: 'p.updatedAt',
};

@Injectable()
export class PrintsService {
  private readonly logger = new Logger('Prints');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: OutboxService,
    @Inject(PRINT_ENGINE) private readonly engine: PrintEngine,
    private readonly credits: CreditsService,
    private readonly sheetSettings: SheetSettingsService,
    private readonly storage: StorageService,
    private readonly realtime: RealtimeService,
    private readonly cancellations: PrintCancellations,
  ) {}

  dto(p: Print) {
    return toPrintDto(p, this.config.prints.retentionDays);
  }

  // ---- reading ----

  async list(userId: string, q: PrintListQueryDto) {
    const page = q.page ?? 1;
    const limit = q.limit ?? 10;
    const qb = this.db
      .getRepository(Print)
      .createQueryBuilder('p')
      .leftJoinAndSelect('p.items', 'i')
      .leftJoinAndSelect('i.image', 'img')
      .leftJoinAndSelect('i.size', 'sz')
      .where('p.userId = :userId', { userId });
    if (q.status) qb.andWhere('p.status = :status', { status: q.status });
    if (q.type) qb.andWhere('p.type = :type', { type: q.type });
    const dateCol = q.dateType === 'printedAt' ? 'p.printedAt' : 'p.createdAt';
    if (q.startDate) qb.andWhere(`${dateCol} >= :start`, { start: dayStart(q.startDate) });
    if (q.endDate) qb.andWhere(`${dateCol} < :end`, { end: dayEnd(q.endDate) });
    const dir = q.sort === 'asc' ? 'ASC' : 'DESC';
    qb.orderBy(SORT_COLUMNS[q.sortBy ?? 'createdAt'], dir, 'NULLS LAST')
      .addOrderBy('p._id', dir)
      .addOrderBy('i.createdAt', 'ASC')
      .skip((page - 1) * limit)
      .take(limit);
    const [rows, total] = await qb.getManyAndCount();
    return paginate(rows.map((p) => this.dto(p)), total, limit);
  }

  async listForUser(userId: string, q: PrintListQueryDto) {
    if (!(await this.db.getRepository(User).exist({ where: { _id: userId } }))) throw new NotFoundException('User not found');
    return this.list(userId, q);
  }

  /** One print with its items; `userId` null means any owner (an admin reading). */
  async find(userId: string | null, id: string, m: EntityManager = this.db.manager): Promise<Print> {
    const p = await m
      .getRepository(Print)
      .createQueryBuilder('p')
      .leftJoinAndSelect('p.items', 'i')
      .leftJoinAndSelect('i.image', 'img')
      .leftJoinAndSelect('i.size', 'sz')
      .where(userId ? 'p._id = :id AND p.userId = :userId' : 'p._id = :id', { id, userId })
      .orderBy('i.createdAt', 'ASC')
      .addOrderBy('i._id', 'ASC')
      .getOne();
    if (!p) throw new NotFoundException(MSG.notFound);
    return p;
  }

  // ---- drafts and items ----

  async create(userId: string, dto: CreatePrintDto, type = PrintType.Manual): Promise<Print> {
    const id = await this.db.transaction(async (m) => {
      await this.checkOwnership(m, userId, dto.printItems);
      const print = await m.save(m.create(Print, { userId, type, status: PrintStatus.InDraft, files: [] }));
      for (const item of dto.printItems) await this.addOrMerge(m, print._id, item);
      return print._id;
    });
    return this.find(userId, id);
  }

  async addItem(userId: string, printId: string, dto: PrintItemInput): Promise<Print> {
    await this.db.transaction(async (m) => {
      const print = await this.lockDraft(m, userId, printId);
      await this.checkOwnership(m, userId, [dto]);
      await this.addOrMerge(m, print._id, dto);
    });
    return this.find(userId, printId);
  }

  async updateItem(userId: string, printId: string, itemId: string, dto: UpdatePrintItemDto): Promise<Print> {
    await this.db.transaction(async (m) => {
      const print = await this.lockDraft(m, userId, printId);
      const item = await m.findOne(PrintItem, { where: { _id: itemId, printId: print._id } });
      if (!item) throw new NotFoundException(MSG.itemNotFound);
      if (dto.imageId) await this.checkOwnership(m, userId, [{ imageId: dto.imageId }]);
      if (dto.sizeId) await this.checkOwnership(m, userId, [{ sizeId: dto.sizeId }]);
      if (dto.imageId !== undefined) item.imageId = dto.imageId;
      if (dto.sizeId !== undefined) item.sizeId = dto.sizeId;
      if (dto.quantity !== undefined) item.quantity = dto.quantity;
      // Changing an item into one that already exists (same image and size) merges the two.
      const twin =
        item.imageId && item.sizeId
          ? await m
              .getRepository(PrintItem)
              .createQueryBuilder('i')
              .where('i.printId = :p AND i.imageId = :img AND i.sizeId = :sz AND i._id <> :id', { p: print._id, img: item.imageId, sz: item.sizeId, id: item._id })
              .getOne()
          : null;
      if (twin) {
        twin.quantity += item.quantity;
        twin.orderItemId ??= item.orderItemId;
        await m.save(twin);
        await m.delete(PrintItem, { _id: item._id });
      } else {
        await m.save(item);
      }
    });
    return this.find(userId, printId);
  }

  async removeItem(userId: string, printId: string, itemId: string): Promise<Print> {
    await this.db.transaction(async (m) => {
      const print = await this.lockDraft(m, userId, printId);
      const res = await m.delete(PrintItem, { _id: itemId, printId: print._id });
      if (!res.affected) throw new NotFoundException(MSG.itemNotFound);
    });
    return this.find(userId, printId);
  }

  /** The print row locked, so an edit cannot slip in while processing starts. */
  private async lockDraft(m: EntityManager, userId: string, printId: string): Promise<Print> {
    const print = await m.findOne(Print, { where: { _id: printId, userId }, lock: { mode: 'pessimistic_write' } });
    if (!print) throw new NotFoundException(MSG.notFound);
    assertStatus(print.status, EDITABLE, MSG.notEditable);
    return print;
  }

  private async checkOwnership(m: EntityManager, userId: string, items: Array<{ imageId?: string; sizeId?: string }>) {
    const imageIds = [...new Set(items.map((i) => i.imageId).filter((v): v is string => !!v))];
    const sizeIds = [...new Set(items.map((i) => i.sizeId).filter((v): v is string => !!v))];
    if (imageIds.length) {
      const n = await m.count(Image, { where: { _id: In(imageIds), userId, deletedAt: IsNull() } });
      if (n !== imageIds.length) throw new NotFoundException('Image not found');
    }
    if (sizeIds.length) {
      const n = await m.count(Size, { where: { _id: In(sizeIds), userId } });
      if (n !== sizeIds.length) throw new NotFoundException('Size not found');
    }
  }

  /** Adding the same image and size again adds to that item's quantity (spec §4). */
  private async addOrMerge(m: EntityManager, printId: string, dto: PrintItemInput) {
    const existing = await m.findOne(PrintItem, { where: { printId, imageId: dto.imageId, sizeId: dto.sizeId } });
    if (existing) {
      existing.quantity += dto.quantity;
      await m.save(existing);
    } else {
      await m.save(m.create(PrintItem, { printId, imageId: dto.imageId, sizeId: dto.sizeId, quantity: dto.quantity, orderItemId: null }));
    }
  }

  // ---- preview ----

  /**
   * A Completed print shows the layout its files were rendered from, with the settings it
   * was processed with (the body is ignored); older prints without a stored layout are laid
   * out again with those settings. Any other print gets the live layout of its items.
   */
  async preview(userId: string, printId: string, dto: ProcessPrintDto): Promise<PrintPreviewDto> {
    const print = await this.find(userId, printId);
    const rendered = print.status === PrintStatus.Completed && print.settings ? { settings: print.settings, layout: print.layout } : undefined;
    return this.previewItems(userId, print.items ?? [], dto, rendered);
  }

  /**
   * The layout of items that are not saved yet (the manual-create page). Items get the ids
   * `draft-<n>` in the order given; the same image and size twice are merged, as on create.
   */
  async previewDraft(userId: string, dto: PreviewDraftDto): Promise<PrintPreviewDto> {
    await this.checkOwnership(this.db.manager, userId, dto.printItems);
    const images = new Map((await this.db.manager.find(Image, { where: { _id: In(dto.printItems.map((i) => i.imageId)), userId } })).map((i) => [i._id, i]));
    const sizes = new Map((await this.db.manager.find(Size, { where: { _id: In(dto.printItems.map((i) => i.sizeId)), userId } })).map((s) => [s._id, s]));
    const merged = new Map<string, PrintItem>();
    for (const input of dto.printItems) {
      const key = `${input.imageId}:${input.sizeId}`;
      const existing = merged.get(key);
      if (existing) existing.quantity += input.quantity;
      else
        merged.set(key, {
          _id: `draft-${merged.size}`,
          imageId: input.imageId,
          sizeId: input.sizeId,
          image: images.get(input.imageId)!,
          size: sizes.get(input.sizeId)!,
          quantity: input.quantity,
          orderItemId: null,
        } as PrintItem);
    }
    return this.previewItems(userId, [...merged.values()], dto);
  }

  private async previewItems(
    userId: string,
    items: PrintItem[],
    dto: ProcessPrintDto,
    rendered?: { settings: SheetSettingsValues; layout: StoredLayout | null },
  ): Promise<PrintPreviewDto> {
    // Prints processed before true-shape nesting have no nesting in their settings: they were boxes.
    const settings: SheetSettingsValues = rendered ? { ...rendered.settings, nesting: rendered.settings.nesting ?? 'box' } : await this.sheetSettings.resolve(userId, dto.presetId, dto.settings);
    const warnings: PrintPreviewDto['warnings'] = [];
    const designs: EngineDesign[] = [];
    for (const it of items) {
      if (!it.image) warnings.push({ itemId: it._id, code: 'image_missing', message: MSG.imageMissing });
      else if (!it.size) warnings.push({ itemId: it._id, code: 'size_missing', message: MSG.sizeMissing });
      else if (it.image.status !== ImageStatus.Ready || !it.image.trim || !it.image.width || !it.image.height)
        warnings.push({ itemId: it._id, code: 'image_not_ready', message: notReadyMessage(it.image) });
      else {
        const problem = fitProblem(it.image.name, it.image.trim, it.size.value, settings);
        if (problem) warnings.push({ itemId: it._id, code: 'too_large', message: problem });
        else designs.push(engineDesign(it));
      }
    }
    let layout = rendered?.layout ?? null;
    let shapeSaving: PrintPreviewDto['shapeSaving'] = null;
    if (!rendered && designs.length) {
      const limit = this.config.prints.previewTimeLimitMs;
      if (settings.nesting === 'shape') {
        const cmp = await this.engine.compare(await withMasks(this.db.manager, designs, items), settings, limit);
        layout = storedLayout(cmp.shape);
        shapeSaving = {
          boxLength: round3(cmp.box.totalLength),
          savedLength: round3(cmp.savedLength),
          savedFraction: +cmp.savedFraction.toFixed(4),
        };
      } else layout = storedLayout(await this.engine.layout(designs, settings, limit));
    }
    const report = designs.length ? this.engine.report(designs) : [];
    const byItem = new Map(designs.map((d) => [d.id, d]));
    const imageOf = new Map(items.map((i) => [i._id, i.imageId!]));
    for (const r of report) {
      if (r.lowResolution)
        warnings.push({
          itemId: r.designId,
          code: 'low_resolution',
          message: `"${items.find((i) => i._id === r.designId)?.image?.name}" prints at ${r.effectiveDpi} DPI (below ${LOW_DPI_THRESHOLD}); it may look soft or pixelated.`,
        });
    }
    // Only the designs that can be laid out are counted: an item that blocks processing is
    // shown with its warning, not charged for in the figure the seller sees.
    const copies = designs.reduce((a, d) => a + d.quantity, 0);
    return {
      rendered: !!rendered?.layout,
      settings,
      sheets: (layout?.sheets ?? []).map((s) => ({
        index: s.index,
        width: settings.width,
        length: s.length,
        widthPx: s.widthPx,
        lengthPx: s.lengthPx,
        copies: s.placements.length,
        placements: s.placements.map((p) => ({
          itemId: p.itemId,
          imageId: imageOf.get(p.itemId)!,
          x: p.x,
          y: p.y,
          width: p.width,
          height: p.height,
          rotated: p.rotated,
          rotation: rotationOf(p),
        })),
      })),
      totalLength: layout?.totalLength ?? 0,
      shapeSaving,
      density: layout ? +layout.density.toFixed(4) : 0,
      copies,
      creditCost: copies,
      items: report.map((r) => ({
        itemId: r.designId,
        imageId: imageOf.get(r.designId)!,
        quantity: r.quantity,
        printedWidth: byItem.get(r.designId)!.width,
        printedHeight: r.printedHeight,
        effectiveDpi: r.effectiveDpi,
        lowResolution: r.lowResolution,
      })),
      warnings,
      canProcess: items.length > 0 && !warnings.some((w) => w.code !== 'low_resolution'),
    };
  }

  // ---- processing ----

  /**
   * Charges and starts processing, once: the status UPDATE is conditional and in the same
   * transaction as the charge, so concurrent requests serialise on the row and only the first
   * finds the print processable. The job id is derived from the attempt, so the enqueue is
   * idempotent as well.
   */
  async startProcessing(user: User, printId: string, dto: ProcessPrintDto): Promise<Print> {
    // Everything that reads outside the transaction happens before it: a request holding a
    // pool connection (an open transaction) must never wait for a second one, or a burst of
    // requests larger than the pool deadlocks it (issue 8, item 1).
    const settings = await this.sheetSettings.resolve(user._id, dto.presetId, dto.settings);
    const free = await freeBytes(this.storage.root);
    const { attempt } = await this.db.transaction(async (m) => {
      const print = await this.find(user._id, printId, m);
      assertStatus(print.status, PROCESSABLE, MSG.notProcessable(print.status));
      const items = print.items ?? [];
      if (!items.length) throw new BadRequestException({ message: MSG.noItems, code: 'no_items' });
      if (items.some((i) => !i.image)) throw new BadRequestException({ message: MSG.imageMissing, code: 'image_missing' });
      if (items.some((i) => !i.size)) throw new BadRequestException({ message: MSG.sizeMissing, code: 'size_missing' });
      // --- public API (issue 13): an image still being inspected does not stop processing; the
      // job waits for it (PrintJobService.waitForImages) and checks its fit then. A failed one does.
      const inspected = items.filter((it) => it.image!.status === ImageStatus.Ready && it.image!.trim && it.image!.width && it.image!.height);
      for (const it of items) {
        const img = it.image!;
        if (img.status === ImageStatus.Error) throw new BadRequestException({ message: notReadyMessage(img), code: 'image_not_ready' });
        if (!inspected.includes(it)) continue;
        const problem = fitProblem(img.name, img.trim!, it.size!.value, settings);
        if (problem) throw new BadRequestException({ message: problem, code: 'design_too_large' });
      }
      this.checkBudget(inspected, settings, free);
      // --- end public API
      const cost = items.reduce((a, i) => a + i.quantity, 0);
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
      // recovery sweep finds the row and enqueues it (issue 8, item 3b).
      await this.outbox.write<ProcessJobData>(m, processJob(printId, attempt, this.config.prints.jobAttempts));
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
    return this.find(user._id, printId);
  }

  /**
   * Bounded work, before anything is charged: the print's pixels (a lower bound from its items)
   * within PRINT_MAX_PIXELS, and room for its temporary rasters and files on DATA_DIR.
   */
  private checkBudget(items: PrintItem[], settings: SheetSettingsValues, free: number) {
    const work = estimateWork(
      items.map((i) => ({ trim: i.image!.trim!, widthIn: i.size!.value, quantity: i.quantity })),
      settings,
    );
    const max = this.config.prints.maxPixels;
    if (work.pixels > max)
      throw new BadRequestException({
        message: `This print would render at least ${gigapixels(work.pixels)} gigapixels; the limit is ${gigapixels(max)}. Lower the DPI, use fewer copies or split it into several prints.`,
        code: 'print_too_large',
      });
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
    const print = await this.find(userId, printId);
    const ended = await this.db.transaction((m) =>
      endAttemptWithRefund(m, this.credits, { printId, userId, status: PrintStatus.InDraft, error: null, note: 'Refund: processing cancelled' }),
    );
    if (!ended) throw new ConflictException({ message: MSG.notCancellable(print.status), code: 'invalid_status' });
    // Files are not touched here: a running render is stopped (at once in this process, within
    // PRINT_CANCEL_POLL_MS in a worker) and removes its own run folder; nothing else was written.
    this.cancellations.abort(printId, ended.attempt);
    this.realtime.emitToUser(userId, `print-${userId}`, { printId, status: PrintStatus.InDraft });
    return this.find(userId, printId);
  }

  // ---- deleting ----

  /** Removes the sheet files only; the print becomes Deleted and can be processed again. */
  async deleteFiles(userId: string, printId: string): Promise<Print> {
    const print = await this.find(userId, printId);
    if (print.status === PrintStatus.Deleted) throw new ConflictException({ message: MSG.alreadyDeleted, code: 'invalid_status' });
    assertStatus(print.status, DELETABLE, MSG.notDeletable);
    const allowed = DELETABLE.filter((s) => s !== PrintStatus.Deleted);
    const rows = returned(
      await this.db.query(
        `UPDATE prints SET status = 'Deleted', files = '[]', files_deleted_at = CASE WHEN jsonb_array_length(files) > 0 THEN now() ELSE files_deleted_at END,
           updated_at = now() WHERE id = $1 AND user_id = $2 AND status = ANY($3) RETURNING id`,
        [printId, userId, allowed],
      ),
    );
    if (!rows.length) throw new ConflictException({ message: MSG.notDeletable, code: 'invalid_status' });
    await this.storage.deletePrefix(printFolder(userId, printId));
    return this.find(userId, printId);
  }

  /** Removes the print, its items and its files. */
  async forceDelete(userId: string, printId: string): Promise<void> {
    const print = await this.find(userId, printId);
    assertStatus(print.status, DELETABLE, MSG.notDeletable);
    const rows = returned(await this.db.query(`DELETE FROM prints WHERE id = $1 AND user_id = $2 AND status = ANY($3) RETURNING id`, [printId, userId, DELETABLE]));
    if (!rows.length) throw new ConflictException({ message: MSG.notDeletable, code: 'invalid_status' });
    await this.storage.deletePrefix(printFolder(userId, printId));
  }

  // ---- files ----

  /** A sheet file of a print, for its owner or an admin; 404 for anyone else. */
  async sheetFile(user: User, printId: string, n: number, kind: 'png' | 'preview') {
    const where = user.role === Role.Admin ? { _id: printId } : { _id: printId, userId: user._id };
    const print = await this.db.getRepository(Print).findOne({ where });
    if (!print) throw new NotFoundException(MSG.notFound);
    const file = print.files.find((f) => f.n === n);
    if (!file) {
      if (print.filesDeletedAt) throw new GoneException('The files of this print have been deleted.');
      throw new NotFoundException('File not found');
    }
    const key = kind === 'png' ? file.key : file.previewKey;
    if (!(await this.storage.exists(key))) throw new GoneException('The files of this print have been deleted.');
    return {
      stream: this.storage.read(key),
      bytes: await this.storage.size(key),
      type: kind === 'png' ? 'image/png' : 'image/webp',
      name: `print-${printId.slice(0, 8)}-sheet-${n}.${kind === 'png' ? 'png' : 'webp'}`,
    };
  }
}

function dayStart(v: string): Date {
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00.000Z` : v);
}

function dayEnd(v: string): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return new Date(new Date(`${v}T00:00:00.000Z`).getTime() + 86_400_000);
  return new Date(new Date(v).getTime() + 1);
}

function notReadyMessage(img: Image): string {
  return img.status === ImageStatus.Error
    ? `Image "${img.name}" could not be read. Please replace it.`
    : `Image "${img.name}" is still being processed. Please try again in a moment.`;
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}

/**
 * The designs with their images' ink masks, for "shape" nesting. Masks are not loaded with
 * images (select: false; up to ~44 KB each), only here. An image without one (opaque, or
 * uploaded before masks were measured) is nested as its rectangle.
 */
export async function withMasks(m: EntityManager, designs: EngineDesign[], items: readonly PrintItem[]): Promise<EngineDesign[]> {
  const imageOf = new Map(items.map((i) => [i._id, i.imageId]));
  const ids = [...new Set(designs.map((d) => imageOf.get(d.id)).filter((id): id is string => !!id))];
  if (!ids.length) return designs;
  const rows = await m.find(Image, { where: { _id: In(ids) }, select: { _id: true, mask: true } });
  const masks = new Map<string, DesignMask | null>(rows.map((r) => [r._id, r.mask]));
  return designs.map((d) => ({ ...d, mask: masks.get(imageOf.get(d.id) ?? '') ?? null }));
}

export function engineDesign(it: PrintItem): EngineDesign {
  const img = it.image!;
  return {
    id: it._id,
    file: img.fileKey,
    widthPx: img.width!,
    heightPx: img.height!,
    trim: img.trim!,
    width: printedSize(img.trim!, it.size!.value).width,
    quantity: it.quantity,
    vector: img.mime === 'image/svg+xml',
  };
}
