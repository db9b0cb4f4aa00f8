import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notifications of the header bell, and an index that lets the dashboard count a seller's
 * prints by status from the index alone.
 *
 * `dedupe_key` makes a notification idempotent: a job that runs twice (Bull's stalled-job
 * recovery, the expiry sweep on every tick) stores it once.
 */
export class Notifications1763900300000 implements MigrationInterface {
  name = 'Notifications1763900300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE notifications (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        type varchar(10) NOT NULL CHECK (type IN ('print', 'image', 'size', 'payment', 'profile')),
        message varchar(500) NOT NULL,
        attachment_id varchar(64),
        dedupe_key varchar(200) UNIQUE,
        read_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX notifications_user_created_idx ON notifications (user_id, created_at DESC, id)`);
    await q.query(`CREATE INDEX notifications_user_unread_idx ON notifications (user_id, created_at DESC) WHERE read_at IS NULL`);
    // Pruning deletes by age across all users.
    await q.query(`CREATE INDEX notifications_created_idx ON notifications (created_at)`);
    await q.query(`CREATE INDEX prints_user_status_idx ON prints (user_id, status)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX prints_user_status_idx`);
    await q.query(`DROP TABLE notifications`);
  }
}
