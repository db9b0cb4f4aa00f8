import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rolling a webhook's signing secret: the secret it replaced keeps signing deliveries (a
 * second `v1` in the signature header) until `previous_secret_expires_at`, so the receiver
 * can switch without refusing a delivery.
 */
export class WebhookSecretRotation1763900600000 implements MigrationInterface {
  name = 'WebhookSecretRotation1763900600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints ADD COLUMN previous_secret varchar(100) NULL`);
    await q.query(`ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_expires_at timestamptz NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints DROP COLUMN previous_secret_expires_at`);
    await q.query(`ALTER TABLE webhook_endpoints DROP COLUMN previous_secret`);
  }
}
