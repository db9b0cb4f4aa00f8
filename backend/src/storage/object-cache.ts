import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, opendir, rename, stat, unlink, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { checkKey, ObjectStore } from './object-store';

/** Files used this recently stay, whatever the budget (another process of this data folder may be about to open them). */
const RECENT_MS = 10 * 60_000;
const PARTIAL = '.partial';

/**
 * Local copies of stored objects, for the code that decodes files by path (libvips, the
 * renderer): a copy is fetched once, kept under `dir` at its key, and the least recently
 * used copies are removed once the folder passes `maxBytes` (copies in use, or used in the
 * last minutes, stay). Only the bucket driver needs it; the local folder is its own copy.
 */
export class ObjectCache {
  private readonly pins = new Map<string, number>();
  private readonly fetching = new Map<string, Promise<void>>();
  /** Bytes fetched since the folder was last measured. */
  private added = Infinity;

  constructor(
    private readonly store: ObjectStore,
    readonly dir: string,
    private readonly maxBytes: number,
  ) {}

  path(key: string): string {
    return join(this.dir, ...checkKey(key).split('/'));
  }

  /** Makes local copies of `keys` and keeps them until `release` is called. */
  async acquire(keys: readonly string[]): Promise<() => void> {
    const held = [...new Set(keys)];
    for (const k of held) this.pins.set(k, (this.pins.get(k) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      for (const k of held) {
        const n = (this.pins.get(k) ?? 1) - 1;
        if (n > 0) this.pins.set(k, n);
        else this.pins.delete(k);
      }
    };
    try {
      for (const k of held) await this.fetch(k);
    } catch (e) {
      release();
      throw e;
    }
    await this.evict().catch(() => undefined);
    return release;
  }

  /** Places a file this process already has (an upload it just stored) as the copy of `key`. */
  async adopt(file: string, key: string): Promise<void> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    await rename(file, target);
    this.added += (await stat(target)).size;
  }

  private fetch(key: string): Promise<void> {
    let p = this.fetching.get(key);
    if (!p) {
      p = this.download(key).finally(() => this.fetching.delete(key));
      this.fetching.set(key, p);
    }
    return p;
  }

  private async download(key: string): Promise<void> {
    const target = this.path(key);
    const now = new Date();
    try {
      await utimes(target, now, now);
      return;
    } catch {
      // not cached yet
    }
    const partial = join(this.dir, PARTIAL, randomUUID());
    await mkdir(dirname(partial), { recursive: true });
    const { body, size } = await this.store.get(key);
    try {
      await pipeline(body, createWriteStream(partial));
      await mkdir(dirname(target), { recursive: true });
      await rename(partial, target);
    } catch (e) {
      await unlink(partial).catch(() => undefined);
      throw e;
    }
    this.added += size;
  }

  /** Removes least recently used copies until the folder fits the budget. */
  private async evict(): Promise<void> {
    if (this.added < this.maxBytes / 10) return;
    this.added = 0;
    const files: { key: string; file: string; size: number; used: number }[] = [];
    const walk = async (folder: string, prefix: string) => {
      let dir;
      try {
        dir = await opendir(folder);
      } catch {
        return;
      }
      for await (const d of dir) {
        if (!prefix && d.name === PARTIAL) continue;
        const file = join(folder, d.name);
        const key = prefix + d.name;
        if (d.isDirectory()) await walk(file, key + '/');
        else {
          const st = await stat(file).catch(() => null);
          if (st) files.push({ key, file, size: st.size, used: st.mtimeMs });
        }
      }
    };
    await walk(this.dir, '');
    let total = files.reduce((a, f) => a + f.size, 0);
    if (total <= this.maxBytes) return;
    files.sort((a, b) => a.used - b.used);
    const recent = Date.now() - RECENT_MS;
    for (const f of files) {
      if (total <= this.maxBytes) break;
      if (this.pins.has(f.key) || this.fetching.has(f.key) || f.used > recent) continue;
      await unlink(f.file).catch(() => undefined);
      total -= f.size;
    }
  }
}
