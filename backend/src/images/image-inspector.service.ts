import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { CpuPool, CpuTimeoutError } from '../cpu/cpu-pool';
import { ImageKind, UploadError } from './image-content';
import type { ArtMeasure, Inspection } from './image-decode';


/**
 * The one place (for the image library) that decodes images. The work itself (image-decode.ts)
 * runs in the CPU pool, so a hostile or huge file never holds up the API's event loop, and
 * always with the one configured pixel limit.
 */
@Injectable()
export class ImageInspectorService {
  private readonly logger = new Logger('ImageInspector');
  private readonly maxPixels: number;
  private readonly checkTimeoutMs: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly cpu: CpuPool,
  ) {
    this.maxPixels = config.uploads.maxPixels;
    this.checkTimeoutMs = config.uploads.checkTimeoutMs;
  }

  /**
   * What the uploaded file is and whether it is acceptable. A check that runs out of time, or
   * whose worker dies (a decoder running out of memory on a hostile file), refuses the file
   * instead of failing the whole batch.
   */
  async inspect(path: string, bytes: number): Promise<Inspection> {
    try {
      return await this.cpu.run('inspectUpload', [path, bytes, this.maxPixels], { timeoutMs: this.checkTimeoutMs });
    } catch (e) {
      if (e instanceof CpuTimeoutError) return { ok: false, error: UploadError.tooSlow };
      this.logger.warn(`checking an upload failed: ${e}`);
      return { ok: false, error: UploadError.damaged };
    }
  }

  /** Bounds of the visible art in source pixels and its ink mask (null: fully transparent). */
  measureArt(path: string, kind: ImageKind, width: number, height: number): Promise<ArtMeasure | null> {
    return this.cpu.run('measureArt', [path, kind, width, height, this.maxPixels]);
  }

  /** The WebP thumbnail of the library. */
  async preview(path: string, kind: ImageKind, width: number, height: number): Promise<Buffer> {
    return Buffer.from(await this.cpu.run('previewWebp', [path, kind, width, height, this.maxPixels]));
  }
}
