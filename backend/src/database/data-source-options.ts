import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { PGliteDriver } from 'typeorm-pglite';
import { AppConfig } from '../config/configuration';

/**
 * One definition of the database for the app, the worker, the TypeORM CLI and tests:
 * PostgreSQL when DATABASE_URL is set, otherwise PGlite (real Postgres compiled to WASM)
 * in DATA_DIR/db. The same migrations run in both; the schema never comes from `synchronize`.
 */
export function dataSourceOptions(config: AppConfig): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    entities: [join(__dirname, '..', '**', '*.entity.{ts,js}')],
    migrations: [join(__dirname, 'migrations', '*.{ts,js}')],
    migrationsRun: false,
    synchronize: false,
    logging: config.database.logging,
    // Postgres 13+ has gen_random_uuid() built in; the migrations need no extension (PGlite has none).
    uuidExtension: 'pgcrypto' as const,
    installExtensions: false,
  };
  if (config.database.url) {
    const d = config.database;
    return {
      ...common,
      url: d.url,
      // node-postgres pool options: a bounded wait for a connection (no request queues
      // forever behind a stuck pool), and server-side limits so a stuck statement or an
      // abandoned transaction cannot hold a connection indefinitely.
      extra: {
        max: d.poolMax,
        connectionTimeoutMillis: d.acquireTimeoutMs,
        statement_timeout: d.statementTimeoutMs,
        idle_in_transaction_session_timeout: d.idleInTransactionTimeoutMs,
      },
    };
  }
  mkdirSync(config.database.pgliteDir, { recursive: true });
  return {
    ...common,
    driver: new PGliteDriver({ dataDir: config.database.pgliteDir }).driver,
    // PGlite is a single connection; TypeORM's pool must not pretend otherwise.
    extra: { max: 1 },
  } as DataSourceOptions;
}
