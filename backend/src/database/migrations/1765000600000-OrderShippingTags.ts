import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The shop's shipping methods and tags of an order, stored at sync, so production can put
 * rush orders first by them (see docs/production.md, "Rush orders").
 */
export class OrderShippingTags1765000600000 implements MigrationInterface {
  name = 'OrderShippingTags1765000600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders ADD COLUMN shipping_methods text[] NOT NULL DEFAULT '{}'`);
    await q.query(`ALTER TABLE orders ADD COLUMN shop_tags text[] NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders DROP COLUMN shop_tags`);
    await q.query(`ALTER TABLE orders DROP COLUMN shipping_methods`);
  }
}
