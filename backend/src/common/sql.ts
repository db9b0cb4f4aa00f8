/**
 * The rows of an UPDATE/DELETE ... RETURNING run through `query()`: TypeORM's postgres
 * driver answers `[rows, count]` for those statements, and plain rows for a SELECT.
 */
export function returned<T>(result: any): T[] {
  return Array.isArray(result?.[0]) ? result[0] : result;
}
