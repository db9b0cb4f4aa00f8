import { MigrationInterface, QueryRunner } from 'typeorm';

/** A draft print's edited layout (the seller's arrangement of its copies, pinned copies marked); see prints/print-layout.ts. */
export class PrintEditedLayout1764000600000 implements MigrationInterface {
  name = 'PrintEditedLayout1764000600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE prints ADD COLUMN edited_layout jsonb NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE prints DROP COLUMN edited_layout`);
  }
}
