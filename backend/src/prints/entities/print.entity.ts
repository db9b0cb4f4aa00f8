import { Column, CreateDateColumn, Entity, OneToMany, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { PrintFileFormat, SheetSettingsValues } from '../../sheet-settings/entities/sheet-settings.entity';
import type { EditedLayout } from '../print-layout';
import type { StoredLayout } from '../stored-layout';
import { PrintItem } from './print-item.entity';

/** A print's lifecycle status; Error means a processing job that failed for good (charge refunded). */
export enum PrintStatus {
  InDraft = 'In Draft',
  Processing = 'Processing',
  Completed = 'Completed',
  Deleted = 'Deleted',
  Cancelled = 'Cancelled',
  Error = 'Error',
}

export enum PrintType {
  Manual = 'Manual',
  Etsy = 'Etsy',
  WooCommerce = 'WooCommerce',
  /** Made by production batching from the queue of shop order items (one print item per order item). */
  Batch = 'Batch',
}

/** One rendered gang sheet of a print, as stored. */
export interface PrintSheetFile {
  /** 1-based sheet number. */
  n: number;
  key: string;
  previewKey: string;
  widthPx: number;
  heightPx: number;
  lengthIn: number;
  bytes: number;
  /**
   * Every print file of the sheet by format, PNG first; `key`/`bytes` repeat the first one.
   * Absent on rows from before PDF output: their one file is the PNG at `key`.
   */
  formats?: PrintSheetFormatFile[];
}

export interface PrintSheetFormatFile {
  format: PrintFileFormat;
  key: string;
  bytes: number;
}

/** A sheet's files by format (a row from before PDF output has its PNG only). */
export const sheetFormatFiles = (f: PrintSheetFile): PrintSheetFormatFile[] => f.formats ?? [{ format: 'png', key: f.key, bytes: f.bytes }];

@Entity('prints')
export class Print {
  @PrimaryGeneratedColumn('uuid', { name: 'id' })
  _id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 12, default: PrintType.Manual })
  type: PrintType;

  @Column({ type: 'varchar', length: 12, default: PrintStatus.InDraft })
  status: PrintStatus;

  /** Bumped each time processing starts; names the job, the charge and the file folder. */
  @Column({ type: 'integer', default: 0 })
  attempt: number;

  /** Credits charged for the current/last processing (0 before the first). */
  @Column({ name: 'credit_cost', type: 'integer', default: 0 })
  creditCost: number;

  /** The sheet settings the last processing used. */
  @Column({ type: 'jsonb', nullable: true })
  settings: SheetSettingsValues | null;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  files: PrintSheetFile[];

  /**
   * The layout the files were rendered from, set when the job completes (null before, and
   * for older prints). Tens of KB: not selected unless asked for (`PrintsService.find`
   * with `withLayout`), so lists and details do not parse it once per item row.
   */
  @Column({ type: 'jsonb', nullable: true, select: false })
  layout: StoredLayout | null;

  /**
   * The seller's edited layout (PUT /api/print/{id}/layout): where each copy goes and which
   * are pinned, with the settings and items it was made for (see print-layout.ts). Not
   * selected unless asked for, like `layout`.
   */
  @Column({ name: 'edited_layout', type: 'jsonb', nullable: true, select: false })
  editedLayout: EditedLayout | null;

  @Column({ name: 'files_deleted_at', type: 'timestamptz', nullable: true })
  filesDeletedAt: Date | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  @Column({ name: 'printed_at', type: 'timestamptz', nullable: true })
  printedAt: Date | null;

  @OneToMany(() => PrintItem, (i) => i.print)
  items?: PrintItem[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  /** The integrator's own reference: unique per seller when given. */
  @Column({ name: 'external_id', type: 'varchar', length: 200, nullable: true })
  externalId: string | null;

  /**
   * Made in test mode (with a test API key): processing it costs nothing, its sheets carry a
   * TEST watermark, its events go to test webhooks only and the dashboard does not count it.
   * Set when the print is created, never changed.
   */
  @Column({ type: 'boolean', default: false })
  test: boolean;

  /** The integrator's string pairs (at most 20), returned with the print and its events. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, string>;
}
