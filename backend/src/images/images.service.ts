import { ConflictException, Inject, Injectable, Logger, NotFoundException, OnModuleInit } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, In, IsNull, Repository } from 'typeorm';
import { afterCursor, invalidCursor, likePattern, paginate } from '../common/pagination';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { JOB_RUNNER } from '../queue/queue.module';
import { NotificationsService } from '../notifications/notifications.service';
import { JobName } from '../queue/jobs';
import { JobRunner } from '../queue/queue.types';
import { PrintsReadService } from '../prints/prints-read.service';
import { RealtimeService } from '../realtime/realtime.service';
import { StorageService } from '../storage/storage.service';
import { Role, User } from '../users/entities/user.entity';
import { BulkImageCategoryDto, ImageDto, ImageListQueryDto, toImageDto, UpdateImageDto, UploadErrorDto, UploadImagesDto } from './dto/image.dto';
import { ImageCategory } from './entities/image-category.entity';
import { Image, ImageStatus } from './entities/image.entity';
import { EXTENSION, ImageKind, MIME, UploadError } from './image-content';
import { ImageInspectorService, ImageStepError } from './image-inspector.service';
import { imageDtoFromRow, ImageListRow, LIST_SELECT } from './image-list-row';
import { SpooledFile } from './upload-storage';

export const previewJobId = (imageId: string) => `image-preview:${imageId}`;

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
/** A search's total is exact up to this many matches (see `count`); beyond it the answer says `totalCapped`. */
export const SEARCH_COUNT_CAP = 1_000;
const SORT_COLUMNS = { name: 'lower(i.name)', createdAt: 'i.created_at', score: 'i.score', usedInPrint: 'i.used_in_print' } as const;
const KIND_BY_MIME: Record<string, ImageKind> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/svg+xml': 'svg' };

/** Display name: the uploaded file name without its extension. */
export function displayName(fileName: string): string {
  const base = fileName.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '').trim();
  return (base || 'image').slice(0, 200);
}

