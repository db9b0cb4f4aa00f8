import { MigrationInterface, QueryRunner } from 'typeorm';

/** The layout a Completed print was rendered with (see prints/stored-layout.ts); null before. */
export class PrintLayout1763800300000 implements MigrationInterface {
  name = 'PrintLayout1763800300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE prints ADD COLUMN layout jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE prints DROP COLUMN layout`);
  }
}
