import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { DesignMask } from '../../gangsheet';
import { ImageCategory } from './image-category.entity';

export enum ImageStatus {
  /** Stored; dimensions, trim and preview are being made by a queue job. */
  Processing = 'processing',
  Ready = 'ready',
  Error = 'error',
}

/** One uploaded design. The original file is never modified. */
@Entity('images')
export class Image {
  @PrimaryGeneratedColumn('uuid', { name: 'id' })
  _id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  /** Display name, without the file extension. */
  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ name: 'category_id', type: 'uuid', nullable: true })
  categoryId: string | null;

  @ManyToOne(() => ImageCategory, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'category_id' })
  category?: ImageCategory | null;

  /** 0–5 in half steps. */
  @Column({ type: 'numeric', precision: 2, scale: 1, default: 0, transformer: { to: (v: number) => v, from: (v: string | null) => (v === null ? 0 : Number(v)) } })
  score: number;

  /** Copies of this image in completed prints. */
  @Column({ name: 'used_in_print', type: 'integer', default: 0 })
  usedInPrint: number;

  @Column({ name: 'original_name', type: 'varchar', length: 255 })
  originalName: string;

  /** Storage key of the original file. */
  @Column({ name: 'file_key', type: 'varchar', length: 300 })
  fileKey: string;

  /** image/png, image/jpeg or image/svg+xml, from the content (never the name). */
  @Column({ type: 'varchar', length: 50 })
  mime: string;

  @Column({ type: 'integer' })
  bytes: number;

  @Column({ type: 'integer', nullable: true })
  width: number | null;

  @Column({ type: 'integer', nullable: true })
  height: number | null;

  /** Bounds of the visible art (transparent edges trimmed), in source pixels. */
  @Column({ name: 'trim', type: 'jsonb', nullable: true })
  trim: { left: number; top: number; width: number; height: number } | null;

  /**
   * Ink of the trimmed art for true-shape nesting (the engine's DesignMask, base64 bits, a few
   * KB). Null for opaque art (its shape is the rectangle) and for images uploaded before masks
   * were measured: those are nested as their rectangle.
   */
  @Column({ type: 'jsonb', nullable: true, select: false })
  mask: DesignMask | null;

  /** SHA-256 (hex) of the file, kept for designs imported from shop orders: the same bytes imported again reuse this image. */
  @Column({ name: 'content_hash', type: 'char', length: 64, nullable: true, select: false })
  contentHash: string | null;

  @Column({ name: 'preview_key', type: 'varchar', length: 300, nullable: true })
  previewKey: string | null;

  @Column({ type: 'varchar', length: 12, default: ImageStatus.Processing })
  status: ImageStatus;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  /** Set when deleted while completed prints still use it: hidden from the library, kept for them. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
