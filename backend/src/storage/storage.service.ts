import { Inject, Injectable } from '@nestjs/common';
import { createReadStream } from 'node:fs';
import { mkdir, rename, statfs, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { LocalObjectStore } from './local-object-store';
import { ObjectCache } from './object-cache';
import { ByteRange, GetResult, OBJECT_STORE, ObjectNotFoundError, ObjectStore, PutOptions, SignedUrlOptions } from './object-store';

/** Files the caller can open by path (see StorageService.local). */
export interface LocalFiles {
  /** The folder the keys are relative to. */
  root: string;
  path(key: string): string;
  /** The copies may be evicted again (a no-op on the local folder). */
  release(): void;
}

/**
 * The app's file operations over the ObjectStore that STORAGE_DRIVER chooses. Keys look like
 * `users/<id>/images/<uuid>.png`; a "folder" is every key below `<folder>/`.
 */
@Injectable()
export class StorageService {
  /** The local folder of the `local` driver. */
  readonly root: string;
  private readonly cache: ObjectCache | null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(OBJECT_STORE) readonly store: ObjectStore,
  ) {
    this.root = resolve(config.filesDir);
    this.cache = store.driver === 'local' ? null : new ObjectCache(store, config.storage.cacheDir, config.storage.cacheBytes);
  }

  get driver(): ObjectStore['driver'] {
    return this.store.driver;
  }

  /** Absolute path of a key on the local driver (tests and tools); there is none on a bucket. */
  path(key: string): string {
    if (this.store.driver !== 'local') throw new Error(`The ${this.store.driver} storage driver has no local path for ${key}`);
    if (!key || isAbsolute(key) || key.includes('\0')) throw new Error(`Invalid storage key: ${key}`);
    const full = resolve(this.root, key);
    const rel = relative(this.root, full);
    if (!rel || rel.startsWith('..') || isAbsolute(rel)) throw new Error(`Invalid storage key: ${key}`);
    return full;
  }

  async write(key: string, data: Buffer | Readable, options?: PutOptions): Promise<number> {
    return (await this.store.put(key, data, options)).size;
  }

  /**
   * Takes a file from outside the store (an upload spooled to a temporary file) to `key`. On
   * the local folder a rename (a copy across file systems); on a bucket an upload, the file
   * then kept as this process's cached copy (its inspection follows).
   */
  async adopt(outsidePath: string, key: string): Promise<void> {
    if (!(this.store instanceof LocalObjectStore)) {
      await this.store.put(key, createReadStream(outsidePath));
      await this.cache!.adopt(outsidePath, key).catch(() => unlink(outsidePath).catch(() => undefined));
      return;
    }
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    try {
      await rename(outsidePath, target);
    } catch (e: any) {
      if (e.code !== 'EXDEV') throw e;
      await this.store.put(key, createReadStream(outsidePath));
      await unlink(outsidePath).catch(() => undefined);
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.store.head(key)) !== null;
  }

  /** Size of `key`; throws ObjectNotFoundError. */
  async size(key: string): Promise<number> {
    const info = await this.store.head(key);
    if (!info) throw new ObjectNotFoundError(key);
    return info.size;
  }

  /** Reads `key` (or a range of it); throws ObjectNotFoundError. */
  open(key: string, range?: ByteRange): Promise<GetResult> {
    return this.store.get(key, { range });
  }

  delete(key: string): Promise<void> {
    return this.store.delete(key);
  }

  /** Deletes the folder `folder` (every key below `folder/`; never `folder2/...`). */
  deleteFolder(folder: string): Promise<number> {
    return this.store.deletePrefix(folder.endsWith('/') ? folder : `${folder}/`);
  }

  move(from: string, to: string): Promise<void> {
    return this.store.move(from, to);
  }

  /** Names of the entries (files and folders) directly inside the folder `folder`. */
  entries(folder: string): Promise<string[]> {
    return this.store.children(folder.endsWith('/') ? folder : `${folder}/`);
  }

  /** A download URL valid for `expiresInSeconds`, or null on the local folder (the API streams the file). */
  signedUrl(key: string, options: SignedUrlOptions): Promise<string | null> {
    return this.store.signedUrl(key, options);
  }

  /**
   * Local files for `keys`, for code that opens them by path: the stored files themselves on
   * the local folder, copies in the bounded cache on a bucket (fetched now, kept until released).
   */
  async local(keys: readonly string[]): Promise<LocalFiles> {
    if (!this.cache) return { root: this.root, path: (k) => this.path(k), release: () => undefined };
    const cache = this.cache;
    const release = await cache.acquire(keys);
    return { root: cache.dir, path: (k) => cache.path(k), release };
  }

  /** Bytes available on the local disk this process writes to (the files, or the bucket's cache and temporary files). */
  async freeBytes(): Promise<number> {
    const dir = this.cache ? this.config.dataDir : this.root;
    await mkdir(dir, { recursive: true });
    const st = await statfs(dir);
    return st.bavail * st.bsize;
  }

  health(): Promise<void> {
    return this.store.health();
  }

  /** Removes the local folder's writes in progress older than `before` (left by a process that died); 0 on a bucket. */
  async removeStaleWrites(before: Date): Promise<number> {
    return this.store instanceof LocalObjectStore ? this.store.removeStalePartials(before) : 0;
  }
}
