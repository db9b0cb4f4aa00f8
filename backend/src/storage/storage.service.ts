import { Inject, Injectable } from '@nestjs/common';
import { createReadStream, createWriteStream, ReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat, statfs, writeFile, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';

/**
 * Files live under one root (DATA_DIR/files) addressed by keys such as
 * `users/<id>/images/<uuid>.png`. A key can never point outside the root.
 */
@Injectable()
export class StorageService {
  readonly root: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.root = resolve(config.filesDir);
  }

  /** Absolute path of a key, refusing anything that escapes the root. */
  path(key: string): string {
    if (!key || isAbsolute(key) || key.includes('\0')) throw new Error(`Invalid storage key: ${key}`);
    const full = resolve(this.root, key);
    const rel = relative(this.root, full);
    if (!rel || rel.startsWith('..') || isAbsolute(rel)) throw new Error(`Invalid storage key: ${key}`);
    return full;
  }

  async write(key: string, data: Buffer | Readable): Promise<string> {
    const full = this.path(key);
    await mkdir(dirname(full), { recursive: true });
    if (Buffer.isBuffer(data)) await writeFile(full, data);
    else await pipeline(data, createWriteStream(full));
    return full;
  }

  /**
   * Takes a file from outside the root (an upload spooled to a temporary file) to `key`:
   * a rename, or a copy when the temporary folder is on another file system.
   */
  async adopt(outsidePath: string, key: string): Promise<void> {
    const target = await this.prepare(key);
    try {
      await rename(outsidePath, target);
    } catch (e: any) {
      if (e.code !== 'EXDEV') throw e;
      await copyFile(outsidePath, target).catch(async (err) => {
        await unlink(target).catch(() => undefined);
        throw err;
      });
    }
  }

  /** Directory for a writer that produces files itself (the renderer). */
  async prepare(key: string): Promise<string> {
    const full = this.path(key);
    await mkdir(dirname(full), { recursive: true });
    return full;
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.path(key))).isFile();
    } catch {
      return false;
    }
  }

  async size(key: string): Promise<number> {
    return (await stat(this.path(key))).size;
  }

  read(key: string): ReadStream {
    return createReadStream(this.path(key));
  }

  async delete(key: string): Promise<void> {
    await unlink(this.path(key)).catch((e) => {
      if (e.code !== 'ENOENT') throw e;
    });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.path(prefix), { recursive: true, force: true });
  }

  /** Moves a file to another key (same file system: a rename), creating the target's folder. */
  async move(from: string, to: string): Promise<void> {
    const target = this.path(to);
    await mkdir(dirname(target), { recursive: true });
    await rename(this.path(from), target);
  }

  /** Names of the entries directly inside the folder `prefix`; none when it does not exist. */
  async list(prefix: string): Promise<string[]> {
    return readdir(this.path(prefix)).catch(() => [] as string[]);
  }

  /** Bytes available to this process on the file system holding the root. */
  async freeBytes(): Promise<number> {
    const st = await statfs(this.root);
    return st.bavail * st.bsize;
  }

  async health(): Promise<void> {
    const probe = join('.health', `${process.pid}-${Date.now()}`);
    await this.write(probe, Buffer.from('ok'));
    await this.delete(probe);
  }
}
