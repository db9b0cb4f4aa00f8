import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { Image } from '../images/entities/image.entity';
import { orderLabelsOn, SheetSettingsValues } from '../sheet-settings/entities/sheet-settings.entity';
import { SheetSettingsService } from '../sheet-settings/sheet-settings.service';
import { Size } from '../sizes/entities/size.entity';
import { PreviewDraftDto, PrintPreviewDto, ProcessPrintDto } from './dto/print.dto';
import { EngineDesign, LOW_DPI_THRESHOLD, PRINT_ENGINE, PrintEngine } from './engine.adapter';
import { PrintItem } from './entities/print-item.entity';
import { PrintStatus } from './entities/print.entity';
import { checkOwnership } from './print-drafts.service';
import { engineDesign, withLabels, withMasks } from './print-designs';
import { itemProblem } from './prints.rules';
import { PrintLayoutService } from './print-layout.service';
import { PrintsService } from './prints.service';
import { rotationOf, StoredLayout, storedLayout } from './stored-layout';

/** The layout a seller sees before paying: of a saved print, or of items not saved yet. Nothing is stored or charged. */
@Injectable()
export class PrintPreviewService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PRINT_ENGINE) private readonly engine: PrintEngine,
    private readonly sheetSettings: SheetSettingsService,
    private readonly prints: PrintsService,
    private readonly layouts: PrintLayoutService,
  ) {}

  /**
   * A Completed print shows the layout its files were rendered from, with the settings it
   * was processed with (the body is ignored); older prints without a stored layout are laid
   * out again with those settings. Any other print gets the live layout of its items.
   */
  async preview(userId: string, printId: string, dto: ProcessPrintDto): Promise<PrintPreviewDto> {
    const print = await this.prints.find(userId, printId, undefined, { withLayout: true });
    const rendered = print.status === PrintStatus.Completed && print.settings ? { settings: print.settings, layout: print.layout } : undefined;
    return this.previewItems(userId, print.items ?? [], dto, rendered, printId, print.type);
  }

  /**
   * The layout of items that are not saved yet (the manual-create page). Items get the ids
   * `draft-<n>` in the order given; the same image and size twice are merged, as on create.
   */
  async previewDraft(userId: string, dto: PreviewDraftDto): Promise<PrintPreviewDto> {
    await checkOwnership(this.db.manager, userId, dto.printItems);
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
    printId?: string,
    printType?: string,
  ): Promise<PrintPreviewDto> {
    // Prints processed before true-shape nesting have no nesting in their settings: they were boxes.
    const settings: SheetSettingsValues = rendered ? { ...rendered.settings, nesting: rendered.settings.nesting ?? 'box' } : await this.sheetSettings.resolve(userId, dto.presetId, dto.settings);
    const warnings: PrintPreviewDto['warnings'] = [];
    let designs: EngineDesign[] = [];
    for (const it of items) {
      const problem = itemProblem(it, settings);
      if (problem) warnings.push({ itemId: it._id, ...problem });
      else designs.push(engineDesign(it));
    }
    // the label space takes film: the preview lays it out as processing will
    if (!rendered && printType) designs = await withLabels(this.db.manager, designs, orderLabelsOn(settings, printType));
    let layout = rendered?.layout ?? null;
    let shapeSaving: PrintPreviewDto['shapeSaving'] = null;
    let layoutState: PrintPreviewDto['layoutState'] = 'auto';
    let layoutMessage: string | null = null;
    let pinned = new Set<string>();
    // an edited layout counts only while every item can be laid out (all of them are on it)
    const plan = !rendered && printId && designs.length && designs.length === items.length ? await this.layouts.plan(printId, designs, settings) : null;
    if (plan && plan.state !== 'auto') {
      const ds = settings.nesting === 'shape' ? await withMasks(this.db.manager, designs, items) : designs;
      const out = await this.layouts.layoutFor(ds, settings, plan, this.config.prints.previewTimeLimitMs);
      layout = storedLayout(out.layout);
      layoutState = plan.state;
      layoutMessage = out.message;
      pinned = out.pinned;
    } else if (!rendered && designs.length) {
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
    const copyNo = new Map<string, number>();
    return {
      rendered: !!rendered?.layout,
      layoutState,
      layoutMessage,
      settings,
      sheets: (layout?.sheets ?? []).map((s) => ({
        index: s.index,
        width: settings.width,
        length: s.length,
        widthPx: s.widthPx,
        lengthPx: s.lengthPx,
        copies: s.placements.length,
        placements: s.placements.map((p) => {
          // layouts stored before copies were numbered: in the order they were placed
          const copy = p.copy ?? copyNo.get(p.itemId) ?? 0;
          copyNo.set(p.itemId, copy + 1);
          return {
          itemId: p.itemId,
          imageId: imageOf.get(p.itemId)!,
          copy,
          pinned: pinned.has(`${p.itemId}#${copy}`),
          x: p.x,
          y: p.y,
          width: p.width,
          height: p.height,
          rotated: p.rotated,
          rotation: rotationOf(p),
          ...(p.label ? { label: p.label } : {}),
          };
        }),
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
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}
