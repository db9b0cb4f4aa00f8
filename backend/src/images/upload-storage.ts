import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { StorageEngine } from 'multer';

/** A file of a multipart upload, spooled to a temporary file. */
export interface SpooledFile extends Express.Multer.File {
  /** Set when the file went over the size limit; its bytes were discarded. */
  tooLarge?: boolean;
}

/**
 * Multer storage that spools each file to disk (a batch of large originals never sits in
 * memory) and, unlike multer's own `fileSize` limit, turns an oversized file into a
 * per-file error instead of aborting the whole batch.
 */
export class SpoolStorage implements StorageEngine {
  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  _handleFile(_req: IncomingMessage, file: Express.Multer.File, cb: (error?: any, info?: Partial<SpooledFile>) => void): void {
    const path = join(this.dir, randomUUID());
    const out = createWriteStream(path, { flags: 'wx' });
    const input = file.stream;
    let size = 0;
    let tooLarge = false;
    let done = false;
    const finish = (error?: unknown, info?: Partial<SpooledFile>) => {
      if (done) return;
      done = true;
      cb(error, info);
    };
    out.on('error', (e) => {
      input.resume();
      void unlink(path).catch(() => undefined);
      finish(e);
    });
    input.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (tooLarge) return;
      if (size > this.maxBytes) {
        tooLarge = true;
        out.destroy();
        input.resume();
        return;
      }
      if (!out.write(chunk)) {
        input.pause();
        out.once('drain', () => input.resume());
      }
    });
    input.on('error', (e) => {
      out.destroy();
      void unlink(path).catch(() => undefined);
      finish(e);
    });
    input.on('end', () => {
      if (tooLarge) {
        void unlink(path)
          .catch(() => undefined)
          .then(() => finish(null, { size, tooLarge: true }));
        return;
      }
      out.end(() => finish(null, { path, size }));
    });
  }

  _removeFile(_req: IncomingMessage, file: Express.Multer.File, cb: (error: Error | null) => void): void {
    if (!file.path) return cb(null);
    unlink(file.path).then(
      () => cb(null),
      () => cb(null),
    );
  }
}

/** Removes the temporary files of a request's uploads (whatever was not taken into storage). */
export async function discardSpooled(files: readonly SpooledFile[]): Promise<void> {
  await Promise.all(files.map((f) => (f.path ? unlink(f.path).catch(() => undefined) : undefined)));
}
