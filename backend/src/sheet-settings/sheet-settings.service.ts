import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { InjectRepository } from '@nestjs/typeorm';
import { QueryFailedError, Repository } from 'typeorm';
import { CreatePresetDto, SheetSettingsInput, UpdatePresetDto } from './dto/sheet-settings.dto';
import { DEFAULT_SHEET_SETTINGS, normalizeFormats, SheetPreset, SheetSettingsValues, UserSheetSettings } from './entities/sheet-settings.entity';

const KEYS = ['width', 'maxLength', 'gap', 'margin', 'dpi', 'rotate', 'nesting', 'formats'] as const;

export function pickSettings(v: SheetSettingsValues): SheetSettingsValues {
  return {
    width: v.width,
    maxLength: v.maxLength,
    gap: v.gap,
    margin: v.margin,
    dpi: v.dpi,
    rotate: v.rotate,
    nesting: v.nesting,
    formats: normalizeFormats(v.formats),
    orderLabels: v.orderLabels ?? null,
  };
}

export type SheetLimits = AppConfig['sheetLimits'];

/**
 * Bounds the work a print may ask for: the server's limits on width, length and DPI
 * (SHEET_MAX_*), checked on every save and again when settings are resolved for a preview or
 * a process, so settings saved under wider limits cannot slip through.
 */
function checkLimits(v: SheetSettingsValues, limits: SheetLimits) {
  if (v.width > limits.maxWidth) throw new BadRequestException({ message: `Sheet width must be at most ${limits.maxWidth} in`, code: 'settings_limit' });
  if (v.maxLength > limits.maxLength)
    throw new BadRequestException({ message: `Maximum length must be at most ${limits.maxLength} in`, code: 'settings_limit' });
  if (v.dpi > limits.maxDpi) throw new BadRequestException({ message: `DPI must be at most ${limits.maxDpi}`, code: 'settings_limit' });
}

function merge(base: SheetSettingsValues, patch: SheetSettingsInput | null | undefined, limits: SheetLimits): SheetSettingsValues {
  const out = { ...base };
  for (const k of KEYS) if (patch && patch[k] !== undefined && patch[k] !== null) (out as any)[k] = patch[k];
  // null is a value here: back to the default by print type
  if (patch && patch.orderLabels !== undefined) out.orderLabels = patch.orderLabels;
  out.formats = normalizeFormats(out.formats);
  checkLimits(out, limits);
  // Designs need room between the margins, and a sheet must be longer than its margins.
  if (out.margin * 2 >= out.width) throw new BadRequestException('The margins leave no room on the sheet width');
  if (out.margin * 2 >= out.maxLength) throw new BadRequestException('The margins leave no room on the sheet length');
  return out;
}

/** Per-user sheet settings and named presets; resolves what a process/preview uses. */
@Injectable()
export class SheetSettingsService {
  private readonly limits: SheetLimits;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @InjectRepository(UserSheetSettings) private readonly settings: Repository<UserSheetSettings>,
    @InjectRepository(SheetPreset) private readonly presets: Repository<SheetPreset>,
  ) {
    this.limits = config.sheetLimits;
  }

  async get(userId: string): Promise<SheetSettingsValues> {
    const row = await this.settings.findOne({ where: { userId } });
    return row ? pickSettings(row) : { ...DEFAULT_SHEET_SETTINGS };
  }

  async update(userId: string, dto: SheetSettingsInput): Promise<SheetSettingsValues> {
    const next = merge(await this.get(userId), dto, this.limits);
    await this.settings.upsert({ userId, ...next }, ['userId']);
    return next;
  }

  /** The user's settings, then a preset's, then a one-off override; validated together. */
  async resolve(userId: string, presetId?: string | null, override?: SheetSettingsInput | null): Promise<SheetSettingsValues> {
    let base = await this.get(userId);
    if (presetId) base = pickSettings(await this.getPreset(userId, presetId));
    return merge(base, override, this.limits);
  }

  listPresets(userId: string) {
    return this.presets.find({ where: { userId }, order: { name: 'ASC' } });
  }

  async getPreset(userId: string, id: string): Promise<SheetPreset> {
    const p = await this.presets.findOne({ where: { _id: id, userId } });
    if (!p) throw new NotFoundException('Sheet preset not found');
    return p;
  }

  async createPreset(userId: string, dto: CreatePresetDto): Promise<SheetPreset> {
    const values = merge(DEFAULT_SHEET_SETTINGS, dto, this.limits);
    return this.saveUnique(this.presets.create({ userId, name: dto.name, ...values }));
  }

  async updatePreset(userId: string, id: string, dto: UpdatePresetDto): Promise<SheetPreset> {
    const p = await this.getPreset(userId, id);
    Object.assign(p, merge(pickSettings(p), dto, this.limits));
    if (dto.name !== undefined) p.name = dto.name;
    return this.saveUnique(p);
  }

  async removePreset(userId: string, id: string): Promise<void> {
    const p = await this.getPreset(userId, id);
    await this.presets.delete({ _id: p._id });
  }

  private async saveUnique(p: SheetPreset): Promise<SheetPreset> {
    try {
      return await this.presets.save(p);
    } catch (e) {
      if (e instanceof QueryFailedError && (e as any).code === '23505') {
        throw new ConflictException({ message: 'A preset with this name already exists', code: 'preset_exists' });
      }
      throw e;
    }
  }
}
