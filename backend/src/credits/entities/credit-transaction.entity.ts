import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export enum CreditReason {
  Purchase = 'purchase',
  /** Credits an admin gave (no money moved); the note says why. */
  AdminGrant = 'admin_grant',
  /** An admin set the balance directly (a correction, up or down); the note says why. */
  AdminAdjust = 'admin_adjust',
  PrintCharge = 'print_charge',
  Refund = 'refund',
  /** A refunded payment takes its credits back (as far as the balance allows). */
  PaymentRefund = 'payment_refund',
}

/**
 * The credit ledger: every change of a user's credits is one row. The user's
 * availableCredits equals the sum of availableDelta, usedCredits the sum of usedDelta.
 */
@Entity('credit_transactions')
@Index(['userId', 'createdAt'])
export class CreditTransaction {
  @PrimaryGeneratedColumn('uuid', { name: 'id' })
  _id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 20 })
  reason: CreditReason;

  @Column({ name: 'available_delta', type: 'integer' })
  availableDelta: number;

  @Column({ name: 'used_delta', type: 'integer', default: 0 })
  usedDelta: number;

  /** Balance right after this row, for audit. */
  @Column({ name: 'available_after', type: 'integer' })
  availableAfter: number;

  /** Who made the change (admin id, or the user themself); null for the system. */
  @Column({ name: 'actor_id', type: 'uuid', nullable: true })
  actorId: string | null;

  /** What it is about, e.g. "print:<id>" or "payment:<id>". Unique per reason so a retry cannot charge twice. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  reference: string | null;

  @Column({ type: 'varchar', length: 300, default: '' })
  note: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
