import { MigrationInterface, QueryRunner } from 'typeorm';

export class Prints1763700200000 implements MigrationInterface {
  name = 'Prints1763700200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE prints (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        type varchar(10) NOT NULL DEFAULT 'Manual' CHECK (type IN ('Manual', 'Etsy')),
        status varchar(12) NOT NULL DEFAULT 'In Draft'
          CHECK (status IN ('In Draft', 'Processing', 'Completed', 'Deleted', 'Cancelled', 'Error')),
        attempt integer NOT NULL DEFAULT 0,
        credit_cost integer NOT NULL DEFAULT 0 CHECK (credit_cost >= 0),
        settings jsonb,
        files jsonb NOT NULL DEFAULT '[]',
        files_deleted_at timestamptz,
        error varchar(500),
        printed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX prints_user_created_idx ON prints (user_id, created_at, id)`);
    await q.query(`CREATE INDEX prints_user_printed_idx ON prints (user_id, printed_at, id)`);
    // The retention job looks for Completed prints whose files are still there.
    await q.query(`CREATE INDEX prints_retention_idx ON prints (printed_at) WHERE status = 'Completed' AND files_deleted_at IS NULL`);
    await q.query(`
      CREATE TABLE print_items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        print_id uuid NOT NULL REFERENCES prints(id) ON DELETE CASCADE,
        image_id uuid REFERENCES images(id) ON DELETE SET NULL,
        size_id uuid REFERENCES sizes(id) ON DELETE SET NULL,
        quantity integer NOT NULL CHECK (quantity >= 1),
        order_item_id uuid,
        -- clock_timestamp: items added in one transaction keep their order
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX print_items_print_idx ON print_items (print_id, created_at)`);
    await q.query(`CREATE INDEX print_items_image_idx ON print_items (image_id)`);
    await q.query(`
      CREATE TABLE sheet_settings (
        user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        width numeric(7,3) NOT NULL,
        max_length numeric(8,3) NOT NULL,
        gap numeric(6,3) NOT NULL,
        margin numeric(6,3) NOT NULL,
        dpi integer NOT NULL,
        rotate boolean NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE sheet_presets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        width numeric(7,3) NOT NULL,
        max_length numeric(8,3) NOT NULL,
        gap numeric(6,3) NOT NULL,
        margin numeric(6,3) NOT NULL,
        dpi integer NOT NULL,
        rotate boolean NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX sheet_presets_user_name_key ON sheet_presets (user_id, lower(name))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sheet_presets`);
    await q.query(`DROP TABLE sheet_settings`);
    await q.query(`DROP TABLE print_items`);
    await q.query(`DROP TABLE prints`);
  }
}
