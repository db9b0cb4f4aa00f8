import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Changing the e-mail on the profile is pending until the link mailed to the new address is
 * opened: the link is an auth token of kind 'email' that carries the address it applies.
 */
export class EmailChangeTokens1764000300000 implements MigrationInterface {
  name = 'EmailChangeTokens1764000300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE auth_tokens ADD COLUMN email varchar(254) NULL`);
    await q.query(`ALTER TABLE auth_tokens DROP CONSTRAINT auth_tokens_kind_check`);
    await q.query(`ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_kind_check CHECK (kind IN ('verify', 'reset', 'email'))`);
    await q.query(`ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_email_check CHECK ((kind = 'email') = (email IS NOT NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM auth_tokens WHERE kind = 'email'`);
    await q.query(`ALTER TABLE auth_tokens DROP CONSTRAINT auth_tokens_email_check`);
    await q.query(`ALTER TABLE auth_tokens DROP CONSTRAINT auth_tokens_kind_check`);
    await q.query(`ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_kind_check CHECK (kind IN ('verify', 'reset'))`);
    await q.query(`ALTER TABLE auth_tokens DROP COLUMN email`);
  }
}
