import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { StorageService } from '../storage/storage.service';
import { printFolder } from './print-lifecycle';
import { PrintJobRepository } from './print-job.repository';

/**
 * Retention: the sheet files of Completed prints are deleted PRINT_RETENTION_DAYS after
 * printedAt; the print's row stays (its files answer 410). Runs as the repeatable
 * `print-retention` job on one node at a time; safe to run twice.
 */
@Injectable()
export class PrintRetentionService {
  private readonly logger = new Logger('PrintRetention');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly prints: PrintJobRepository,
    private readonly storage: StorageService,
  ) {}

  /** Deletes the files of prints past retention (a batch per run); answers how many prints lost theirs. */
  async expireFiles(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.prints.retentionDays * 86_400_000);
    let n = 0;
    for (const p of await this.prints.expiredFiles(cutoff)) {
      // files first: a crash in between leaves the row to be retried, never orphaned files
      await this.storage.deleteFolder(printFolder(p.userId, p.id));
      if (await this.prints.markFilesDeleted(p.id)) n++;
    }
    if (n) this.logger.log(`retention: deleted the files of ${n} print(s)`);
    return n;
  }
}
