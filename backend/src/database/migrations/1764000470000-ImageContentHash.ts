import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Designs imported from shop orders are kept once per seller: the SHA-256 of the downloaded
 * file is stored on the image, and the same bytes imported again reuse that image. Unique
 * among the seller's live images, so two imports racing for the same file cannot both add it.
 */
export class ImageContentHash1764000470000 implements MigrationInterface {
  name = 'ImageContentHash1764000470000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE images ADD COLUMN content_hash char(64) NULL`);
    await q.query(`CREATE UNIQUE INDEX images_user_content_hash_key ON images (user_id, content_hash) WHERE content_hash IS NOT NULL AND deleted_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX images_user_content_hash_key`);
    await q.query(`ALTER TABLE images DROP COLUMN content_hash`);
  }
}
