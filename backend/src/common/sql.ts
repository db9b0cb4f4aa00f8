import type { EntityManager } from 'typeorm';

/**
 * The rows of an UPDATE/DELETE ... RETURNING run through `query()`: TypeORM's postgres
 * driver answers `[rows, count]` for those statements, and plain rows for a SELECT.
 */
export function returned<T>(result: any): T[] {
  return Array.isArray(result?.[0]) ? result[0] : result;
}

/**
 * Runs `fn` on `m` so that a failure of `fn` does not abort the caller's transaction: inside
 * one it is wrapped in a savepoint, rolled back to on error. Returns null (and calls
 * `onError`) when `fn` throws: for writes that must never fail the change they belong to
 * (a bell notification, a mail), while still committing with it.
 */
export async function savepointed<T>(m: EntityManager, name: string, fn: () => Promise<T>, onError: (e: unknown) => void): Promise<T | null> {
  const inTransaction = !!m.queryRunner?.isTransactionActive;
  try {
    if (inTransaction) await m.query(`SAVEPOINT ${name}`);
    const v = await fn();
    if (inTransaction) await m.query(`RELEASE SAVEPOINT ${name}`);
    return v;
  } catch (e) {
    if (inTransaction) await m.query(`ROLLBACK TO SAVEPOINT ${name}`);
    onError(e);
    return null;
  }
}
