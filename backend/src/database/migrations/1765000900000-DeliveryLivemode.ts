import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every delivery's envelope carries `livemode`. Deliveries recorded before endpoints had a mode
 * were all of live endpoints, so a redelivery of one says `livemode: true` like a new event.
 */
export class DeliveryLivemode1765000900000 implements MigrationInterface {
  name = 'DeliveryLivemode1765000900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE webhook_deliveries SET payload = payload || '{"livemode": true}'::jsonb WHERE NOT payload ? 'livemode'`);
  }

  async down(): Promise<void> {
    // The field is true to what those deliveries were; nothing to take back.
  }
}
