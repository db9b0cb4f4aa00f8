import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** An order's status, derived from the prints holding the items (views order_statuses, order_item_statuses). */
export enum OrderStatus {
  Pending = 'Pending',
  InDraft = 'In Draft',
  Completed = 'Completed',
  PartiallyCompleted = 'Partially Completed',
}

export interface BuyerInfo {
  name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
  country: string | null;
}

@Entity('orders')
export class Order {
  @PrimaryGeneratedColumn('uuid', { name: 'id' })
  _id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ name: 'integration_id', type: 'uuid' })
  integrationId: string;

  @Column({ name: 'external_id', type: 'varchar', length: 64 })
  externalId: string;

  @Column({ type: 'varchar', length: 64 })
  number: string;

  @Column({ name: 'shop_status', type: 'varchar', length: 40 })
  shopStatus: string;

  @Column({ name: 'buyer_info', type: 'jsonb' })
  buyerInfo: BuyerInfo;

  @Column({ name: 'total_amount', type: 'numeric', precision: 14, scale: 2, transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  totalAmount: number;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  /** The shop's shipping methods of the order (WooCommerce shipping lines' titles and ids, Etsy's shipping method and upgrade). */
  @Column({ name: 'shipping_methods', type: 'text', array: true, default: () => "'{}'" })
  shippingMethods: string[];

  /** The shop's tags of the order, where the shop has them (WooCommerce order meta; Etsy has none). */
  @Column({ name: 'shop_tags', type: 'text', array: true, default: () => "'{}'" })
  shopTags: string[];

  @Column({ name: 'integration_order_created_date', type: 'timestamptz' })
  integrationOrderCreatedDate: Date;

  @Column({ name: 'integration_order_updated_date', type: 'timestamptz', nullable: true })
  integrationOrderUpdatedDate: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
