import { MigrationInterface, QueryRunner } from 'typeorm';

export class ImagesAndSizes1763700100000 implements MigrationInterface {
  name = 'ImagesAndSizes1763700100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE image_categories (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX image_categories_user_name_key ON image_categories (user_id, lower(name))`);
    await q.query(`
      CREATE TABLE images (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name varchar(200) NOT NULL,
        category_id uuid REFERENCES image_categories(id) ON DELETE SET NULL,
        score numeric(2,1) NOT NULL DEFAULT 0 CHECK (score >= 0 AND score <= 5 AND score * 2 = floor(score * 2)),
        used_in_print integer NOT NULL DEFAULT 0 CHECK (used_in_print >= 0),
        original_name varchar(255) NOT NULL,
        file_key varchar(300) NOT NULL,
        mime varchar(50) NOT NULL,
        bytes integer NOT NULL,
        width integer,
        height integer,
        trim jsonb,
        preview_key varchar(300),
        status varchar(12) NOT NULL DEFAULT 'processing' CHECK (status IN ('processing', 'ready', 'error')),
        error varchar(500),
        deleted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // The library lists one user's live images sorted by one of these keys.
    await q.query(`CREATE INDEX images_user_created_idx ON images (user_id, created_at, id) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX images_user_name_idx ON images (user_id, name, id) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX images_user_score_idx ON images (user_id, score, id) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX images_user_used_idx ON images (user_id, used_in_print, id) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX images_user_category_idx ON images (user_id, category_id, created_at) WHERE deleted_at IS NULL`);
    await q.query(`
      CREATE TABLE sizes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        value numeric(8,3) NOT NULL CHECK (value > 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX sizes_user_idx ON sizes (user_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sizes`);
    await q.query(`DROP TABLE images`);
    await q.query(`DROP TABLE image_categories`);
  }
}
