import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export enum AuthTokenKind {
  Verify = 'verify',
  Reset = 'reset',
  /** Confirms a new e-mail address (in `email`) before it replaces the account's. */
  EmailChange = 'email',
}

/** Single-use, expiring e-mail tokens. Only an HMAC of the token is stored. */
@Entity('auth_tokens')
export class AuthToken {
  @PrimaryGeneratedColumn('uuid', { name: 'id' })
  _id: string;

  @Index()
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 10 })
  kind: AuthTokenKind;

  @Index({ unique: true })
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  /** The new address an EmailChange token applies; null for the other kinds. */
  @Column({ type: 'varchar', length: 254, nullable: true })
  email: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
