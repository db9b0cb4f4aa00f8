import { readFileSync } from 'node:fs';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';

/** How long a read of the browser tests' clock file holds, ms. */
const FILE_READ_MS = 1000;

/**
 * The time production batching decides by (cut-offs, waits). The API tests replace `now`;
 * the browser tests, whose server is another process, move it through the file named by
 * E2E_PRODUCTION_CLOCK_FILE (milliseconds to add; refused with NODE_ENV=production, and
 * unset it is never read).
 */
@Injectable()
export class Clock {
  private readonly file?: string;
  private offset = 0;
  private readAt = 0;

  constructor(@Optional() @Inject(APP_CONFIG) config?: AppConfig) {
    this.file = config?.shops.e2eClockFile;
  }

  now(): Date {
    if (!this.file) return new Date();
    if (Date.now() - this.readAt > FILE_READ_MS) {
      this.readAt = Date.now();
      try {
        const ms = Number(readFileSync(this.file, 'utf8').trim());
        this.offset = Number.isFinite(ms) ? ms : 0;
      } catch {
        this.offset = 0; // no file: the real time
      }
    }
    return new Date(Date.now() + this.offset);
  }
}
