import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PrintStatus } from './entities/print.entity';

/** How prints use an image or a size. */
export interface PrintUsage {
  /** Prints that can still change (In Draft, Processing, Deleted = waiting to be re-processed, Error). */
  open: number;
  /** Prints that are finished (Completed, Cancelled): they keep what they used. */
  finished: number;
}

/** A Completed print whose files still exist. */
export interface PrintWithFiles {
  id: string;
  userId: string;
  printedAt: Date;
}

/** The statuses whose prints keep their items as they are. */
const FINISHED: PrintStatus[] = [PrintStatus.Completed, PrintStatus.Cancelled];

/**
 * The prints tables as other features may read them: usage of images and sizes, the
 * dashboard's counts, prints whose files are about to expire. It depends on nothing but the
 * database, so the features prints itself depends on (images, sizes) can use it without a
 * module cycle; order links are SQL fragments in print-read-model.ts.
 */
@Injectable()
export class PrintsReadService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Pass the caller's transaction as `manager` to count under its locks. */
  usageOfImages(imageIds: string[], manager: EntityManager = this.db.manager): Promise<Map<string, PrintUsage>> {
    return this.usage('image_id', imageIds, manager);
  }

  usageOfSizes(sizeIds: string[], manager: EntityManager = this.db.manager): Promise<Map<string, PrintUsage>> {
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

  /**
   * A user's prints in total and In Draft, test prints left out (the dashboard's figures):
   * two index lookups on the trigger-kept counters (print_counts), so the cost stays flat as
   * the history grows.
   */
  async countsFor(userId: string): Promise<{ total: number; inDraft: number }> {
    const [row] = await this.db.query(
      `SELECT
         (SELECT coalesce(sum(prints) FILTER (WHERE status = $2), 0) FROM print_counts WHERE user_id = $1 AND NOT test)::int AS in_draft,
         (SELECT coalesce(sum(prints), 0) FROM print_counts WHERE user_id = $1 AND NOT test)::int AS total`,
      [userId, PrintStatus.InDraft],
    );
    return { total: row.total, inDraft: row.in_draft };
  }

  /**
   * Completed prints with files, printed in [from, to), oldest first. The status is written
   * into the SQL, not bound, so the planner can use the partial retention index.
   */
  async completedWithFilesPrintedBetween(from: Date, to: Date, limit: number): Promise<PrintWithFiles[]> {
    const rows: Array<{ id: string; user_id: string; printed_at: Date }> = await this.db.query(
      `SELECT id, user_id, printed_at FROM prints
       WHERE status = '${PrintStatus.Completed}' AND files_deleted_at IS NULL AND printed_at < $1 AND printed_at >= $2
       ORDER BY printed_at LIMIT $3`,
      [to, from, limit],
    );
    return rows.map((r) => ({ id: r.id, userId: r.user_id, printedAt: new Date(r.printed_at) }));
  }
}
