import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Shop integrations (Etsy, WooCommerce), their synced orders and order items, and the
 * WooCommerce print type. Order and item statuses are not stored: they are computed from
 * the prints holding the items (orders/order-status.sql.ts), so they never disagree.
 */
export class ShopsAndOrders1763900200000 implements MigrationInterface {
  name = 'ShopsAndOrders1763900200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE integrations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        type varchar(12) NOT NULL CHECK (type IN ('Etsy', 'WordPress')),
        -- non-secret keys (baseUrl, consumerKey, keystring) as [{key, value}]
        keys jsonb NOT NULL DEFAULT '[]',
        -- AES-256-GCM sealed JSON: consumer secret, shared secret, access and refresh tokens, PKCE verifier
        secrets text,
        -- what makes two integrations "the same shop": the Etsy shop id or the WooCommerce site URL
        shop_key varchar(300),
        connected boolean NOT NULL DEFAULT false,
        token_expires_at timestamptz,
        auth_state varchar(100),
        auth_started_at timestamptz,
        last_sync timestamptz,
        sync_status varchar(12),
        sync_error varchar(500),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX integrations_user_idx ON integrations (user_id, created_at)`);
    await q.query(`CREATE UNIQUE INDEX integrations_shop_key ON integrations (user_id, type, shop_key) WHERE shop_key IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX integrations_auth_state ON integrations (auth_state) WHERE auth_state IS NOT NULL`);
    await q.query(`
      CREATE TABLE orders (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        integration_id uuid NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
        external_id varchar(64) NOT NULL,
        number varchar(64) NOT NULL,
        shop_status varchar(40) NOT NULL,
        buyer_info jsonb NOT NULL DEFAULT '{}',
        total_amount numeric(14,2) NOT NULL DEFAULT 0,
        currency varchar(3) NOT NULL DEFAULT 'USD',
        integration_order_created_date timestamptz NOT NULL,
        integration_order_updated_date timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (integration_id, external_id)
      )`);
    await q.query(`CREATE INDEX orders_user_created_idx ON orders (user_id, integration_order_created_date DESC, id)`);
    await q.query(`
      CREATE TABLE order_items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        order_id uuid NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        external_id varchar(64) NOT NULL,
        title varchar(500) NOT NULL,
        sku varchar(200),
        size varchar(200),
        quantity integer NOT NULL CHECK (quantity >= 0),
        price numeric(14,2) NOT NULL DEFAULT 0,
        design_url varchar(2000),
        attributes jsonb NOT NULL DEFAULT '[]',
        -- the library image imported from design_url, reused when the item is printed again
        image_id uuid REFERENCES images(id) ON DELETE SET NULL,
        -- set while a request turns the item into a print (two requests cannot both take it)
        claimed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (order_id, external_id)
      )`);
    await q.query(`CREATE INDEX order_items_user_idx ON order_items (user_id)`);
    await q.query(`CREATE INDEX print_items_order_item_idx ON print_items (order_item_id) WHERE order_item_id IS NOT NULL`);
    await q.query(`ALTER TABLE prints ALTER COLUMN type TYPE varchar(12)`);
    await q.query(`ALTER TABLE prints DROP CONSTRAINT IF EXISTS prints_type_check`);
    await q.query(`ALTER TABLE prints ADD CONSTRAINT prints_type_check CHECK (type IN ('Manual', 'Etsy', 'WooCommerce'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM prints WHERE type = 'WooCommerce'`);
    await q.query(`ALTER TABLE prints DROP CONSTRAINT IF EXISTS prints_type_check`);
    await q.query(`ALTER TABLE prints ADD CONSTRAINT prints_type_check CHECK (type IN ('Manual', 'Etsy'))`);
    await q.query(`ALTER TABLE prints ALTER COLUMN type TYPE varchar(10)`);
    await q.query(`DROP INDEX print_items_order_item_idx`);
    await q.query(`DROP TABLE order_items`);
    await q.query(`DROP TABLE orders`);
    await q.query(`DROP TABLE integrations`);
  }
}
