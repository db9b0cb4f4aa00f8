import * as fs from 'fs';

/**
 * Where a writer's bytes go: a file, or a stream into the object store (see the print
 * engine). `write` resolves once the sink can take more.
 */
export interface ByteSink {
  /**
   * Hands `buf` over: the sink may keep it until the output is finished (a bucket's part is
   * gathered from the buffers themselves), so the writer never changes it after.
   */
  write(buf: Buffer): Promise<void>;
  /** Completes the output (the object exists once this resolves). */
  finish(): Promise<void>;
  /** Stops and removes whatever was written. */
  abort(): Promise<void>;
}

/** Opens the sink of an output target (a path, or a storage key); `contentType` is the file's MIME type. */
export type OpenSink = (target: string, contentType: string) => Promise<ByteSink>;

/** A file on disk, written in order. */
export async function fileSink(path: string): Promise<ByteSink> {
  const fh = await fs.promises.open(path, 'w');
  return {
    async write(buf) {
      let off = 0;
      while (off < buf.length) off += (await fh.write(buf, off, buf.length - off)).bytesWritten;
    },
    finish: () => fh.close(),
    async abort() {
      await fh.close().catch(() => undefined);
      await fs.promises.unlink(path).catch(() => undefined);
    },
  };
}

export const openFile: OpenSink = (target) => fileSink(target);
