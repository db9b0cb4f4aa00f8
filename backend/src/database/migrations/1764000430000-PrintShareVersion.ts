import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Share links of a print's files are signed and carry the print's share version; revoking
 * them bumps the version, so every link signed before stops working at once.
 */
export class PrintShareVersion1764000430000 implements MigrationInterface {
  name = 'PrintShareVersion1764000430000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE prints ADD COLUMN share_version integer NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE prints DROP COLUMN share_version`);
  }
}
