import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deactivating an account now revokes its API keys, so reactivating it does not bring them
 * back. Accounts deactivated before that still hold unrevoked keys: they are revoked here.
 */
export class RevokeKeysOfInactiveUsers1764000200000 implements MigrationInterface {
  name = 'RevokeKeysOfInactiveUsers1764000200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE api_keys k SET revoked_at = now() FROM users u WHERE u.id = k.user_id AND u.status = 'inactive' AND k.revoked_at IS NULL`);
  }

  async down(): Promise<void> {
    // A revoked key stays revoked.
  }
}
