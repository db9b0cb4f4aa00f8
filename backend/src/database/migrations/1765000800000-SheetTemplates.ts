import { MigrationInterface, QueryRunner } from 'typeorm';

/** A seller's sheet templates: the sheet settings and the slots (where each design went) of a saved layout; see templates/. */
export class SheetTemplates1765000800000 implements MigrationInterface {
  name = 'SheetTemplates1765000800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sheet_templates (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        settings jsonb NOT NULL,
        slots jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // the list: a seller's templates, newest first
    await q.query(`CREATE INDEX sheet_templates_user_created ON sheet_templates (user_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sheet_templates`);
  }
}