@Injectable()
export class ImagesService implements OnModuleInit {
  private readonly logger = new Logger('Images');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(Image) private readonly images: Repository<Image>,
    @InjectRepository(ImageCategory) private readonly categories: Repository<ImageCategory>,
    @InjectDataSource() private readonly db: DataSource,
    @Inject(JOB_RUNNER) private readonly jobs: JobRunner,
    private readonly storage: StorageService,
    private readonly inspector: ImageInspectorService,
    private readonly printUsage: PrintsReadService,
    private readonly realtime: RealtimeService,
    private readonly notifications: NotificationsService,
  ) {}

  onModuleInit() {
    // Two at once (each seller at most concurrency − 1, see jobGroup): one slow file never takes every slot.
    this.jobs.process(JobName.ImagePreview, (job) => this.makePreview(job.data.imageId), {
      concurrency: this.config.images.jobConcurrency,
      onFailed: (job, error) => this.previewFailed(job.data.imageId, error),
    });
  }

  /**
   * One page of the library in one plain statement, mapped by image-list-row.ts: the page's
   * rows carry the total in a column (computed once per statement).
   */
  async list(userId: string, q: ImageListQueryDto) {
    const page = q.page ?? 1;
    const limit = q.limit ?? 50;
    const sortBy = q.sortBy ?? 'createdAt';
    const dir = (q.sort ?? (sortBy === 'name' ? 'asc' : 'desc')).toUpperCase() as 'ASC' | 'DESC';
    const params: unknown[] = [userId];
    const where: string[] = ['i.user_id = $1', 'i.deleted_at IS NULL'];
    const search = q.search?.trim();
    if (search) where.push(`i.name ILIKE $${params.push(likePattern(search))}`);
    if (q.imageCategory === 'none') where.push('i.category_id IS NULL');
    else if (q.imageCategory) {
      if (!isUuid(q.imageCategory)) return { ...paginate<ImageDto>([], 0, limit), hasMore: false };
      where.push(`i.category_id = $${params.push(q.imageCategory)}`);
    }
    const condition = where.join(' AND ');
    const filterParams = [...params];
    if (q.startingAfter && !(await this.images.exists({ where: { _id: q.startingAfter, userId } }))) throw invalidCursor();
    const sort = SORT_COLUMNS[sortBy];
    let sql = `SELECT ${LIST_SELECT}, ${this.totalSql(q, condition, (v) => `$${params.push(v)}`)} AS total
                 FROM images i LEFT JOIN image_categories c ON c.id = i.category_id WHERE ${condition}`;
    if (q.startingAfter) sql += ` AND ${afterCursor('images', 'i', sort, dir, `$${params.push(q.startingAfter)}`)}`;
    // id breaks ties so pages never overlap; same direction keeps one index scan
    sql += ` ORDER BY ${sort} ${dir}, i.id ${dir} LIMIT $${params.push(limit + 1)}`;
    if (!q.startingAfter) sql += ` OFFSET $${params.push((page - 1) * limit)}`;
    const rows: Array<ImageListRow & { total: number }> = await this.db.query(sql, params);
    const count = rows.length ? rows[0].total : await this.count(userId, q, condition, filterParams);
    const capped = !!search && count > SEARCH_COUNT_CAP;
    return { ...paginate(rows.slice(0, limit).map(imageDtoFromRow), capped ? SEARCH_COUNT_CAP : count, limit, capped), hasMore: rows.length > limit };
  }

  /**
   * The list's total as a scalar subquery. Without a search it comes from the trigger-kept
   * counters (see migration ImageLibraryCounts). A search counts its matches up to one past
   * SEARCH_COUNT_CAP: a broad search in a library of 50,000 would otherwise check every match
   * on every page turn. `bind` adds a parameter and answers its placeholder.
   */
  private totalSql(q: ImageListQueryDto, condition: string, bind: (value: unknown) => string): string {
    if (q.search?.trim()) return `(SELECT count(*)::int FROM (SELECT 1 FROM images i WHERE ${condition} LIMIT ${SEARCH_COUNT_CAP + 1}) m)`;
    const category = q.imageCategory === 'none' ? NIL_UUID : q.imageCategory;
    return `(SELECT coalesce(sum(images), 0)::int FROM image_library_counts WHERE user_id = $1${category ? ` AND category_key = ${bind(category)}` : ''})`;
  }

  /** The total alone, for a page past the end (no row to carry it). */
  private async count(userId: string, q: ImageListQueryDto, condition: string, filterParams: unknown[]): Promise<number> {
    const params = q.search?.trim() ? [...filterParams] : [userId];
    const [row] = await this.db.query(`SELECT ${this.totalSql(q, condition, (v) => `$${params.push(v)}`)} AS n`, params);
    return row?.n ?? 0;
  }

  /** The owner's image, including one deleted from the library but kept for completed prints. */
  async get(userId: string, id: string): Promise<Image> {
    const image = await this.images.findOne({ where: { _id: id, userId }, relations: { category: true } });
    if (!image) throw new NotFoundException('Image not found');
    return image;
  }

  private async getLive(userId: string, id: string): Promise<Image> {
    const image = await this.get(userId, id);
    if (image.deletedAt) throw new NotFoundException('Image not found');
    return image;
  }

  /** For other features (prints, orders): the owner's live images with these ids. */
  async findOwned(userId: string, ids: string[]): Promise<Image[]> {
    if (!ids.length) return [];
    return this.images.find({ where: { _id: In(ids), userId, deletedAt: IsNull() } });
  }

  /** The seller's live image holding exactly these bytes (an imported design), if any. */
  async findByContentHash(userId: string, hash: string): Promise<Image | null> {
    return this.images.findOne({ where: { userId, contentHash: hash, deletedAt: IsNull() } });
  }

  /**
   * Records which bytes an image holds, so the same file imported again reuses it. False when
   * another of the seller's live images already holds them (two imports of one file at once).
   */
  async setContentHash(id: string, hash: string): Promise<boolean> {
    try {
      await this.images.update({ _id: id }, { contentHash: hash });
      return true;
    } catch (e) {
      if ((e as { code?: string })?.code === '23505') return false;
      throw e;
    }
  }

  /** How prints use these images (see PrintsReadService). */
  private async category(userId: string, id: string | null | undefined): Promise<ImageCategory | null> {
    if (!id) return null;
    const category = await this.categories.findOne({ where: { _id: id, userId } });
    if (!category) throw new NotFoundException('Category not found');
    return category;
  }

  /**
   * Stores the acceptable files and reports the others by name. Each image is all or
   * nothing: the file is moved into storage first and removed again if its row cannot be
   * written, so there is never a row without a file or a file without a row.
   */
  async upload(user: User, files: SpooledFile[], dto: UploadImagesDto): Promise<{ data: ImageDto[]; errors: UploadErrorDto[] }> {
    const category = await this.category(user._id, dto.imageCategoryId);
    const data: ImageDto[] = [];
    const errors: UploadErrorDto[] = [];
    const maxMb = Math.round((this.config.uploads.maxFileBytes / 1024 / 1024) * 10) / 10;
    // One at a time: decoding is CPU-bound and the machine is shared.
    for (const file of files) {
      const name = file.originalname || 'file';
      if (file.tooLarge) {
        errors.push({ name, message: UploadError.tooLarge(maxMb) });
        continue;
      }
      const inspection = await this.inspector.inspect(file.path, file.size);
      if (!inspection.ok) {
        errors.push({ name, message: inspection.error });
        continue;
      }
      const id = randomUUID();
      const key = `users/${user._id}/images/${id}.${EXTENSION[inspection.kind]}`;
      try {
        await this.storage.adopt(file.path, key);
      } catch (e) {
        this.logger.error(`storing ${name}: ${e}`);
        errors.push({ name, message: 'The file could not be stored. Please try again.' });
        continue;
      }
      let image: Image;
      try {
        image = await this.images.save(
          this.images.create({
            _id: id,
            userId: user._id,
            name: displayName(name),
            categoryId: category?._id ?? null,
            score: dto.score ?? 0,
            originalName: name.slice(0, 255),
            fileKey: key,
            mime: MIME[inspection.kind],
            bytes: file.size,
            width: inspection.width,
            height: inspection.height,
            status: ImageStatus.Processing,
          }),
        );
      } catch (e) {
        this.logger.error(`saving ${name}: ${e}`);
        await this.storage.delete(key).catch(() => undefined);
        errors.push({ name, message: 'The image could not be saved. Please try again.' });
        continue;
      }
      await this.queuePreview(image);
      data.push(toImageDto(image, category));
    }
    // notifications hook: upload problem
    if (errors.length) await this.notifications.notify(user._id, { type: 'image', message: `${errors.length === 1 ? `"${errors[0].name}" was` : `${errors.length} files were`} not uploaded: ${errors.map((e) => e.message).filter((m, i, all) => all.indexOf(m) === i).join(' ')}` });
    return { data, errors };
  }

  /**
   * Counts printed copies on the images' `usedInPrint` (the library's "used in print" sort),
   * inside the caller's transaction: the print job calls it when a print completes.
   */
  async addPrintedCopies(m: EntityManager, copiesByImage: ReadonlyMap<string, number>): Promise<void> {
    for (const [imageId, n] of copiesByImage) await m.increment(Image, { _id: imageId }, 'usedInPrint', n);
  }

  /** Also used by the recovery sweep for an image whose job was lost. */
  async queuePreview(image: Image) {
    try {
      await this.jobs.add(JobName.ImagePreview, { imageId: image._id, userId: image.userId }, { jobId: previewJobId(image._id), attempts: 2 });
    } catch (e) {
      this.logger.error(`queueing preview of ${image._id}: ${e}`);
      image.status = ImageStatus.Error;
      image.error = 'The preview could not be queued';
      await this.images.update({ _id: image._id }, { status: image.status, error: image.error });
    }
  }

  /**
   * The queue job: the art's bounds and ink mask, and the WebP preview. Returns what happened.
   * Each step has IMAGE_STEP_TIMEOUT_MS; one that runs out ends the image in Error with the
   * reason at once (trying again would take as long again).
   */
  async makePreview(imageId: string): Promise<'done' | 'skipped' | 'failed'> {
    const image = await this.images.findOne({ where: { _id: imageId } });
    // only a Processing image: one ended in Error (e.g. by the recovery sweep) stays so
    if (!image || image.status !== ImageStatus.Processing) return 'skipped';
    // our own record that the job runs (the recovery sweep judges a running job by it)
    await this.images.update({ _id: imageId, status: ImageStatus.Processing }, { updatedAt: new Date() });
    const kind = KIND_BY_MIME[image.mime];
    // decoded by path: the stored file, or a local copy of a bucket's
    const local = await this.storage.local([image.fileKey]);
    const path = local.path(image.fileKey);
    const width = image.width ?? 0;
    const height = image.height ?? 0;
    let art: Awaited<ReturnType<ImageInspectorService['measureArt']>>;
    let webp: Buffer;
    try {
      art = await this.inspector.measureArt(path, kind, width, height);
      webp = await this.inspector.preview(path, kind, width, height);
    } catch (e) {
      if (!(e instanceof ImageStepError)) throw e;
      await this.previewFailed(imageId, e, e.message);
      return 'failed';
    } finally {
      local.release();
    }
    const previewKey = `users/${image.userId}/images/${image._id}.preview.webp`;
    await this.storage.write(previewKey, webp, { contentType: 'image/webp' });
    const result = await this.images.update(
      { _id: imageId, status: ImageStatus.Processing },
      { trim: art?.trim ?? null, mask: art?.mask ?? null, previewKey, status: ImageStatus.Ready, error: null },
    );
    if (!result.affected) {
      // deleted (or ended by the recovery sweep) while the job ran
      await this.storage.delete(previewKey);
      return 'skipped';
    }
    await this.notify(imageId);
    return 'done';
  }

  /** Ends the image in Error; `reason`: the seller's explanation, when there is one. */
  async previewFailed(imageId: string, error: Error, reason?: string) {
    this.logger.warn(`preview of ${imageId} failed: ${error.message}`);
    await this.images.update({ _id: imageId }, { status: ImageStatus.Error, error: reason ?? 'The preview could not be made' });
    await this.notify(imageId);
    // notifications hook: inspection problem
    const failed = await this.images.findOne({ where: { _id: imageId } }); if (failed) await this.notifications.notify(failed.userId, { type: 'image', message: `The image "${failed.name}" could not be prepared. ${reason ?? 'Delete it and upload it again.'}`, attachmentId: imageId, dedupeKey: `image.failed:${imageId}` });
  }

  private async notify(imageId: string) {
    const image = await this.images.findOne({ where: { _id: imageId }, relations: { category: true } });
    if (image) this.realtime.emit(image.userId, 'image', { status: image.status, data: toImageDto(image) });
  }

  async update(userId: string, id: string, dto: UpdateImageDto): Promise<Image> {
    const image = await this.getLive(userId, id);
    const patch: Partial<Image> = { name: dto.name };
    if (dto.imageCategoryId !== undefined) patch.categoryId = (await this.category(userId, dto.imageCategoryId))?._id ?? null;
    if (dto.score !== undefined) patch.score = dto.score;
    await this.images.update({ _id: image._id }, patch);
    return this.get(userId, id);
  }

  async bulkUpdate(userId: string, items: BulkImageCategoryDto[]): Promise<Image[]> {
    const ids = [...new Set(items.map((i) => i._id))];
    const found = await this.findOwned(userId, ids);
    if (found.length !== ids.length) throw new NotFoundException('Image not found');
    const categoryIds = [...new Set(items.map((i) => i.imageCategoryId).filter((c): c is string => !!c))];
    if (categoryIds.length) {
      const count = await this.categories.count({ where: { _id: In(categoryIds), userId } });
      if (count !== categoryIds.length) throw new NotFoundException('Category not found');
    }
    const byCategory = new Map<string | null, string[]>();
    for (const item of items) byCategory.set(item.imageCategoryId ?? null, [...(byCategory.get(item.imageCategoryId ?? null) ?? []), item._id]);
    await this.db.transaction(async (m) => {
      for (const [categoryId, imageIds] of byCategory) {
        await m.update(Image, { _id: In(imageIds), userId }, { categoryId });
      }
    });
    return this.images.find({ where: { _id: In(ids), userId }, relations: { category: true }, order: { name: 'ASC' } });
  }

  /**
   * Refused as a whole when any image is in a print that can still change. Images used
   * only by finished prints are hidden from the library but kept (row and files) for
   * those prints; the rest are removed with their files.
   */
  async bulkDelete(userId: string, ids: string[]): Promise<{ deleted: string[]; kept: string[] }> {
    const unique = [...new Set(ids)];
    const removedKeys: string[] = [];
    const result = await this.db
      .transaction(async (m) => {
        const images = await m
          .createQueryBuilder(Image, 'i')
          .setLock('pessimistic_write')
          .where('i.id = ANY(:ids) AND i.user_id = :userId AND i.deleted_at IS NULL', { ids: unique, userId })
          .getMany();
        if (images.length !== unique.length) throw new NotFoundException('Image not found');
        const usage = await this.printUsage.usageOfImages(unique, m);
        const blocked = images.filter((i) => (usage.get(i._id)?.open ?? 0) > 0);
        if (blocked.length) throw new ConflictException({ message: blockedMessage(blocked.map((i) => i.name)), code: 'image_in_draft_print' });
        const kept = images.filter((i) => (usage.get(i._id)?.finished ?? 0) > 0).map((i) => i._id);
        const deleted = images.filter((i) => !kept.includes(i._id));
        if (kept.length) await m.update(Image, { _id: In(kept) }, { deletedAt: new Date() });
        if (deleted.length) await m.delete(Image, { _id: In(deleted.map((i) => i._id)) });
        for (const i of deleted) removedKeys.push(i.fileKey, ...(i.previewKey ? [i.previewKey] : []));
        return { deleted: deleted.map((i) => i._id), kept };
      })
      .catch((e) => {
        // a print item added concurrently (foreign key from print_items)
        if (e?.code === '23503') throw new ConflictException({ message: blockedMessage([]), code: 'image_in_draft_print' });
        throw e;
      });
    // Files go only once their rows are gone: a failure here leaves an orphan file, never a broken image.
    for (const key of removedKeys) await this.storage.delete(key).catch((e) => this.logger.warn(`deleting ${key}: ${e}`));
    return result;
  }

  /** A file of an image for its owner or an admin (also for images kept for completed prints). */
  async file(user: User, id: string, which: 'original' | 'preview') {
    const image = await this.images.findOne({ where: user.role === Role.Admin ? { _id: id } : { _id: id, userId: user._id } });
    if (!image) throw new NotFoundException('Image not found');
    if (which === 'preview') {
      if (!image.previewKey) throw new NotFoundException('The preview is not ready yet');
      return { key: image.previewKey, mime: 'image/webp', name: `${image.name}.webp`, bytes: await this.storage.size(image.previewKey) };
    }
    return { key: image.fileKey, mime: image.mime, name: image.originalName, bytes: image.bytes, svg: image.mime === MIME.svg };
  }
}

function blockedMessage(names: string[]): string {
  if (names.length === 1) return `"${names[0]}" is used by a print that is not completed. Remove it from the print first.`;
  if (names.length > 1) {
    const shown = names.slice(0, 5).map((n) => `"${n}"`).join(', ');
    return `${names.length} images are used by prints that are not completed (${shown}${names.length > 5 ? ', …' : ''}). Remove them from those prints first.`;
  }
  return 'An image is used by a print that is not completed. Remove it from the print first.';
}

function isUuid(v: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);
}
