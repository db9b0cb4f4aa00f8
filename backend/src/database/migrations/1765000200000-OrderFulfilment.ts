import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fulfilment back to the shop: one row per order (the order id is the key, so an order is
 * fulfilled once), the steps already sent to the shop, and the shop's refusal when there was
 * one. A shop connection's own settings (the WooCommerce status a fulfilled order gets).
 */
export class OrderFulfilment1765000200000 implements MigrationInterface {
  name = 'OrderFulfilment1765000200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE order_fulfilments (
        order_id uuid PRIMARY KEY REFERENCES orders(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        status varchar(12) NOT NULL CHECK (status IN ('pending', 'fulfilled', 'failed')),
        source varchar(12) NOT NULL CHECK (source IN ('batch', 'manual')),
        carrier varchar(60) NULL,
        tracking_number varchar(100) NULL,
        steps jsonb NOT NULL DEFAULT '{}',
        round integer NOT NULL DEFAULT 1,
        error varchar(1000) NULL,
        lease_until timestamptz NULL,
        requested_at timestamptz NOT NULL DEFAULT now(),
        fulfilled_at timestamptz NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX order_fulfilments_user_status_idx ON order_fulfilments (user_id, status)`);
    await q.query(`ALTER TABLE integrations ADD COLUMN settings jsonb NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE integrations DROP COLUMN settings`);
    await q.query(`DROP TABLE order_fulfilments`);
  }
}
