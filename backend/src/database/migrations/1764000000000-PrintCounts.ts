import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Counters kept by triggers, so a list's total and the dashboard cost the same for a seller
 * with 100 prints as for one with 100,000 (counting index entries grew with the history).
 *
 * - `print_counts`: prints per user, status and type. The prints list's total without a
 *   date filter and the dashboard's print figures add up a handful of these rows.
 * - `image_library_counts.printed`: live images used in at least one print (the dashboard's
 *   "printed images"), beside the library's existing per-category count.
 *
 * A trigger only writes when a row's contribution changes (a status change, a delete), so
 * the frequent `used_in_print` bumps of an image already counted write nothing. When a print
 * moves between two counter rows, the two rows are locked in key order: two transactions
 * moving prints of one seller in opposite directions cannot deadlock on them.
 */
export class PrintCounts1764000000000 implements MigrationInterface {
  name = 'PrintCounts1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE print_counts (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        status varchar(12) NOT NULL,
        type varchar(12) NOT NULL,
        prints integer NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, status, type)
      )`);
    await q.query(`
      CREATE FUNCTION print_count_bump(u uuid, s varchar, t varchar, delta integer) RETURNS void LANGUAGE sql AS $$
        INSERT INTO print_counts (user_id, status, type, prints) VALUES (u, s, t, delta)
        ON CONFLICT (user_id, status, type) DO UPDATE SET prints = print_counts.prints + delta
      $$`);
    await q.query(`
      CREATE FUNCTION print_count() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          PERFORM print_count_bump(NEW.user_id, NEW.status, NEW.type, 1);
        ELSIF TG_OP = 'DELETE' THEN
          PERFORM print_count_bump(OLD.user_id, OLD.status, OLD.type, -1);
        ELSIF (OLD.user_id, OLD.status, OLD.type) IS DISTINCT FROM (NEW.user_id, NEW.status, NEW.type) THEN
          IF (OLD.user_id, OLD.status, OLD.type) < (NEW.user_id, NEW.status, NEW.type) THEN
            PERFORM print_count_bump(OLD.user_id, OLD.status, OLD.type, -1);
            PERFORM print_count_bump(NEW.user_id, NEW.status, NEW.type, 1);
          ELSE
            PERFORM print_count_bump(NEW.user_id, NEW.status, NEW.type, 1);
            PERFORM print_count_bump(OLD.user_id, OLD.status, OLD.type, -1);
          END IF;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER prints_count AFTER INSERT OR DELETE OR UPDATE OF user_id, status, type ON prints
      FOR EACH ROW EXECUTE FUNCTION print_count()`);
    await q.query(`
      INSERT INTO print_counts (user_id, status, type, prints)
      SELECT user_id, status, type, count(*) FROM prints GROUP BY 1, 2, 3`);

    // "Printed date, newest first" keeps unprinted prints last: an index in exactly that order
    // (the ascending one, prints_user_printed_idx, already puts nulls last).
    await q.query(`CREATE INDEX prints_user_printed_desc_idx ON prints (user_id, printed_at DESC NULLS LAST, id DESC)`);
    await q.query(`ALTER TABLE image_library_counts ADD COLUMN printed integer NOT NULL DEFAULT 0`);
    await q.query(`DROP TRIGGER images_library_count ON images`);
    await q.query(`DROP FUNCTION image_library_count()`);
    await q.query(`
      CREATE FUNCTION image_library_bump(u uuid, k uuid, d_images integer, d_printed integer) RETURNS void LANGUAGE sql AS $$
        INSERT INTO image_library_counts (user_id, category_key, images, printed) VALUES (u, k, d_images, d_printed)
        ON CONFLICT (user_id, category_key) DO UPDATE
          SET images = image_library_counts.images + d_images, printed = image_library_counts.printed + d_printed
      $$`);
    await q.query(`
      CREATE FUNCTION image_library_count() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        nil CONSTANT uuid := '00000000-0000-0000-0000-000000000000';
        old_key uuid; new_key uuid;
        old_live integer := 0; old_printed integer := 0; new_live integer := 0; new_printed integer := 0;
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.deleted_at IS NULL THEN
          old_key := coalesce(OLD.category_id, nil);
          old_live := 1;
          old_printed := (OLD.used_in_print > 0)::integer;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.deleted_at IS NULL THEN
          new_key := coalesce(NEW.category_id, nil);
          new_live := 1;
          new_printed := (NEW.used_in_print > 0)::integer;
        END IF;
        IF TG_OP = 'UPDATE' AND OLD.user_id = NEW.user_id AND old_key IS NOT DISTINCT FROM new_key THEN
          IF (old_live, old_printed) <> (new_live, new_printed) THEN
            PERFORM image_library_bump(NEW.user_id, coalesce(new_key, old_key), new_live - old_live, new_printed - old_printed);
          END IF;
          RETURN NULL;
        END IF;
        -- Two counter rows: lock them in key order.
        IF old_live = 1 AND (new_live = 0 OR (OLD.user_id, old_key) < (NEW.user_id, new_key)) THEN
          PERFORM image_library_bump(OLD.user_id, old_key, -1, -old_printed);
          IF new_live = 1 THEN PERFORM image_library_bump(NEW.user_id, new_key, 1, new_printed); END IF;
        ELSE
          IF new_live = 1 THEN PERFORM image_library_bump(NEW.user_id, new_key, 1, new_printed); END IF;
          IF old_live = 1 THEN PERFORM image_library_bump(OLD.user_id, old_key, -1, -old_printed); END IF;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER images_library_count AFTER INSERT OR DELETE OR UPDATE OF user_id, category_id, deleted_at, used_in_print ON images
      FOR EACH ROW EXECUTE FUNCTION image_library_count()`);
    await q.query(`
      UPDATE image_library_counts c SET printed = x.n
        FROM (SELECT user_id, coalesce(category_id, '00000000-0000-0000-0000-000000000000') AS k, count(*) AS n
                FROM images WHERE deleted_at IS NULL AND used_in_print > 0 GROUP BY 1, 2) x
       WHERE c.user_id = x.user_id AND c.category_key = x.k`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER images_library_count ON images`);
    await q.query(`DROP FUNCTION image_library_count()`);
    await q.query(`DROP FUNCTION image_library_bump(uuid, uuid, integer, integer)`);
    await q.query(`ALTER TABLE image_library_counts DROP COLUMN printed`);
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
    await q.query(`DROP INDEX prints_user_printed_desc_idx`);
    await q.query(`DROP TRIGGER prints_count ON prints`);
    await q.query(`DROP FUNCTION print_count()`);
    await q.query(`DROP FUNCTION print_count_bump(uuid, varchar, varchar, integer)`);
    await q.query(`DROP TABLE print_counts`);
  }
}
