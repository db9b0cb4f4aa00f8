import { EntityManager } from 'typeorm';

/**
 * The integrator's reference and metadata of a print, and whether it is a test print, as its
 * webhook events carry them (an event with `test: true` goes to test endpoints only).
 */
export interface PrintRefs {
  externalId: string | null;
  metadata: Record<string, string>;
  test: boolean;
}

/** Read with the caller's manager, so an event written in a transaction sees the same row. */
export async function printRefs(m: EntityManager, printId: string): Promise<PrintRefs> {
  const [row] = await m.query(`SELECT external_id, metadata, test FROM prints WHERE id = $1`, [printId]);
  return { externalId: row?.external_id ?? null, metadata: row?.metadata ?? {}, test: !!row?.test };
}
