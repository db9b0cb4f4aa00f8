import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../../users/entities/user.entity';

export enum PaymentStatus {
  Pending = 'Pending',
  Completed = 'Completed',
  Cancelled = 'Cancelled',
  Refunded = 'Refunded',
}

/**
 * How the money comes: through a checkout provider, or a bank transfer an admin marks as
 * received. Credits an admin gives without money are not payments (see the credit ledger).
 */
export enum PaymentType {
  PayPal = 'PayPal',
  Test = 'Test checkout',
  BankTransfer = 'Bank transfer',
}

export enum PaymentMethod {
  PayPal = 'paypal',
  Test = 'test',
  Bank = 'bank',
}

@Entity('payments')
@Index(['userId', 'purchaseDate'])
export class Payment {
  @PrimaryGeneratedColumn('uuid', { name: 'id' })
  _id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'varchar', length: 20 })
  type: PaymentType;

  @Column({ name: 'payment_method', type: 'varchar', length: 20 })
  paymentMethod: PaymentMethod;

  /** The provider's order id (PayPal order id, test checkout order id); for a bank transfer the reference the buyer writes on it. */
  @Column({ name: 'payment_system_reference_id', type: 'varchar', length: 100, nullable: true })
  paymentSystemReferenceId: string | null;

  /** The provider's capture id, stored at completion: refunds name the capture, not the order. */
  @Column({ name: 'capture_id', type: 'varchar', length: 100, nullable: true })
  captureId: string | null;

  @Column({ name: 'package_sku', type: 'varchar', length: 30 })
  packageSku: string;

  @Column({ type: 'integer' })
  credits: number;

  /** Decimal string as stored ("50.00"). */
  @Column({ type: 'numeric', precision: 10, scale: 2 })
  price: string;

  @Column({ type: 'varchar', length: 3, default: 'USD' })
  currency: string;

  @Column({ type: 'varchar', length: 20, default: PaymentStatus.Pending })
  status: PaymentStatus;

  /** Credits a refund could not take back because the user had spent them. */
  @Column({ name: 'debt_credits', type: 'integer', default: 0 })
  debtCredits: number;

  @Column({ name: 'purchase_date', type: 'timestamptz', default: () => 'now()' })
  purchaseDate: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  @Column({ name: 'refunded_at', type: 'timestamptz', nullable: true })
  refundedAt: Date | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
