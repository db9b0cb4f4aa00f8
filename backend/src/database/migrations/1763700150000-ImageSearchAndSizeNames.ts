import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Trigram index for the library's substring search (ILIKE '%tiger%'), on PostgreSQL
 * servers that offer pg_trgm and let us create it; PGlite and locked-down servers simply
 * search without it. The library sorts names case-insensitively ("cat" before "Tiger"),
 * so its name index is on lower(name). Size names become unique per user, as orders match
 * sizes by name.
 */
export class ImageSearchAndSizeNames1763700150000 implements MigrationInterface {
  name = 'ImageSearchAndSizeNames1763700150000';

  async up(q: QueryRunner): Promise<void> {
    const [{ usable }] = await q.query(`
      SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm')
          OR (EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm')
              AND has_database_privilege(current_user, current_database(), 'CREATE')) AS usable`);
    if (usable) {
      await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
      await q.query(`CREATE INDEX images_name_trgm_idx ON images USING gin (name gin_trgm_ops) WHERE deleted_at IS NULL`);
    }
    await q.query(`DROP INDEX images_user_name_idx`);
    await q.query(`CREATE INDEX images_user_lower_name_idx ON images (user_id, lower(name), id) WHERE deleted_at IS NULL`);
    await q.query(`CREATE UNIQUE INDEX sizes_user_name_key ON sizes (user_id, lower(name))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS sizes_user_name_key`);
    await q.query(`DROP INDEX IF EXISTS images_user_lower_name_idx`);
    await q.query(`CREATE INDEX images_user_name_idx ON images (user_id, name, id) WHERE deleted_at IS NULL`);
    // The extension stays: other objects may use it by now.
    await q.query(`DROP INDEX IF EXISTS images_name_trgm_idx`);
  }
}
