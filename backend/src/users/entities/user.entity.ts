import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export enum Role {
  Admin = 'admin',
  User = 'user',
}

export enum UserStatus {
  Active = 'active',
  Inactive = 'inactive',
}

@Entity('users')
export class User {
  @PrimaryGeneratedColumn('uuid', { name: 'id' })
  _id: string;

  @Column({ name: 'first_name', type: 'varchar', length: 100, default: '' })
  firstName: string;

  @Column({ name: 'last_name', type: 'varchar', length: 100, default: '' })
  lastName: string;

  /** Unique, compared case-insensitively (stored lower-case). */
  @Column({ type: 'varchar', length: 50 })
  username: string;

  /** Unique, stored lower-case. */
  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  company: string | null;

  /** E.164, e.g. +14155550123. */
  @Column({ type: 'varchar', length: 20, nullable: true })
  phone: string | null;

  @Column({ name: 'password_hash', type: 'varchar', length: 100, select: false })
  passwordHash: string;

  @Column({ type: 'varchar', length: 10, default: Role.User })
  role: Role;

  @Column({ type: 'varchar', length: 10, default: UserStatus.Active })
  status: UserStatus;

  @Column({ name: 'email_verified_at', type: 'timestamptz', nullable: true })
  emailVerifiedAt: Date | null;

  /** Kept in step with the credit ledger by CreditsService only. */
  @Column({ name: 'available_credits', type: 'integer', default: 0 })
  availableCredits: number;

  @Column({ name: 'used_credits', type: 'integer', default: 0 })
  usedCredits: number;

  /** Bumped on password change and deactivation so older session cookies stop working. */
  @Column({ name: 'session_version', type: 'integer', default: 0 })
  sessionVersion: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
