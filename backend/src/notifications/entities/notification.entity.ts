import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { NotificationType } from '../../realtime/events';

/** One message of the header bell. Unread while `readAt` is null. */
@Entity('notifications')
export class Notification {
  @PrimaryGeneratedColumn('uuid', { name: 'id' })
  _id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 10 })
  type: NotificationType;

  @Column({ type: 'varchar', length: 500 })
  message: string;

  /** The print, image, size or payment it is about (null when about nothing in particular). */
  @Column({ name: 'attachment_id', type: 'varchar', length: 64, nullable: true })
  attachmentId: string | null;

  @Column({ name: 'dedupe_key', type: 'varchar', length: 200, nullable: true })
  dedupeKey: string | null;

  @Column({ name: 'read_at', type: 'timestamptz', nullable: true })
  readAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
