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

/**
 * A timestamp column read as the text a JavaScript Date of it becomes in JSON
 * (`toISOString`: UTC, milliseconds, truncated like a Date truncates microseconds), or null.
 * For rows that are only passed on as JSON: no Date is parsed from the row, and none is
 * serialised again.
 */
export const isoTimestampSql = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
