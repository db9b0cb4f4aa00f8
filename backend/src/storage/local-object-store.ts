import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, opendir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  byteCounter,
  ByteRange,
  checkKey,
  checkPrefix,
  GetResult,
  InvalidKeyError,
  ObjectInfo,
  ObjectNotFoundError,
  ObjectStore,
  PutOptions,
  RangeNotSatisfiableError,
  resolveRange,
  writeProbe,
} from './object-store';

/** Writes in progress (under the root); renamed to their key when complete, so a reader never sees half a file. */
export const PARTIAL_DIR = '.partial';

/**
 * The embedded default: objects are files under one root folder (DATA_DIR/files), a key's
 * segments its folders. Listing walks the folders; there are no signed URLs (the API streams).
 */
export class LocalObjectStore implements ObjectStore {
  readonly driver = 'local' as const;

  constructor(readonly root: string) {}

  private file(key: string): string {
    if (key.startsWith(PARTIAL_DIR + '/')) throw new InvalidKeyError(key);
    return join(this.root, ...checkKey(key).split('/'));
  }

  async put(key: string, body: Buffer | Readable, options: PutOptions = {}): Promise<{ size: number }> {
    const target = this.file(key);
    const partial = join(this.root, PARTIAL_DIR, randomUUID());
    await mkdir(dirname(partial), { recursive: true });
    const count = byteCounter();
    try {
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      await pipeline(source, count.stream, createWriteStream(partial), { signal: options.signal });
      await mkdir(dirname(target), { recursive: true });
      await rename(partial, target);
    } catch (e) {
      await unlink(partial).catch(() => undefined);
      if (!Buffer.isBuffer(body)) body.destroy();
      throw e;
    }
    return { size: count.bytes() };
  }

  async get(key: string, options: { range?: ByteRange } = {}): Promise<GetResult> {
    const file = this.file(key);
    const info = await this.head(key);
    if (!info) throw new ObjectNotFoundError(key);
    const r = resolveRange(options.range, info.size);
    if (!r) throw new RangeNotSatisfiableError(key, info.size);
    const length = r.end - r.start + 1;
    const body = length > 0 ? createReadStream(file, { start: r.start, end: r.end }) : Readable.from([]);
    return { body, length, size: info.size, start: r.start, end: r.end };
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const st = await stat(this.file(key));
      return st.isFile() ? { key, size: st.size, modified: st.mtime } : null;
    } catch (e: any) {
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return null;
      throw e;
    }
  }

  async move(from: string, to: string): Promise<void> {
    const source = this.file(from);
    const target = this.file(to);
    if (!(await this.head(from))) throw new ObjectNotFoundError(from);
    await mkdir(dirname(target), { recursive: true });
    await rename(source, target);
  }

  /** Removes writes in progress older than `before` (left by a process that died while writing). */
  async removeStalePartials(before: Date): Promise<number> {
    const dir = join(this.root, PARTIAL_DIR);
    let n = 0;
    let names: string[] = [];
    try {
      names = await readdir(dir);
    } catch {
      return 0;
    }
    for (const name of names) {
      const st = await stat(join(dir, name)).catch(() => null);
      if (st && st.mtime < before) {
        await unlink(join(dir, name)).catch(() => undefined);
        n++;
      }
    }
    return n;
  }

  async delete(key: string): Promise<void> {
    await unlink(this.file(key)).catch((e) => {
      if (e.code !== 'ENOENT' && e.code !== 'ENOTDIR') throw e;
    });
  }

  async *list(prefix: string, startAfter = ''): AsyncIterable<ObjectInfo> {
    checkPrefix(prefix);
    // Walk the deepest folder the prefix names whole; its last partial segment filters names.
    const slash = prefix.lastIndexOf('/');
    const folderKey = slash < 0 ? '' : prefix.slice(0, slash);
    for await (const info of this.walk(folderKey, startAfter)) {
      if (info.key.startsWith(prefix)) yield info;
    }
  }

  /**
   * Files under the folder `folderKey` ('' = root) after `startAfter`, depth first in key order,
   * skipping writes in progress. A subfolder whose every key sorts before `startAfter` is not read.
   */
  private async *walk(folderKey: string, startAfter: string): AsyncIterable<ObjectInfo> {
    const folder = folderKey ? join(this.root, ...folderKey.split('/')) : this.root;
    let names: { name: string; dir: boolean }[];
    try {
      const entries = [];
      for await (const d of await opendir(folder)) entries.push({ name: d.name, dir: d.isDirectory() });
      names = entries;
    } catch (e: any) {
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return;
      throw e;
    }
    // S3 orders keys by their bytes; a folder `a` sorts as `a/`.
    const sortKey = (n: { name: string; dir: boolean }) => (n.dir ? n.name + '/' : n.name);
    names.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
    for (const n of names) {
      if (!folderKey && n.name === PARTIAL_DIR) continue;
      const key = folderKey ? `${folderKey}/${n.name}` : n.name;
      if (n.dir) {
        if (startAfter > `${key}/` && !startAfter.startsWith(`${key}/`)) continue;
        yield* this.walk(key, startAfter);
        continue;
      }
      if (key <= startAfter) continue;
      const st = await stat(join(folder, n.name)).catch(() => null);
      if (st?.isFile()) yield { key, size: st.size, modified: st.mtime };
    }
  }

  async children(prefix: string): Promise<string[]> {
    if (prefix !== '' && !prefix.endsWith('/')) throw new InvalidKeyError(prefix);
    checkPrefix(prefix);
    const folder = prefix ? join(this.root, ...prefix.slice(0, -1).split('/')) : this.root;
    const names = await readdir(folder).catch((e) => {
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return [] as string[];
      throw e;
    });
    return names.filter((n) => prefix || n !== PARTIAL_DIR).sort();
  }

  async deletePrefix(prefix: string): Promise<number> {
    checkPrefix(prefix, { allowEmpty: false });
    let n = 0;
    for await (const info of this.list(prefix)) {
      await this.delete(info.key);
      n++;
    }
    // A folder prefix takes its (now empty) folders with it.
    if (prefix.endsWith('/')) await rm(join(this.root, ...prefix.slice(0, -1).split('/')), { recursive: true, force: true });
    return n;
  }

  async signedUrl(): Promise<string | null> {
    return null;
  }

  health(): Promise<void> {
    return writeProbe(this);
  }
}
