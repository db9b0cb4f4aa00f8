import { DataSource } from 'typeorm';

// Any constant shared by every node of one database: "gangsheet" as a 32-bit number.
const MIGRATION_LOCK = 0x67616e67;

/**
 * Runs pending migrations. On PostgreSQL every API and worker node does this at start, so
 * the run is serialised by a session advisory lock: the first node migrates, the others
 * wait and then find nothing to do (TypeORM itself takes no lock, and two nodes starting
 * on an empty database would both try to create the schema). PGlite is one process with
 * one connection, so it needs no lock (and a second connection to hold one does not exist).
 */
export async function runMigrations(dataSource: DataSource, { locked }: { locked: boolean }): Promise<void> {
  if (!locked) {
    await dataSource.runMigrations();
    return;
  }
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    // Waiting here for another node's migrations is expected; the pool's statement timeout must not end it.
    await lock.query('SET statement_timeout = 0');
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await dataSource.runMigrations();
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await lock.release();
  }
}
