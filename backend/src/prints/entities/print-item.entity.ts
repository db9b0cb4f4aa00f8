import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Image } from '../../images/entities/image.entity';
import { Size } from '../../sizes/entities/size.entity';
import { Print } from './print.entity';

/** The shop order line a print item came from, as the print detail names it. */
export interface PrintItemOrderLine {
  orderId: string;
  orderNumber: string;
  buyerName: string;
  title: string;
}

/** One design of a print at one size, `quantity` copies. Image or size may be missing (deleted, or an order item not matched yet). */
@Entity('print_items')
export class PrintItem {
  @PrimaryGeneratedColumn('uuid', { name: 'id' })
  _id: string;

  @Column({ name: 'print_id', type: 'uuid' })
  printId: string;

  @ManyToOne(() => Print, (p) => p.items, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'print_id' })
  print?: Print;

  @Column({ name: 'image_id', type: 'uuid', nullable: true })
  imageId: string | null;

  @ManyToOne(() => Image, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'image_id' })
  image?: Image | null;

  @Column({ name: 'size_id', type: 'uuid', nullable: true })
  sizeId: string | null;

  @ManyToOne(() => Size, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'size_id' })
  size?: Size | null;

  @Column({ type: 'integer' })
  quantity: number;

  @Column({ name: 'order_item_id', type: 'uuid', nullable: true })
  orderItemId: string | null;

  /** Not a column: read with the item from order_items and orders (null when not from a shop order or the order is gone). */
  orderLine?: PrintItemOrderLine | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
