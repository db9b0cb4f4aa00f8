import { BadRequestException, ConflictException, Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { returned } from '../common/sql';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { orderLabelsOn, SheetSettingsValues } from '../sheet-settings/entities/sheet-settings.entity';
import { SheetSettingsService } from '../sheet-settings/sheet-settings.service';
import { LayoutProblemDto, PrintLayoutDto, SaveLayoutDto } from './dto/print-layout.dto';
import { EngineDesign, FixedPlacementError, LayoutResult, PRINT_ENGINE, PrintEngine } from './engine.adapter';
import { Print } from './entities/print.entity';
import { engineDesign, withLabels, withMasks } from './print-designs';
import { layoutShapes, LayoutShapes } from './print-layout-shapes';
import {
  copyBox,
  footprintBox,
  EditedLayout,
  LayoutCopy,
  layoutBasis,
  LayoutPlan,
  layoutPlan,
  layoutSettings,
  layoutWithPlan,
  REPLACED_MESSAGE,
  toFixed,
} from './print-layout';
import { assertStatus, EDITABLE, itemProblem, MSG } from './prints.rules';
import { PrintsService } from './prints.service';

export const NOT_EDITABLE = 'The layout can be edited only while the print is In Draft or Deleted (before processing).';

/**
 * The seller's layout editor on the server: the saved edit (GET/PUT/DELETE layout), its
 * check (the engine's, see print-layout.ts checkLayout) and the re-nest of the unpinned copies
 * around the pinned ones (the engine's search with `fixed`). Preview and processing read the
 * saved edit through `plan`.
 */
@Injectable()
export class PrintLayoutService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PRINT_ENGINE) private readonly engine: PrintEngine,
    private readonly sheetSettings: SheetSettingsService,
    private readonly prints: PrintsService,
  ) {}

  /** The edited layout as saved (with the settings it was made for), or null. */
  async get(userId: string, printId: string): Promise<PrintLayoutDto | null> {
    const print = await this.prints.find(userId, printId);
    const edited = await this.edited(printId);
    if (!edited) return null;
    const { designs } = await this.designs(print, edited.settings as SheetSettingsValues, false);
    const plan = layoutPlan(edited, designs, edited.settings);
    const settings = { ...edited.settings, formats: ['png'] } as SheetSettingsValues;
    return this.dto(print, settings, designs, edited.copies, plan.state === 'saved' ? 'saved' : 'replaced', edited.savedAt);
  }

  /** Checks an edited layout and stores it (400 naming the copies at fault). */
  async save(userId: string, printId: string, dto: SaveLayoutDto): Promise<PrintLayoutDto> {
    const { print, settings, designs, copies } = await this.checked(userId, printId, dto);
    const edited: EditedLayout = { settings: layoutSettings(settings), basis: layoutBasis(designs), copies, savedAt: new Date().toISOString() };
    const rows = returned(
      await this.db.query(`UPDATE prints SET edited_layout = $3, updated_at = now() WHERE id = $1 AND user_id = $2 AND status = ANY($4) RETURNING id`, [
        printId,
        userId,
        JSON.stringify(edited),
        EDITABLE,
      ]),
    );
    if (!rows.length) throw new ConflictException({ message: NOT_EDITABLE, code: 'invalid_status' });
    return this.dto(print, settings, designs, copies, 'saved', edited.savedAt);
  }

  /** The problems of an edited layout, without storing it (the editor's live check). */
  async check(userId: string, printId: string, dto: SaveLayoutDto): Promise<LayoutProblemDto[]> {
    const print = await this.editable(userId, printId);
    const settings = await this.sheetSettings.resolve(userId, dto.presetId, dto.settings);
    const { designs, names } = await this.designs(print, settings, true);
    return this.engine.checkLayout(designs, layoutSettings(settings), normalize(dto.copies, settings.dpi), names);
  }

  /** Each design's footprint and ink for these settings: the editor's outlines and its local gap check (print-layout-shapes.ts). */
  async shapes(userId: string, printId: string, dto: { presetId?: string; settings?: SaveLayoutDto['settings'] }): Promise<LayoutShapes> {
    const print = await this.editable(userId, printId);
    const settings = await this.sheetSettings.resolve(userId, dto.presetId, dto.settings);
    const { designs } = await this.designs(print, settings, true);
    return layoutShapes(designs, layoutSettings(settings));
  }

  /** Back to the engine's layout: the edit is dropped. */
  async discard(userId: string, printId: string): Promise<void> {
    await this.editable(userId, printId);
    await this.db.query(`UPDATE prints SET edited_layout = NULL, updated_at = now() WHERE id = $1 AND user_id = $2`, [printId, userId]);
  }

  /**
   * Every copy not pinned laid out again around the pinned ones (the copies given with
   * `pinned: true`), in the engine's search with them as fixed placements; nothing is stored.
   * The other copies given (the editor's current layout) are the search's starting layout
   * ("shape" prints): those clear of the pins stay unless the search finds a shorter layout,
   * those a moved pin now covers are laid out again. Without them the search starts afresh.
   */
  async renest(userId: string, printId: string, dto: SaveLayoutDto): Promise<PrintLayoutDto> {
    const print = await this.editable(userId, printId);
    const settings = await this.sheetSettings.resolve(userId, dto.presetId, dto.settings);
    const { designs } = await this.designs(print, settings, true);
    const pinned = normalize(dto.copies.filter((c) => c.pinned), settings.dpi);
    // the current places of the others: a hint, so copies the print does not have are left out
    const start = normalize(dto.copies.filter((c) => !c.pinned), settings.dpi);
    const known = new Map(designs.map((d) => [d.id, d]));
    for (const c of pinned)
      if (!known.has(c.itemId) || c.copy >= known.get(c.itemId)!.quantity) throw new BadRequestException({ message: `Pinned copy ${c.copy + 1} of item ${c.itemId} is not part of this print.`, code: 'layout_invalid' });
    let layout: LayoutResult;
    try {
      layout = await this.engine.layout(designs, settings, this.config.prints.previewTimeLimitMs, { fixed: pinned.map(toFixed), start: start.map(toFixed) });
    } catch (e) {
      if (e instanceof FixedPlacementError)
        throw new BadRequestException({ message: `The pinned copies cannot stay where they are: ${e.message}. Unpin or move them.`, code: 'layout_invalid' });
      throw e;
    }
    const pinnedKeys = new Set(pinned.map((c) => `${c.itemId}#${c.copy}`));
    return this.dto(print, settings, designs, fromResult(layout, pinnedKeys), 'auto', null);
  }

  /**
   * Each item's copy size, upright (before any turn), in inches on whole pixels at the
   * settings' DPI, as the engine places it: what a caller needs to put copies into given boxes
   * (templates). 400 when an item cannot be laid out (as for editing).
   */
  async copySizes(userId: string, printId: string, settings: SheetSettingsValues): Promise<Map<string, { width: number; height: number }>> {
    const print = await this.editable(userId, printId);
    const { designs } = await this.designs(print, settings, false);
    const dpi = settings.dpi;
    return new Map(designs.map((d) => {
      const box = copyBox(d, { x: 0, y: 0, rotation: 0 }, dpi);
      return [d.id, { width: box.w / dpi, height: box.h / dpi }];
    }));
  }

  /** What preview and processing lay out for these designs and settings (print-layout.ts layoutPlan). */
  async plan(printId: string, designs: readonly EngineDesign[], settings: SheetSettingsValues): Promise<LayoutPlan> {
    return layoutPlan(await this.edited(printId), designs, settings);
  }

  /** The engine's layout under a plan, with the copies' pinned flags and what to tell the seller. */
  async layoutFor(designs: readonly EngineDesign[], settings: SheetSettingsValues, plan: LayoutPlan, timeLimitMs: number) {
    const layout = await layoutWithPlan(this.engine, designs, settings, plan, timeLimitMs);
    const pinned = new Set(plan.pinned.map((c) => `${c.itemId}#${c.copy}`));
    // a replaced layout whose pinned copies no longer fit together was laid out without them
    const kept = layout.sheets.reduce((a, s) => a + s.placements.filter((p) => p.fixed && pinned.has(`${p.designId}#${p.copy}`)).length, 0);
    return { layout, pinned, message: plan.state === 'replaced' ? REPLACED_MESSAGE(kept) : null };
  }

  private async edited(printId: string): Promise<EditedLayout | null> {
    const [row] = await this.db.query(`SELECT edited_layout FROM prints WHERE id = $1`, [printId]);
    return row?.edited_layout ?? null;
  }

  private async editable(userId: string, printId: string): Promise<Print> {
    const print = await this.prints.find(userId, printId);
    assertStatus(print.status, EDITABLE, NOT_EDITABLE);
    return print;
  }

  private async checked(userId: string, printId: string, dto: SaveLayoutDto) {
    const print = await this.editable(userId, printId);
    const settings = await this.sheetSettings.resolve(userId, dto.presetId, dto.settings);
    const { designs, names } = await this.designs(print, settings, true);
    const copies = normalize(dto.copies, settings.dpi);
    const problems = await this.engine.checkLayout(designs, layoutSettings(settings), copies, names);
    if (problems.length) {
      const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
      // one field error per copy concerned: `copies[i]` is its index in the request (a missing copy: `copies`)
      const index = new Map(dto.copies.map((c, i) => [`${c.itemId}#${c.copy}`, i]));
      const errors = problems.flatMap((p) =>
        p.copies.length
          ? p.copies.map((c) => ({ field: index.has(`${c.itemId}#${c.copy}`) ? `copies[${index.get(`${c.itemId}#${c.copy}`)}]` : 'copies', code: p.code, message: p.message }))
          : [{ field: 'copies', code: p.code, message: p.message }],
      );
      throw new BadRequestException({ message: `The layout cannot be saved: ${problems[0].message}${more}`, code: 'layout_invalid', errors });
    }
    return { print, settings, designs, copies };
  }

  /** The print's designs (all items must be ready to lay out), with masks for "shape" when asked. */
  private async designs(print: Print, settings: SheetSettingsValues, masks: boolean) {
    const items = print.items ?? [];
    if (!items.length) throw new BadRequestException({ message: MSG.noItems, code: 'no_items' });
    const designs: EngineDesign[] = [];
    const names: Record<string, string> = {};
    for (const it of items) {
      const problem = itemProblem(it, settings);
      if (problem) throw new BadRequestException({ message: `Fix the items before editing the layout: ${problem.message}`, code: problem.code });
      designs.push(engineDesign(it));
      names[it._id] = it.image!.name;
    }
    const labelled = await withLabels(this.db.manager, designs, orderLabelsOn(settings, print.type));
    return { designs: masks && settings.nesting === 'shape' ? await withMasks(this.db.manager, labelled, items) : labelled, names };
  }

  private dto(print: Print, settings: SheetSettingsValues, designs: readonly EngineDesign[], copies: readonly LayoutCopy[], state: PrintLayoutDto['state'], savedAt: string | null): PrintLayoutDto {
    const imageOf = new Map((print.items ?? []).map((i) => [i._id, i.imageId!]));
    const byId = new Map(designs.map((d) => [d.id, d]));
    const dpi = settings.dpi;
    const margin = Math.round(settings.margin * dpi);
    const lengths = new Map<number, number>();
    const out = copies.flatMap((c) => {
      const d = byId.get(c.itemId);
      if (!d) return [];
      const box = copyBox(d, c, dpi);
      const fp = footprintBox(d, c, dpi);
      lengths.set(c.sheet, Math.max(lengths.get(c.sheet) ?? 0, fp.y + fp.h + margin));
      return [{ itemId: c.itemId, imageId: imageOf.get(c.itemId)!, copy: c.copy, sheet: c.sheet, x: box.x / dpi, y: box.y / dpi, width: box.w / dpi, height: box.h / dpi, rotation: c.rotation, pinned: c.pinned }];
    });
    const sheetCount = Math.max(0, ...copies.map((c) => c.sheet + 1));
    return {
      state,
      message: state === 'replaced' ? REPLACED_MESSAGE(copies.filter((c) => c.pinned).length) : null,
      settings,
      sheets: Array.from({ length: sheetCount }, (_, index) => ({ index, length: (lengths.get(index) ?? 0) / dpi })),
      copies: out,
      savedAt,
    };
  }
}

/** Positions on whole pixels at the DPI (what the engine prints), flags as booleans. */
function normalize(copies: SaveLayoutDto['copies'], dpi: number): LayoutCopy[] {
  return copies.map((c) => ({
    itemId: c.itemId,
    copy: c.copy,
    sheet: c.sheet,
    x: Math.round(c.x * dpi) / dpi,
    y: Math.round(c.y * dpi) / dpi,
    rotation: c.rotation,
    pinned: !!c.pinned,
  }));
}

function fromResult(layout: LayoutResult, pinned: Set<string>): LayoutCopy[] {
  return layout.sheets.flatMap((s) =>
    s.placements.map((p) => ({
      itemId: p.designId,
      copy: p.copy,
      sheet: s.index,
      x: p.x,
      y: p.y,
      rotation: (p.rotation ?? (p.rotated ? 90 : 0)) as LayoutCopy['rotation'],
      pinned: pinned.has(`${p.designId}#${p.copy}`),
    })),
  );
}
