import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export enum ApiKeyScope {
  /** GET/HEAD only. */
  Read = 'read',
  /** Everything the seller may do, including spending credits. */
  ReadWrite = 'read-write',
}

/** live: the real account; test: no credits spent, files watermarked, only test webhooks (docs/api.md "Test keys"). */
export enum ApiKeyMode {
  Live = 'live',
  Test = 'test',
}

/** An integrator's key. Only a SHA-256 of the secret is stored; `prefix` is its first characters, for lists. */
@Entity('api_keys')
export class ApiKey {
  @PrimaryGeneratedColumn('uuid', { name: 'id' })
  _id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 20 })
  prefix: string;

  @Column({ name: 'secret_hash', type: 'char', length: 64, select: false })
  secretHash: string;

  @Column({ type: 'varchar', length: 20 })
  scope: ApiKeyScope;

  @Column({ type: 'varchar', length: 4, default: ApiKeyMode.Live })
  mode: ApiKeyMode;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
