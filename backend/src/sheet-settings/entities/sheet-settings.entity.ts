import { SHEET_DEFAULTS } from '../../gangsheet';
import { Column, CreateDateColumn, Entity, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

const num = { to: (v: number) => v, from: (v: string) => Number(v) };

/** The film a seller prints on; inches except dpi. */
export interface SheetSettingsValues {
  width: number;
  maxLength: number;
  gap: number;
  margin: number;
  dpi: number;
  rotate: boolean;
  /** "shape": copies nest by their ink outline; "box": packed as rectangles. */
  nesting: Nesting;
  /** The print files each sheet is written as: PNG, PDF or both (PNG first). */
  formats: PrintFileFormat[];
  /**
   * Order labels beside each copy of an order's item ("#5012 · 2/3"): true or false, or
   * null (absent in settings saved before labels): on for batches, off for other prints.
   */
  orderLabels?: boolean | null;
}

export const PRINT_FILE_FORMATS = ['png', 'pdf'] as const;
export type PrintFileFormat = (typeof PRINT_FILE_FORMATS)[number];

/** The formats in their canonical order (PNG first), each once; empty or missing means PNG. */
export function normalizeFormats(formats: readonly string[] | null | undefined): PrintFileFormat[] {
  const out = PRINT_FILE_FORMATS.filter((f) => formats?.includes(f));
  return out.length ? out : ['png'];
}

export const NESTING_VALUES = ['shape', 'box'] as const;
export type Nesting = (typeof NESTING_VALUES)[number];

/** The defaults are the engine's SHEET_DEFAULTS (served by GET /api/sheet-settings/defaults). */
export const DEFAULT_SHEET_SETTINGS: SheetSettingsValues = { ...SHEET_DEFAULTS, formats: [...SHEET_DEFAULTS.formats], orderLabels: null };

/** Whether a print with these settings prints order labels: the setting, or by default on for batches only. */
export function orderLabelsOn(settings: Pick<SheetSettingsValues, 'orderLabels'> | null | undefined, printType: string): boolean {
  return settings?.orderLabels ?? printType === 'Batch';
}

/** A user's own sheet settings; absent row = defaults. */
@Entity('sheet_settings')
export class UserSheetSettings implements SheetSettingsValues {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'numeric', precision: 7, scale: 3, transformer: num }) width: number;
  @Column({ name: 'max_length', type: 'numeric', precision: 8, scale: 3, transformer: num }) maxLength: number;
  @Column({ type: 'numeric', precision: 6, scale: 3, transformer: num }) gap: number;
  @Column({ type: 'numeric', precision: 6, scale: 3, transformer: num }) margin: number;
  @Column({ type: 'integer' }) dpi: number;
  @Column({ type: 'boolean' }) rotate: boolean;
  @Column({ type: 'varchar', length: 8, default: 'shape' }) nesting: Nesting;
  @Column({ type: 'jsonb', default: () => `'["png"]'` }) formats: PrintFileFormat[];
  @Column({ name: 'order_labels', type: 'boolean', nullable: true }) orderLabels: boolean | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

/** A named set of sheet settings ("22in roll", "A3 test"); names unique per user. */
@Entity('sheet_presets')
export class SheetPreset implements SheetSettingsValues {
  @PrimaryGeneratedColumn('uuid', { name: 'id' })
  _id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'numeric', precision: 7, scale: 3, transformer: num }) width: number;
  @Column({ name: 'max_length', type: 'numeric', precision: 8, scale: 3, transformer: num }) maxLength: number;
  @Column({ type: 'numeric', precision: 6, scale: 3, transformer: num }) gap: number;
  @Column({ type: 'numeric', precision: 6, scale: 3, transformer: num }) margin: number;
  @Column({ type: 'integer' }) dpi: number;
  @Column({ type: 'boolean' }) rotate: boolean;
  @Column({ type: 'varchar', length: 8, default: 'shape' }) nesting: Nesting;
  @Column({ type: 'jsonb', default: () => `'["png"]'` }) formats: PrintFileFormat[];
  @Column({ name: 'order_labels', type: 'boolean', nullable: true }) orderLabels: boolean | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
