import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** live: receives the events of live activity; test: only those of test mode (a test key's prints). */
export enum WebhookMode {
  Live = 'live',
  Test = 'test',
}

/** A seller's receiver of events. The secret signs every delivery (HMAC-SHA256). */
@Entity('webhook_endpoints')
export class WebhookEndpoint {
  @PrimaryGeneratedColumn('uuid', { name: 'id' })
  _id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 2000 })
  url: string;

  @Column({ type: 'varchar', length: 200, default: '' })
  description: string;

  @Column({ type: 'text', array: true })
  events: string[];

  @Column({ type: 'varchar', length: 100, select: false })
  secret: string;

  /** The secret a roll replaced; it also signs deliveries until `previousSecretExpiresAt`. */
  @Column({ name: 'previous_secret', type: 'varchar', length: 100, nullable: true, select: false })
  previousSecret: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  /** Set when the endpoint is created, never changed. */
  @Column({ type: 'varchar', length: 4, default: WebhookMode.Live })
  mode: WebhookMode;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
