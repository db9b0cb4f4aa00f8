import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Production batching (see docs/production.md): prints of type Batch; each seller's batching rules, the batches made
 * (one row per Batch print, for the queue page, the completion announcement and the trigger
 * that made it), and the problems met while resolving an order item's design (a design file
 * that could not be downloaded, a design too large for the batch sheet), so the queue shows
 * the reason without trying again on every look.
 */
export class Production1765000100000 implements MigrationInterface {
  name = 'Production1765000100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE prints DROP CONSTRAINT IF EXISTS prints_type_check`);
    await q.query(`ALTER TABLE prints ADD CONSTRAINT prints_type_check CHECK (type IN ('Manual', 'Etsy', 'WooCommerce', 'Batch'))`);
    await q.query(`
      CREATE TABLE production_settings (
        user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        rules jsonb NOT NULL,
        auto boolean NOT NULL DEFAULT false,
        last_cutoff_at timestamptz NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX production_settings_auto_idx ON production_settings (user_id) WHERE auto`);
    await q.query(`
      CREATE TABLE production_batches (
        print_id uuid PRIMARY KEY REFERENCES prints(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        trigger varchar(20) NOT NULL,
        orders integer NOT NULL,
        items integer NOT NULL,
        copies integer NOT NULL,
        note varchar(500) NULL,
        completed_announced_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX production_batches_user_idx ON production_batches (user_id, created_at DESC)`);
    await q.query(`
      CREATE TABLE production_item_problems (
        order_item_id uuid NOT NULL REFERENCES order_items(id) ON DELETE CASCADE,
        kind varchar(12) NOT NULL,
        design_url varchar(2000) NULL,
        image_id uuid NULL,
        size_id uuid NULL,
        problem varchar(500) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (order_item_id, kind)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE production_item_problems`);
    await q.query(`DROP TABLE production_batches`);
    await q.query(`DROP TABLE production_settings`);
    await q.query(`DELETE FROM prints WHERE type = 'Batch'`);
    await q.query(`ALTER TABLE prints DROP CONSTRAINT IF EXISTS prints_type_check`);
    await q.query(`ALTER TABLE prints ADD CONSTRAINT prints_type_check CHECK (type IN ('Manual', 'Etsy', 'WooCommerce'))`);
  }
}
