import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export enum AuthTokenKind {
  Verify = 'verify',
  Reset = 'reset',
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

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
