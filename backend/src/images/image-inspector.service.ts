import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { CpuPool, CpuTimeoutError } from '../cpu/cpu-pool';
import { ImageKind, UploadError } from './image-content';
import type { ArtMeasure, Inspection } from './image-decode';

/**
 * A background step of an image that cannot succeed by trying again (it ran out of time):
 * the image ends in Error with this message, which is written for the seller.
 */
export class ImageStepError extends Error {
  override name = 'ImageStepError';
}

/** The seller's reason when a step runs out of time. */
export const tooSlowToPrepare = (ms: number) =>
  `This image takes too long to prepare (over ${Math.round(ms / 1000)} s). Simplify it (for an SVG: fewer filters and effects) or upload it as a PNG.`;

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
  private readonly stepTimeoutMs: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly cpu: CpuPool,
  ) {
    this.maxPixels = config.uploads.maxPixels;
    this.checkTimeoutMs = config.uploads.checkTimeoutMs;
    this.stepTimeoutMs = config.images.stepTimeoutMs;
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

  /**
   * Bounds of the visible art in source pixels and its ink mask (null: fully transparent).
   * Like the preview, limited to IMAGE_STEP_TIMEOUT_MS (ImageStepError after that: a file
   * that small in bytes can still be minutes of work, e.g. an SVG of large blurred shapes).
   */
  measureArt(path: string, kind: ImageKind, width: number, height: number): Promise<ArtMeasure | null> {
    return this.step(() => this.cpu.run('measureArt', [path, kind, width, height, this.maxPixels], { timeoutMs: this.stepTimeoutMs }));
  }

  /** The WebP thumbnail of the library. */
  async preview(path: string, kind: ImageKind, width: number, height: number): Promise<Buffer> {
    return Buffer.from(await this.step(() => this.cpu.run('previewWebp', [path, kind, width, height, this.maxPixels], { timeoutMs: this.stepTimeoutMs })));
  }

  private async step<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      if (e instanceof CpuTimeoutError) throw new ImageStepError(tooSlowToPrepare(this.stepTimeoutMs));
      throw e;
    }
  }
}
