import { PassThrough } from 'node:stream';
import type { ByteSink } from '../gangsheet/render/byte-sink';
import { AppConfig } from '../config/configuration';
import { createObjectStore } from './object-store.factory';
import { ObjectStore } from './object-store';

/**
 * A writer's output streamed into the store as `key` (S3: a multipart upload, whose parts
 * are the only bytes held): the object exists once finish() resolves; abort() removes it.
 */
export function storeSink(store: ObjectStore, key: string, contentType: string): ByteSink {
  const body = new PassThrough({ highWaterMark: 1 << 20 });
  const abort = new AbortController();
  let failed: unknown = null;
  const done = store.put(key, body, { contentType, signal: abort.signal });
  done.catch((e) => (failed = e ?? new Error('write failed')));
  return {
    async write(buf) {
      if (failed) throw failed;
      // copied: the writer may reuse its buffer once this resolves, before the store has read it
      if (!body.write(Buffer.from(buf)))
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
