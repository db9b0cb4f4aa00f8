import { BadRequestException, ConflictException, HttpException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { likePattern, paginate } from '../common/pagination';
import { PrintType } from '../prints/entities/print.entity';
import { PrintDraftsService } from '../prints/print-drafts.service';
import { PrintFilesService } from '../prints/print-files.service';
import { PrintLayoutService } from '../prints/print-layout.service';
import { PrintPreviewService } from '../prints/print-preview.service';
import { PrintsService } from '../prints/prints.service';
import { SheetSettingsValues } from '../sheet-settings/entities/sheet-settings.entity';
import { SheetSettingsService } from '../sheet-settings/sheet-settings.service';
import { SizesService } from '../sizes/sizes.service';
import { CreatePrintFromTemplateDto, CreateTemplateDto, TemplateListQueryDto, toTemplateDto } from './dto/template.dto';
import { SheetTemplate, TemplateSettings } from './entities/sheet-template.entity';
import { PlacedCopy, placeInSlots, SlotFill, slotName, slotsFromCopies, slotsOffSheet, TemplateSlot } from './template-slots';

export const TEMPLATE_MSG = {
  notFound: 'Template not found',
  nothingLaidOut: 'This print has nothing laid out yet: add items whose images are ready first.',
};

const SORT_COLUMNS = { name: 't.name', createdAt: 't.created_at' } as const;

/** The settings a template keeps: the layout's, without file formats; order labels belong to shop orders, not templates. */
const templateSettings = (s: Omit<SheetSettingsValues, 'formats'>): TemplateSettings => ({
  width: Number(s.width),
  maxLength: Number(s.maxLength),
  gap: Number(s.gap),
  margin: Number(s.margin),
  dpi: Number(s.dpi),
  rotate: !!s.rotate,
  nesting: s.nesting === 'box' ? 'box' : 'shape',
  orderLabels: null,
});

/**
 * Sheet templates: a seller saves where the designs of a layout went (the slots), then starts
 * new prints with other artwork in the same places. A print made from a template is an
 * ordinary draft whose saved edited layout (prints' edited-layout contract, checked there)
 * puts each copy in its slot. Only the owner sees or changes a template.
 */
@Injectable()
export class TemplatesService {
  constructor(
    @InjectRepository(SheetTemplate) private readonly templates: Repository<SheetTemplate>,
    private readonly prints: PrintsService,
    private readonly drafts: PrintDraftsService,
    private readonly previews: PrintPreviewService,
    private readonly layouts: PrintLayoutService,
    private readonly files: PrintFilesService,
    private readonly sheetSettings: SheetSettingsService,
    private readonly sizes: SizesService,
  ) {}

  async list(userId: string, q: TemplateListQueryDto) {
    const page = q.page ?? 1;
    const limit = q.limit ?? 10;
    const qb = this.templates.createQueryBuilder('t').where('t.user_id = :userId', { userId });
    if (q.search?.trim()) qb.andWhere('t.name ILIKE :s', { s: likePattern(q.search.trim()) });
    const dir = q.sort ? (q.sort.toUpperCase() as 'ASC' | 'DESC') : q.sortBy === 'name' ? 'ASC' : 'DESC';
    qb.orderBy(SORT_COLUMNS[q.sortBy ?? 'createdAt'], dir).addOrderBy('t.id', dir);
    const [rows, total] = await qb.offset((page - 1) * limit).limit(limit).getManyAndCount();
    return paginate(rows.map(toTemplateDto), total, limit);
  }

  async get(userId: string, id: string): Promise<SheetTemplate> {
    const t = await this.templates.findOne({ where: { _id: id, userId } });
    if (!t) throw new NotFoundException(TEMPLATE_MSG.notFound);
    return t;
  }

  async create(userId: string, dto: CreateTemplateDto): Promise<SheetTemplate> {
    const { settings, slots } = dto.printId ? await this.fromPrint(userId, dto.printId, dto.sheet) : await this.fromSlots(userId, dto);
    const saved = await this.templates.save(this.templates.create({ userId, name: dto.name, settings, slots }));
    return this.get(userId, saved._id);
  }

  async rename(userId: string, id: string, name: string): Promise<SheetTemplate> {
    await this.get(userId, id);
    await this.templates.update({ _id: id, userId }, { name });
    return this.get(userId, id);
  }

  async remove(userId: string, id: string): Promise<void> {
    const res = await this.templates.delete({ _id: id, userId });
    if (!res.affected) throw new NotFoundException(TEMPLATE_MSG.notFound);
  }

  /**
   * The slots of a print's layout as its detail shows it: the saved edit when it has one,
   * otherwise its preview (the rendered layout of a Completed print, or the engine's).
   */
  private async fromPrint(userId: string, printId: string, sheet?: number) {
    const print = await this.prints.find(userId, printId);
    const names = new Map((print.items ?? []).map((i) => [i._id, { label: i.image?.name ?? null, sizeName: i.size?.name ?? null, sizeValue: i.size ? Number(i.size.value) : null }]));
    const none = { label: null, sizeName: null, sizeValue: null };
    let settings: Omit<SheetSettingsValues, 'formats'>;
    let copies: PlacedCopy[];
    const edited = await this.layouts.get(userId, printId);
    if (edited) {
      settings = edited.settings;
      copies = edited.copies.map((c) => ({ sheet: c.sheet, x: c.x, y: c.y, width: c.width, height: c.height, rotation: c.rotation, ...(names.get(c.itemId) ?? none) }));
    } else {
      const preview = await this.previews.preview(userId, printId, { settings: print.settings ?? undefined });
      settings = preview.settings;
      copies = preview.sheets.flatMap((s) =>
        s.placements.map((p) => ({ sheet: s.index, x: p.x, y: p.y, width: p.width, height: p.height, rotation: p.rotation, ...(names.get(p.itemId) ?? none) })),
      );
    }
    if (!copies.length) throw new ConflictException({ message: TEMPLATE_MSG.nothingLaidOut, code: 'nothing_laid_out' });
    if (sheet !== undefined && !copies.some((c) => c.sheet === sheet)) {
      const sheets = Math.max(...copies.map((c) => c.sheet)) + 1;
      throw new BadRequestException({ message: `The print has ${sheets} sheet${sheets === 1 ? '' : 's'}; sheet ${sheet + 1} does not exist.`, code: 'no_such_sheet', errors: [{ field: 'sheet', code: 'no_such_sheet', message: 'No such sheet' }] });
    }
    return { settings: templateSettings(settings), slots: slotsFromCopies(copies, sheet) };
  }

  /** Explicit slots on the given settings (on top of the seller's): every slot must lie on the sheet. */
  private async fromSlots(userId: string, dto: CreateTemplateDto) {
    const settings = templateSettings(await this.sheetSettings.resolve(userId, null, dto.settings));
    const slots = slotsFromCopies((dto.slots ?? []).map((s) => ({ ...s, label: s.label ?? null, sizeName: s.sizeName ?? null, sizeValue: s.sizeValue ?? null })));
    const off = slotsOffSheet(slots, settings);
    if (off.length)
      throw new BadRequestException({
        message: off[0].message + (off.length > 1 ? ` (and ${off.length - 1} more)` : ''),
        code: 'slot_off_sheet',
        errors: off.map((o) => ({ field: `slots[${o.index}]`, code: 'slot_off_sheet', message: o.message })),
      });
    return { settings, slots };
  }

  /**
   * A new draft print with the chosen artwork in the template's slots: one item per image and
   * size (the same pair twice is one item of quantity 2), the template's sheet settings, and a
   * saved edited layout with each copy turned as its slot and centred in the slot's box (all
   * pinned). A copy larger than its slot, or copies that do not keep the gap, are refused with
   * 400 naming the slots, and nothing is kept. `test`: made with a test key (a test print).
   */
  async createPrint(userId: string, templateId: string, dto: CreatePrintFromTemplateDto, test: boolean) {
    const t = await this.get(userId, templateId);
    const fillErrors: { field: string; code: string; message: string }[] = [];
    const seen = new Set<number>();
    dto.items.forEach((f, i) => {
      if (f.slot >= t.slots.length) fillErrors.push({ field: `items[${i}].slot`, code: 'unknown_slot', message: `There is no slot ${f.slot + 1}: the template has ${t.slots.length} slot${t.slots.length === 1 ? '' : 's'}.` });
      else if (seen.has(f.slot)) fillErrors.push({ field: `items[${i}].slot`, code: 'duplicate_slot', message: `The ${slotName(t.slots, f.slot)} is filled twice.` });
      seen.add(f.slot);
    });
    if (fillErrors.length) throw new BadRequestException({ message: fillErrors[0].message, code: fillErrors[0].code, errors: fillErrors });
    const sizeIds = await this.defaultSizes(userId, t.slots, dto);
    const settings: SheetSettingsValues = { ...t.settings, formats: ['png'] };
    // one item per image and size; each fill is one copy of its item, in the order given
    const groups = new Map<string, { imageId: string; sizeId: string; fills: number[] }>();
    dto.items.forEach((f, i) => {
      const key = `${f.imageId}|${sizeIds[i]}`;
      const g = groups.get(key) ?? { imageId: f.imageId, sizeId: sizeIds[i], fills: [] };
      g.fills.push(i);
      groups.set(key, g);
    });
    const print = await this.drafts.create(userId, { printItems: [...groups.values()].map((g) => ({ imageId: g.imageId, sizeId: g.sizeId, quantity: g.fills.length })) }, PrintType.Manual, test, settings);
    try {
      const items = print.items ?? [];
      const sizes = await this.layouts.copySizes(userId, print._id, settings);
      const fills: SlotFill[] = [];
      for (const g of groups.values()) {
        const item = items.find((i) => i.imageId === g.imageId && i.sizeId === g.sizeId)!;
        const size = sizes.get(item._id)!;
        g.fills.forEach((fi, copy) => fills.push({ slot: dto.items[fi].slot, itemId: item._id, copy, width: size.width, height: size.height, name: item.image?.name ?? 'design' }));
      }
      const placed = placeInSlots(t.slots, fills, settings.dpi);
      if (placed.problems.length) {
        const fieldOf = (slot: number) => `items[${dto.items.findIndex((f) => f.slot === slot)}]`;
        throw new BadRequestException({
          message: placed.problems[0].message + (placed.problems.length > 1 ? ` (and ${placed.problems.length - 1} more)` : ''),
          code: 'slot_too_small',
          errors: placed.problems.map((p) => ({ field: fieldOf(p.slot), code: 'slot_too_small', message: p.message })),
        });
      }
      await this.layouts.save(userId, print._id, { settings, copies: placed.copies }).catch((e) => {
        throw this.inSlotWords(e, t.slots, dto, fills, placed.copies);
      });
      return this.prints.find(userId, print._id);
    } catch (e) {
      // nothing is kept of a print that could not be made from the template
      await this.files.forceDelete(userId, print._id).catch(() => undefined);
      throw e;
    }
  }

  /** Each fill's size: the one chosen, else the seller's size of the slot's printed width (same name first). */
  private async defaultSizes(userId: string, slots: readonly TemplateSlot[], dto: CreatePrintFromTemplateDto): Promise<string[]> {
    if (dto.items.every((f) => f.sizeId)) return dto.items.map((f) => f.sizeId!);
    const mine = (await this.sizes.list(userId, { page: 1, limit: 999 })).data;
    const errors: { field: string; code: string; message: string }[] = [];
    const ids = dto.items.map((f, i) => {
      if (f.sizeId) return f.sizeId;
      const slot = slots[f.slot];
      const same = slot.sizeValue === null ? [] : mine.filter((s) => Math.abs(Number(s.value) - slot.sizeValue!) < 0.0005);
      const pick = same.find((s) => s.name === slot.sizeName) ?? same[0];
      if (!pick) {
        const message = `Choose a size for the ${slotName(slots, f.slot)}${slot.sizeValue === null ? '' : `: you have no ${slot.sizeValue} in size`}.`;
        errors.push({ field: `items[${i}].sizeId`, code: 'size_required', message });
        return '';
      }
      return pick._id;
    });
    if (errors.length) throw new BadRequestException({ message: errors[0].message, code: 'size_required', errors });
    return ids;
  }

  /** The layout check's refusal, with the slots named instead of the copies. */
  private inSlotWords(e: unknown, slots: readonly TemplateSlot[], dto: CreatePrintFromTemplateDto, fills: readonly SlotFill[], copies: readonly { itemId: string; copy: number }[]) {
    if (!(e instanceof HttpException) || e.getStatus() !== 400) return e;
    const body = e.getResponse() as { code?: string; message?: string; errors?: { field: string; code: string; message: string }[] };
    if (body.code !== 'layout_invalid') return e;
    const slotOf = (i: number) => fills.find((f) => f.itemId === copies[i]?.itemId && f.copy === copies[i]?.copy)?.slot;
    const named = new Set<number>();
    const errors = (body.errors ?? []).flatMap((err) => {
      const m = /^copies\[(\d+)\]$/.exec(err.field);
      const slot = m ? slotOf(Number(m[1])) : undefined;
      if (slot === undefined) return [];
      named.add(slot);
      return [{ field: `items[${dto.items.findIndex((f) => f.slot === slot)}]`, code: err.code, message: err.message }];
    });
    const which = [...named].sort((a, b) => a - b).map((s) => slotName(slots, s));
    const why = String(body.message ?? '').replace(/^The layout cannot be saved: /, '');
    return new BadRequestException({
      message: `The artwork does not fit the template${which.length ? ` at ${which.join(' and ')}` : ''}: ${why}`,
      code: 'layout_invalid',
      errors,
    });
  }
}
