import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { returned } from '../common/sql';
import { EngineDesign } from './engine.adapter';
import { PrintItem } from './entities/print-item.entity';
import { Print, PrintSheetFile } from './entities/print.entity';
import { withMasks, withLabels } from './print-designs';
import type { EditedLayout } from './print-layout';
import { StoredLayout } from './stored-layout';

/** A design of a print as the wait for its images sees it. */
export interface DesignReadiness {
  name: string;
  status: string;
  error: string | null;
  trim: { width: number; height: number } | null;
  /** The size's value (its width in inches), null when the size is gone. */
  value: number | null;
}

/** A Completed print whose sheet files are past retention. */
export interface ExpiredPrint {
  id: string;
  userId: string;
}

/**
 * The reads and writes of the processing job, its failure and its retention on `prints` and
 * `print_items` (and the images they point at): the services speak in named operations, the
 * SQL lives here. Writes that change a print's status match its current status and attempt
 * in the WHERE, so two runs of one attempt change it once. Methods that belong to a
 * transaction take its EntityManager.
 */
@Injectable()
export class PrintJobRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(fn: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(fn);
  }

  find(printId: string): Promise<Print | null> {
    return this.db.getRepository(Print).findOne({ where: { _id: printId } });
  }

  /** The job's heartbeat: its own record that the attempt is running. */
  async touch(printId: string, attempt: number): Promise<void> {
    await this.db.query(`UPDATE prints SET updated_at = now() WHERE id = $1 AND status = 'Processing' AND attempt = $2`, [printId, attempt]);
  }

  async stillProcessing(printId: string, attempt: number): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM prints WHERE id = $1 AND status = 'Processing' AND attempt = $2`, [printId, attempt]);
    return rows.length > 0;
  }

  /** The print's items with their images and sizes, in the order they were added. */
  items(printId: string): Promise<PrintItem[]> {
    return this.db.getRepository(PrintItem).find({ where: { printId }, relations: { image: true, size: true }, order: { createdAt: 'ASC' } });
  }

  /** The designs with their order labels when `on` (see withLabels). */
  withLabels(designs: EngineDesign[], on: boolean): Promise<EngineDesign[]> {
    return withLabels(this.db.manager, designs, on);
  }

  /** The designs with their images' stored ink masks (see withMasks). */
  withMasks(designs: EngineDesign[], items: readonly PrintItem[]): Promise<EngineDesign[]> {
    return withMasks(this.db.manager, designs, items);
  }

  /** Each item's id and its image's name (engine errors name designs by item id). */
  designNames(printId: string): Promise<Array<{ id: string; name: string }>> {
    return this.db.query(`SELECT i.id, img.name FROM print_items i JOIN images img ON img.id = i.image_id WHERE i.print_id = $1`, [printId]);
  }

  /** The seller's edited layout of the print, if any (print-layout.ts). */
  async editedLayout(printId: string): Promise<EditedLayout | null> {
    const [row] = await this.db.query(`SELECT edited_layout FROM prints WHERE id = $1`, [printId]);
    return row?.edited_layout ?? null;
  }

  /** The state of each design's image and the size it is printed at. */
  designReadiness(printId: string): Promise<DesignReadiness[]> {
    return this.db.query(
      `SELECT img.name, img.status, img.error, img.trim, sz.value FROM print_items i
         JOIN images img ON img.id = i.image_id LEFT JOIN sizes sz ON sz.id = i.size_id WHERE i.print_id = $1`,
      [printId],
    );
  }

  /** Copies of each image in the print. */
  async copiesByImage(printId: string): Promise<Map<string, number>> {
    const rows: Array<{ image_id: string; n: number }> = await this.db.query(
      `SELECT image_id, SUM(quantity)::int AS n FROM print_items WHERE print_id = $1 AND image_id IS NOT NULL GROUP BY image_id`,
      [printId],
    );
    return new Map(rows.map((r) => [r.image_id, r.n]));
  }

  /** The print's status and attempt, its row locked until the transaction ends; null when it is gone. */
  async lockAttempt(m: EntityManager, printId: string): Promise<{ status: string; attempt: number } | null> {
    const [row] = await m.query(`SELECT status, attempt FROM prints WHERE id = $1 FOR UPDATE`, [printId]);
    return row ?? null;
  }

  /** Completed with its files and layout (any earlier error and file deletion cleared); answers printedAt. */
  async complete(m: EntityManager, printId: string, files: PrintSheetFile[], layout: StoredLayout): Promise<Date> {
    const [row] = returned<{ printed_at: Date }>(
      await m.query(
        `UPDATE prints SET status = 'Completed', printed_at = now(), files = $2, layout = $3, files_deleted_at = NULL, error = NULL, updated_at = now()
         WHERE id = $1 RETURNING printed_at`,
        [printId, JSON.stringify(files), JSON.stringify(layout)],
      ),
    );
    return new Date(row.printed_at);
  }

  /** Completed prints printed before `cutoff` whose files are still kept, oldest first (a batch). */
  async expiredFiles(cutoff: Date, limit = 500): Promise<ExpiredPrint[]> {
    const rows: Array<{ id: string; user_id: string }> = await this.db.query(
      `SELECT id, user_id FROM prints WHERE status = 'Completed' AND files_deleted_at IS NULL AND printed_at < $1 ORDER BY printed_at LIMIT $2`,
      [cutoff, limit],
    );
    return rows.map((r) => ({ id: r.id, userId: r.user_id }));
  }

  /** Records that a Completed print's files were deleted (the row stays); false when another sweep did. */
  async markFilesDeleted(printId: string): Promise<boolean> {
    const rows = returned(
      await this.db.query(
        `UPDATE prints SET files = '[]', files_deleted_at = now(), updated_at = now() WHERE id = $1 AND status = 'Completed' AND files_deleted_at IS NULL RETURNING id`,
        [printId],
      ),
    );
    return rows.length > 0;
  }
}
