import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { Image } from '../images/entities/image.entity';
import { RealtimeService } from '../realtime/realtime.service';
import { SheetSettingsValues } from '../sheet-settings/entities/sheet-settings.entity';
import { Size } from '../sizes/entities/size.entity';
import { CreatePrintDto, PrintItemInput, UpdatePrintItemDto } from './dto/print.dto';
import { PrintItem } from './entities/print-item.entity';
import { Print, PrintStatus, PrintType } from './entities/print.entity';
import { assertStatus, EDITABLE, MSG } from './prints.rules';
import { PrintsService } from './prints.service';

/**
 * Thrown as 404 unless every image (not in the trash) and size named belongs to `userId`.
 * Shared by draft editing and the draft preview.
 */
export async function checkOwnership(m: EntityManager, userId: string, items: Array<{ imageId?: string | null; sizeId?: string | null }>) {
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

/** A draft item made from a shop order line (shops: orders → print). */
export interface OrderPrintItemInput {
  imageId: string | null;
  sizeId: string | null;
  quantity: number;
  orderItemId: string;
}

/** Draft editing: create a print, add, change and remove its items (only while it is editable). */
@Injectable()
export class PrintDraftsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly prints: PrintsService,
    private readonly realtime: RealtimeService,
  ) {}

  /**
   * `test`: made in test mode (a test API key), see Print.test. `settings`: the sheet settings
   * the draft starts from (a print made from a template), as a duplicate carries its source's.
   */
  async create(
    userId: string,
    dto: CreatePrintDto | { printItems: Array<PrintItemInput | OrderPrintItemInput> },
    type = PrintType.Manual,
    test = false,
    settings: SheetSettingsValues | null = null,
  ): Promise<Print> {
    const refs = 'externalId' in dto || 'metadata' in dto ? { externalId: (dto as CreatePrintDto).externalId ?? null, metadata: (dto as CreatePrintDto).metadata ?? {} } : {};
    const id = await this.db
      .transaction(async (m) => {
        await checkOwnership(m, userId, dto.printItems);
        const print = await m.save(m.create(Print, { userId, type, status: PrintStatus.InDraft, files: [], test, settings, ...refs }));
        for (const item of dto.printItems) await this.addOrMerge(m, print._id, item);
        return print._id;
      })
      .catch(async (e) => {
        const err = e as { constraint?: string; driverError?: { constraint?: string } };
        if (refs.externalId && (err.constraint ?? err.driverError?.constraint) === 'prints_user_external_id') throw await this.externalIdTaken(userId, refs.externalId);
        throw e;
      });
    this.realtime.emit(userId, 'print', { printId: id, status: 'In Draft' });
    return this.prints.find(userId, id);
  }

  /** The 409 of a second print with an externalId the seller used already: it names the first. */
  private async externalIdTaken(userId: string, externalId: string): Promise<ConflictException> {
    const first = await this.db.getRepository(Print).findOne({ where: { userId, externalId }, select: { _id: true } });
    return new ConflictException({ message: `You already have a print with externalId "${externalId}": ${first?._id ?? 'deleted meanwhile'}.`, code: 'external_id_taken' });
  }

  /**
   * A new Manual draft with the items (image, size, quantity) and sheet settings of one of
   * the seller's prints, whatever its status: reprints are a daily job. Items whose design
   * was deleted or whose size is gone are left out and counted; with none left it is 409.
   * Shop order links are not copied: the new draft is a reprint, and the orders' statuses
   * keep following the print that fulfilled them. The copy is a test print when made in test
   * mode (`test`), whatever the original was.
   */
  async duplicate(userId: string, printId: string, test = false): Promise<{ print: Print; leftOut: number }> {
    const source = await this.prints.find(userId, printId);
    const items = source.items ?? [];
    const usable = items.filter((i) => i.imageId && i.sizeId && i.image && !i.image.deletedAt && i.size);
    if (!usable.length) throw new ConflictException({ message: MSG.nothingToDuplicate, code: 'nothing_to_duplicate' });
    const id = await this.db.transaction(async (m) => {
      const print = await m.save(m.create(Print, { userId, type: PrintType.Manual, status: PrintStatus.InDraft, files: [], settings: source.settings, test }));
      for (const i of usable) await this.addOrMerge(m, print._id, { imageId: i.imageId!, sizeId: i.sizeId!, quantity: i.quantity });
      return print._id;
    });
    this.realtime.emit(userId, 'print', { printId: id, status: 'In Draft' });
    return { print: await this.prints.find(userId, id), leftOut: items.length - usable.length };
  }

  async addItem(userId: string, printId: string, dto: PrintItemInput): Promise<Print> {
    await this.db.transaction(async (m) => {
      const print = await this.lockDraft(m, userId, printId);
      await checkOwnership(m, userId, [dto]);
      await this.addOrMerge(m, print._id, dto);
    });
    return this.prints.find(userId, printId);
  }

  async updateItem(userId: string, printId: string, itemId: string, dto: UpdatePrintItemDto): Promise<Print> {
    await this.db.transaction(async (m) => {
      const print = await this.lockDraft(m, userId, printId);
      const item = await m.findOne(PrintItem, { where: { _id: itemId, printId: print._id } });
      if (!item) throw new NotFoundException(MSG.itemNotFound);
      if (dto.imageId) await checkOwnership(m, userId, [{ imageId: dto.imageId }]);
      if (dto.sizeId) await checkOwnership(m, userId, [{ sizeId: dto.sizeId }]);
      if (dto.imageId !== undefined) item.imageId = dto.imageId;
      if (dto.sizeId !== undefined) item.sizeId = dto.sizeId;
      if (dto.quantity !== undefined) item.quantity = dto.quantity;
      // Changing an item into one that already exists (same image and size) merges the two.
      const twin =
        item.imageId && item.sizeId
          ? await m
              .getRepository(PrintItem)
              .createQueryBuilder('i')
              // an order line's item stays apart from others: its copies keep their order's labels
              .where('i.printId = :p AND i.imageId = :img AND i.sizeId = :sz AND i._id <> :id', { p: print._id, img: item.imageId, sz: item.sizeId, id: item._id })
              .andWhere('i.orderItemId IS NOT DISTINCT FROM :oi::uuid', { oi: item.orderItemId })
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
    return this.prints.find(userId, printId);
  }

  async removeItem(userId: string, printId: string, itemId: string): Promise<Print> {
    await this.db.transaction(async (m) => {
      const print = await this.lockDraft(m, userId, printId);
      const res = await m.delete(PrintItem, { _id: itemId, printId: print._id });
      if (!res.affected) throw new NotFoundException(MSG.itemNotFound);
    });
    return this.prints.find(userId, printId);
  }

  /** The print row locked, so an edit cannot slip in while processing starts. */
  private async lockDraft(m: EntityManager, userId: string, printId: string): Promise<Print> {
    const print = await m.findOne(Print, { where: { _id: printId, userId }, lock: { mode: 'pessimistic_write' } });
    if (!print) throw new NotFoundException(MSG.notFound);
    assertStatus(print.status, EDITABLE, MSG.notEditable);
    return print;
  }

  /** Adding the same image and size again adds to that item's quantity (see docs/prints.md). */
  private async addOrMerge(m: EntityManager, printId: string, dto: PrintItemInput | OrderPrintItemInput) {
    // Shops: an order item stays one print item (linked to its order line); its image or size may still be missing.
    if ('orderItemId' in dto) {
      await m.save(m.create(PrintItem, { printId, imageId: dto.imageId, sizeId: dto.sizeId, quantity: dto.quantity, orderItemId: dto.orderItemId }));
      return;
    }
    const existing = await m.findOne(PrintItem, { where: { printId, imageId: dto.imageId, sizeId: dto.sizeId } });
    if (existing) {
      existing.quantity += dto.quantity;
      await m.save(existing);
    } else {
      await m.save(m.create(PrintItem, { printId, imageId: dto.imageId, sizeId: dto.sizeId, quantity: dto.quantity, orderItemId: null }));
    }
  }
}
