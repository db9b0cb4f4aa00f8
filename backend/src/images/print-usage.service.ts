import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** How prints use an image or a size. */
export interface PrintUsage {
  /** Prints that can still change (In Draft, Processing, Deleted = waiting to be re-processed, or any unknown state). */
  open: number;
  /** Prints that are finished (Completed, Cancelled): they keep what they used. */
  finished: number;
}

const FINISHED = new Set(['completed', 'cancelled', 'canceled']);

/**
 * Reads `print_items` joined with `prints`, which belong to the Prints feature. Until its
 * migration has run the tables do not exist and nothing is in use. Statuses are compared
 * loosely ("In Draft", "in_draft", "Completed") so the check does not depend on how that
 * feature spells them; an unknown status counts as open, the safe side.
 */
@Injectable()
export class PrintUsageService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async forImages(imageIds: string[], manager: EntityManager = this.db.manager): Promise<Map<string, PrintUsage>> {
    return this.usage('image_id', imageIds, manager);
  }

  async forSizes(sizeIds: string[], manager: EntityManager = this.db.manager): Promise<Map<string, PrintUsage>> {
    return this.usage('size_id', sizeIds, manager);
  }

  private async usage(column: 'image_id' | 'size_id', ids: string[], manager: EntityManager) {
    const result = new Map<string, PrintUsage>();
    if (!ids.length) return result;
    const [{ ready }] = await manager.query(
      `SELECT to_regclass('print_items') IS NOT NULL AND to_regclass('prints') IS NOT NULL AS ready`,
    );
    if (!ready) return result;
    const rows: { id: string; status: string | null; prints: number }[] = await manager.query(
      `SELECT pi.${column} AS id, p.status::text AS status, count(DISTINCT p.id)::int AS prints
         FROM print_items pi JOIN prints p ON p.id = pi.print_id
        WHERE pi.${column} = ANY($1::uuid[])
        GROUP BY pi.${column}, p.status`,
      [ids],
    );
    for (const r of rows) {
      const u = result.get(r.id) ?? { open: 0, finished: 0 };
      const status = (r.status ?? '').toLowerCase().replace(/[^a-z]/g, '');
      if (FINISHED.has(status)) u.finished += r.prints;
      else u.open += r.prints;
      result.set(r.id, u);
    }
    return result;
  }
}
