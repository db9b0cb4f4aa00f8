import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every event an account's webhooks would carry, kept for the catch-up list (GET /api/events):
 * `seq` orders them for the cursor, `id` is the envelope id the deliveries send.
 */
export class WebhookEvents1765000400000 implements MigrationInterface {
  name = 'WebhookEvents1765000400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_events (
        seq bigserial PRIMARY KEY,
        id uuid NOT NULL UNIQUE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        type varchar(40) NOT NULL,
        envelope jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhook_events_user_seq ON webhook_events (user_id, seq)`);
    await q.query(`CREATE INDEX webhook_events_user_type_seq ON webhook_events (user_id, type, seq)`);
    await q.query(`CREATE INDEX webhook_events_created ON webhook_events (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_events`);
  }
}
