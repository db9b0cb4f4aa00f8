import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Live-image counts per user and category, kept by a trigger. The library answers every
 * page with its total (`pagination.totalDocuments`) and the chips with per-category
 * counts; counting 50,000 index entries on each request was most of its latency, reading
 * a handful of counter rows is not. Uncategorised images count under the nil uuid.
 */
export class ImageLibraryCounts1763700160000 implements MigrationInterface {
  name = 'ImageLibraryCounts1763700160000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE image_library_counts (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        category_key uuid NOT NULL,
        images integer NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, category_key)
      )`);
    await q.query(`
      CREATE FUNCTION image_library_count() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.deleted_at IS NULL THEN
          UPDATE image_library_counts SET images = images - 1
           WHERE user_id = OLD.user_id AND category_key = coalesce(OLD.category_id, '00000000-0000-0000-0000-000000000000');
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.deleted_at IS NULL THEN
          INSERT INTO image_library_counts (user_id, category_key, images)
          VALUES (NEW.user_id, coalesce(NEW.category_id, '00000000-0000-0000-0000-000000000000'), 1)
          ON CONFLICT (user_id, category_key) DO UPDATE SET images = image_library_counts.images + 1;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER images_library_count AFTER INSERT OR DELETE OR UPDATE OF user_id, category_id, deleted_at ON images
      FOR EACH ROW EXECUTE FUNCTION image_library_count()`);
    // A category chip sorted by name (the other sort keys are served by images_user_category_idx well enough).
    await q.query(`CREATE INDEX images_user_category_name_idx ON images (user_id, category_id, lower(name), id) WHERE deleted_at IS NULL`);
    await q.query(`
      INSERT INTO image_library_counts (user_id, category_key, images)
      SELECT user_id, coalesce(category_id, '00000000-0000-0000-0000-000000000000'), count(*)
        FROM images WHERE deleted_at IS NULL GROUP BY 1, 2`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX images_user_category_name_idx`);
    await q.query(`DROP TRIGGER images_library_count ON images`);
    await q.query(`DROP FUNCTION image_library_count()`);
    await q.query(`DROP TABLE image_library_counts`);
  }
}
