import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * True-shape nesting: the ink mask of each design (null until measured: nested as its
 * rectangle) and the nesting choice of sheet settings and presets, "shape" by default since
 * the engine never returns a shape layout longer than the rectangle one.
 */
export class ShapeNesting1763800600000 implements MigrationInterface {
  name = 'ShapeNesting1763800600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE images ADD COLUMN mask jsonb`);
    for (const t of ['sheet_settings', 'sheet_presets']) {
      await q.query(`ALTER TABLE ${t} ADD COLUMN nesting varchar(8) NOT NULL DEFAULT 'shape'`);
      await q.query(`ALTER TABLE ${t} ADD CONSTRAINT ${t}_nesting_check CHECK (nesting IN ('shape', 'box'))`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['sheet_settings', 'sheet_presets']) await q.query(`ALTER TABLE ${t} DROP COLUMN nesting`);
    await q.query(`ALTER TABLE images DROP COLUMN mask`);
  }
}
