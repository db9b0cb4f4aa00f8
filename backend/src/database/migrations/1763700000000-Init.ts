import { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1763700000000 implements MigrationInterface {
  name = 'Init1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        first_name varchar(100) NOT NULL DEFAULT '',
        last_name varchar(100) NOT NULL DEFAULT '',
        username varchar(50) NOT NULL,
        email varchar(254) NOT NULL,
        company varchar(100),
        phone varchar(20),
        password_hash varchar(100) NOT NULL,
        role varchar(10) NOT NULL DEFAULT 'user' CHECK (role IN ('admin', 'user')),
        status varchar(10) NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
        email_verified_at timestamptz,
        available_credits integer NOT NULL DEFAULT 0 CHECK (available_credits >= 0),
        used_credits integer NOT NULL DEFAULT 0 CHECK (used_credits >= 0),
        session_version integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`);
    await q.query(`CREATE UNIQUE INDEX users_username_key ON users (lower(username))`);
    await q.query(`CREATE INDEX users_created_at_idx ON users (created_at)`);
    await q.query(`
      CREATE TABLE auth_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        kind varchar(10) NOT NULL CHECK (kind IN ('verify', 'reset')),
        token_hash varchar(64) NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX auth_tokens_token_hash_key ON auth_tokens (token_hash)`);
    await q.query(`CREATE INDEX auth_tokens_user_id_idx ON auth_tokens (user_id)`);
    await q.query(`
      CREATE TABLE credit_transactions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        reason varchar(20) NOT NULL CHECK (reason IN ('purchase', 'admin_grant', 'print_charge', 'refund')),
        available_delta integer NOT NULL,
        used_delta integer NOT NULL DEFAULT 0,
        available_after integer NOT NULL,
        actor_id uuid,
        reference varchar(100),
        note varchar(300) NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX credit_transactions_user_created_idx ON credit_transactions (user_id, created_at)`);
    await q.query(
      `CREATE UNIQUE INDEX credit_transactions_reason_reference_key ON credit_transactions (reason, reference) WHERE reference IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE credit_transactions`);
    await q.query(`DROP TABLE auth_tokens`);
    await q.query(`DROP TABLE users`);
  }
}
