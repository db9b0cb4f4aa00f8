import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row per sign-in. The session cookie's JWT names its row (`sid`), and every request
 * checks that the row still exists and has not expired. Logout deletes the row, so the
 * cookie stops working on the server instead of only being forgotten by the browser.
 */
export class Sessions1763800200000 implements MigrationInterface {
  name = 'Sessions1763800200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX sessions_user_id_idx ON sessions (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sessions`);
  }
}
