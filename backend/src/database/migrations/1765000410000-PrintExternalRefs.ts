import { MigrationInterface, QueryRunner } from 'typeorm';

/** An integrator's own reference (unique per seller when given) and string metadata on prints. */
export class PrintExternalRefs1765000410000 implements MigrationInterface {
  name = 'PrintExternalRefs1765000410000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE prints ADD COLUMN external_id varchar(200) NULL, ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'`);
    await q.query(`CREATE UNIQUE INDEX prints_user_external_id ON prints (user_id, external_id) WHERE external_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX prints_user_external_id`);
    await q.query(`ALTER TABLE prints DROP COLUMN metadata, DROP COLUMN external_id`);
  }
}
