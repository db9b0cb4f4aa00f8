import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * Integration tests run against the real services of the machine: PostgreSQL and Redis.
 * DATABASE_URL / REDIS_URL choose them (CI sets both); the defaults are the local ones.
 * Each test file gets its own database, created here and dropped at the end.
 */
export const BASE_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `gs_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: BASE_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(BASE_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: BASE_DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
