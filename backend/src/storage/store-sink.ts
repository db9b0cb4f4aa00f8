import { PassThrough } from 'node:stream';
import type { ByteSink } from '../gangsheet/render/byte-sink';
import { AppConfig } from '../config/configuration';
import { createObjectStore } from './object-store.factory';
import { ObjectStore } from './object-store';

/**
 * A writer's output streamed into the store as `key` (S3: a multipart upload whose parts are
 * spooled to temp files of the part size, so the bytes held in memory are a read chunk per
 * part in flight): the object exists once finish() resolves; abort() removes it.
 */
export function storeSink(store: ObjectStore, key: string, contentType: string): ByteSink {
  if (store.open) {
    const write = store.open(key, { contentType });
    return { write: (buf) => write.write(buf), finish: async () => void (await write.finish()), abort: () => write.abort() };
  }
  const body = new PassThrough({ highWaterMark: 1 << 20 });
  const abort = new AbortController();
  let failed: unknown = null;
  const done = store.put(key, body, { contentType, signal: abort.signal });
  done.catch((e) => (failed = e ?? new Error('write failed')));
  return {
    async write(buf) {
      if (failed) throw failed;
      // not copied: the writer hands the buffer over (ByteSink.write)
      if (!body.write(buf))
        await new Promise<void>((resolve, reject) => {
          body.once('drain', resolve);
          done.catch(reject);
        });
    },
    async finish() {
      body.end();
      await done;
    },
    async abort() {
      abort.abort();
      body.destroy();
      await done.catch(() => undefined);
    },
  };
}

/**
 * Sinks into the store whose uploads finish in the background: a sink's finish() resolves
 * once its last bytes are handed to the store and fewer than `inFlight` uploads are still
 * completing, so a renderer goes on with its next file while the last part of this one
 * travels (with a bucket, that last request is most of a small file's cost). settle() waits
 * for them all and throws the first failure; abort() removes what they wrote. Each waiting
 * upload holds at most its last part (a spool file).
 */
export class UploadBatch {
  private readonly pending = new Set<Promise<void>>();
  private readonly sinks = new Map<string, ByteSink>();
  private failure: unknown = null;

  constructor(
    private readonly store: ObjectStore,
    private readonly inFlight = 2,
  ) {}

  sink(key: string, contentType: string): ByteSink {
    const inner = storeSink(this.store, key, contentType);
    this.sinks.set(key, inner);
    return {
      write: async (buf) => {
        if (this.failure) throw this.failure;
        await inner.write(buf);
      },
      finish: async () => {
        if (this.failure) throw this.failure;
        const done: Promise<void> = inner.finish().then(
          () => void this.pending.delete(done),
          (e) => {
            this.pending.delete(done);
            this.failure ??= e ?? new Error('upload failed');
          },
        );
        this.pending.add(done);
        while (this.pending.size >= this.inFlight) await Promise.race(this.pending);
        if (this.failure) throw this.failure;
      },
      abort: () => inner.abort(),
    };
  }

  /** Every upload finished: their objects exist. */
  async settle(): Promise<void> {
    await Promise.all(this.pending);
    if (this.failure) throw this.failure;
  }

  /** Stops the uploads still running and removes every object this batch wrote. */
  async abort(): Promise<void> {
    await Promise.all([...this.sinks.values()].map((s) => s.abort()));
    await Promise.all([...this.sinks.keys()].map((k) => this.store.delete(k).catch(() => undefined)));
  }
}

/** What a process needs to open the app's store itself (a CPU worker writing a render's files). */
export type StoreSpec = Pick<AppConfig, 'storage' | 'filesDir'>;

const opened = new Map<string, Promise<ObjectStore>>();

/** The store of `spec`, opened once per process. */
export function storeFor(spec: StoreSpec): Promise<ObjectStore> {
  const id = JSON.stringify(spec);
  let s = opened.get(id);
  if (!s) {
    s = createObjectStore(spec);
    opened.set(id, s);
  }
  return s;
}
