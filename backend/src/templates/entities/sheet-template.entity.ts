import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { SheetSettingsValues } from '../../sheet-settings/entities/sheet-settings.entity';
import type { TemplateSlot } from '../template-slots';

/** The layout settings a template keeps (a print made from it uses them); file formats are chosen when processing. */
export type TemplateSettings = Omit<SheetSettingsValues, 'formats'>;

/**
 * A sheet template: a saved arrangement of designs on a sheet of given width and length (the
 * sheet settings and the slots), to start new prints with other artwork in the same places.
 */
@Entity('sheet_templates')
export class SheetTemplate {
  @PrimaryGeneratedColumn('uuid', { name: 'id' })
  _id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'jsonb' })
  settings: TemplateSettings;

  @Column({ type: 'jsonb' })
  slots: TemplateSlot[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
