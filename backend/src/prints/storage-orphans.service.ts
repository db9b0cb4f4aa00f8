import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { ObjectInfo } from '../storage/object-store';
import { StorageService } from '../storage/storage.service';
import { PrintSheetFile } from './entities/print.entity';
import { RUN_PREFIX } from './print-job.service';

const IMAGE_KEY = /^users\/[^/]+\/images\/[^/]+$/;
const PRINT_KEY = /^users\/[^/]+\/prints\/([0-9a-f-]{36})\/[^/]+\/.+$/;
const HEALTH_KEY = /^\.health\//;
const BATCH = 500;
const USERS = 'users/';

export interface OrphanReport {
  /** Stored objects looked at (at most STORAGE_ORPHAN_SWEEP_OBJECTS). */
  examined: number;
  /** Stored objects no row refers to, removed. */
  objects: number;
  /** Writes in progress and render folders left by processes that died. */
  leftovers: number;
}

/**
 * Reconciles the store with the database: removes the stored objects no row refers to (an
 * image's file or preview, a print's sheet files), once they are older than
 * STORAGE_ORPHAN_MIN_AGE_HOURS, so an upload or render still being written is never taken.
 * They come from crashes between a write and its row (or a delete and its files). Only keys
 * of the app's own layout are judged; anything else in the bucket stays. Runs with the
 * print-retention job.
 *
 * A run looks at no more than STORAGE_ORPHAN_SWEEP_OBJECTS objects, so its cost does not grow
 * with the bucket: it starts at a random place among the users' keys, goes to the end and
 * wraps around to the start. A store smaller than that is swept whole every run; a larger one
 * a slice at a time, every part of it in turn reached by the random starts.
 */
@Injectable()
export class StorageOrphansService {
  private readonly logger = new Logger('StorageOrphans');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly db: DataSource,
    private readonly storage: StorageService,
  ) {}

  /** `from`: the key to start after (a random place among the users' by default). */
  async sweep(now = new Date(), from = `${USERS}${randomBytes(4).toString('hex')}`): Promise<OrphanReport> {
    const before = new Date(now.getTime() - this.config.storage.orphanMinAgeMs);
    const report: OrphanReport = { examined: 0, objects: 0, leftovers: 0 };
    let batch: ObjectInfo[] = [];
    const flush = async () => {
      report.objects += await this.removeUnreferenced(batch);
      batch = [];
    };
    // After `from` to the end, then from the start up to `from`.
    const passes: Array<{ after?: string; until?: string }> = [{ after: from }, { until: from }];
    listing: for (const { after, until } of passes) {
      for await (const o of this.storage.store.list(USERS, after)) {
        if (until !== undefined && o.key > until) break;
        if (report.examined === this.config.storage.orphanSweepObjects) break listing;
        report.examined++;
        if (o.modified >= before) continue;
        batch.push(o);
        if (batch.length === BATCH) await flush();
      }
    }
    await flush();
    for await (const o of this.storage.store.list('.health/')) {
      if (o.modified < before && HEALTH_KEY.test(o.key)) {
        await this.storage.delete(o.key);
        report.leftovers++;
      }
    }
    report.leftovers += await this.storage.removeStaleWrites(before);
    report.leftovers += await this.removeStaleRenderFolders(before);
    if (report.objects || report.leftovers) this.logger.log(`orphans: ${JSON.stringify(report)}`);
    return report;
  }

  private async removeUnreferenced(objects: ObjectInfo[]): Promise<number> {
    if (!objects.length) return 0;
    const imageKeys = objects.filter((o) => IMAGE_KEY.test(o.key)).map((o) => o.key);
    const printIds = [...new Set(objects.map((o) => PRINT_KEY.exec(o.key)?.[1]).filter((id): id is string => !!id))];
    const referenced = new Set<string>();
    if (imageKeys.length) {
      const rows: Array<{ file_key: string; preview_key: string | null }> = await this.db.query(
        `SELECT file_key, preview_key FROM images WHERE file_key = ANY($1) OR preview_key = ANY($1)`,
        [imageKeys],
      );
      for (const r of rows) {
        referenced.add(r.file_key);
        if (r.preview_key) referenced.add(r.preview_key);
      }
    }
    const printsFound = new Set<string>();
    if (printIds.length) {
      const rows: Array<{ id: string; status: string; files: PrintSheetFile[] }> = await this.db.query(`SELECT id, status, files FROM prints WHERE id::text = ANY($1)`, [printIds]);
      for (const r of rows) {
        printsFound.add(r.id);
        for (const f of r.files ?? []) {
          referenced.add(f.key);
          referenced.add(f.previewKey);
          for (const x of f.formats ?? []) referenced.add(x.key);
        }
      }
    }
    let n = 0;
    for (const o of objects) {
      const printId = PRINT_KEY.exec(o.key)?.[1];
      const judged = IMAGE_KEY.test(o.key) || !!printId;
      if (!judged || referenced.has(o.key)) continue;
      // a run folder of a live attempt is the recovery sweep's to judge
      if (printId && o.key.includes(`/${RUN_PREFIX}`) && printsFound.has(printId)) continue;
      await this.storage.delete(o.key);
      n++;
    }
    return n;
  }

  /** Temporary raster folders of renders whose process died (DATA_DIR/tmp/runs). */
  private async removeStaleRenderFolders(before: Date): Promise<number> {
    const dir = join(this.config.dataDir, 'tmp', 'runs');
    const names = await readdir(dir).catch(() => [] as string[]);
    let n = 0;
    for (const name of names) {
      const st = await stat(join(dir, name)).catch(() => null);
      if (st && st.mtime < before) {
        await rm(join(dir, name), { recursive: true, force: true });
        n++;
      }
    }
    return n;
  }
}
