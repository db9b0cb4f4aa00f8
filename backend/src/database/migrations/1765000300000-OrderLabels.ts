import { MigrationInterface, QueryRunner } from 'typeorm';

/** The order-labels sheet setting (null: on for batches, off for other prints); see gangsheet/render/order-labels.ts. */
export class OrderLabels1765000300000 implements MigrationInterface {
  name = 'OrderLabels1765000300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sheet_settings ADD COLUMN order_labels boolean NULL`);
    await q.query(`ALTER TABLE sheet_presets ADD COLUMN order_labels boolean NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sheet_presets DROP COLUMN order_labels`);
    await q.query(`ALTER TABLE sheet_settings DROP COLUMN order_labels`);
  }
}
