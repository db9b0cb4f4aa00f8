import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** How prints use an image or a size. */
export interface PrintUsage {
  /** Prints that can still change (In Draft, Processing, Deleted = waiting to be re-processed, Error). */
  open: number;
  /** Prints that are finished (Completed, Cancelled): they keep what they used. */
  finished: number;
}

/** The print statuses that keep their items as they are (the values of PrintStatus). */
const FINISHED = ['Completed', 'Cancelled'];

/**
 * Whether images and sizes are used by prints, for the "in use" rules of deleting them. It
 * reads the prints tables with one query instead of asking the prints feature, which itself
 * depends on images and sizes (asking it would make a module cycle); see docs/architecture.md.
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
    const rows: { id: string; finished: boolean; prints: number }[] = await manager.query(
      `SELECT pi.${column} AS id, p.status = ANY($2) AS finished, count(DISTINCT p.id)::int AS prints
         FROM print_items pi JOIN prints p ON p.id = pi.print_id
        WHERE pi.${column} = ANY($1::uuid[])
        GROUP BY 1, 2`,
      [ids, FINISHED],
    );
    for (const r of rows) {
      const u = result.get(r.id) ?? { open: 0, finished: 0 };
      if (r.finished) u.finished += r.prints;
      else u.open += r.prints;
      result.set(r.id, u);
    }
    return result;
  }
}
