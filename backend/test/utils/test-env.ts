import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/configuration';
import { dataSourceOptions } from '../../src/database/data-source-options';

/**
 * Integration tests run against the real services of the machine: PostgreSQL and Redis.
 * DATABASE_URL / REDIS_URL choose them (CI sets both); the defaults are the local ones.
 * Each test file gets its own database, created here and dropped at the end.
 */
export const BASE_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const MIGRATIONS_DIR = join(__dirname, '../../src/database/migrations');
// Any constant of our own for the advisory lock that serialises building the template: "gstp".
const TEMPLATE_LOCK = 0x67737470;

const urlOf = (name: string) => {
  const url = new URL(BASE_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * A fresh database for one test file. By default it is a copy of a template that already holds
 * the schema of the current migrations (the app then finds nothing to migrate): copying is a
 * fraction of running every migration for each of the suite's apps. `empty` gives a database
 * without a schema, for the tests of migrating itself.
 */
export async function createTestDatabase({ empty = false } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `gs_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: BASE_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(empty ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${await migratedTemplate(admin)}`);
  } finally {
    await admin.end();
  }
  return {
    url: urlOf(name),
    drop: async () => {
      const c = new Client({ connectionString: BASE_DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * The template database for the migrations as they are now: named after a hash of the
 * migration files, so a new or edited migration gets a new template (and the old ones are
 * dropped). Built once per machine and schema by whichever test process comes first; the
 * others wait on the lock. It is published by a rename, so a half-built one is never copied.
 */
async function migratedTemplate(admin: Client): Promise<string> {
  const hash = createHash('sha256');
  for (const f of readdirSync(MIGRATIONS_DIR).filter((f) => /\.[jt]s$/.test(f)).sort()) hash.update(f).update(readFileSync(join(MIGRATIONS_DIR, f)));
  const name = `gs_tpl_${hash.digest('hex').slice(0, 16)}`;
  await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
  try {
    if ((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount) return name;
    const building = `${name}_build`;
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${building}`);
    const source = new DataSource(dataSourceOptions(loadConfig({ NODE_ENV: 'test', DATABASE_URL: urlOf(building), JWT_SECRET: 'x'.repeat(40) })));
    await source.initialize();
    try {
      await source.runMigrations();
    } finally {
      await source.destroy();
    }
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    const stale = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE 'gs\\_tpl\\_%' AND datname <> $1`, [name]);
    // a template another run is copying right now stays until a later run
    for (const { datname } of stale.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => undefined);
    return name;
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
  }
}
