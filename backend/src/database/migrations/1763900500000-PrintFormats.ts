import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The print file formats of sheet settings and presets: PNG, PDF or both, PNG by default
 * (what every print was rendered as before). A JSON list in canonical order, never empty.
 */
export class PrintFormats1763900500000 implements MigrationInterface {
  name = 'PrintFormats1763900500000';

  async up(q: QueryRunner): Promise<void> {
    for (const t of ['sheet_settings', 'sheet_presets']) {
      await q.query(`ALTER TABLE ${t} ADD COLUMN formats jsonb NOT NULL DEFAULT '["png"]'`);
      await q.query(`ALTER TABLE ${t} ADD CONSTRAINT ${t}_formats_check CHECK (formats IN ('["png"]', '["pdf"]', '["png", "pdf"]'))`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['sheet_settings', 'sheet_presets']) await q.query(`ALTER TABLE ${t} DROP COLUMN formats`);
  }
}
