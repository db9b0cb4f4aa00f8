import { Readable, Transform } from 'node:stream';

/** Injection token of the ObjectStore that STORAGE_DRIVER chooses (StorageModule provides it). */
export const OBJECT_STORE = Symbol('OBJECT_STORE');

/**
 * Where files live, behind one interface: the local folder (DATA_DIR/files, the default) or an
 * S3-compatible bucket. Keys look like `users/<id>/images/<uuid>.png`: relative, `/`-separated,
 * with no empty, `.` or `..` segment, so the same key is valid on both drivers.
 *
 * Objects appear whole or not at all: a put that fails or is aborted leaves nothing behind
 * (no partial file, no unfinished multipart upload).
 */
export interface ObjectStore {
  readonly driver: 'local' | 's3';

  /** Writes `key` from a buffer or a stream of unknown length; resolves with the bytes written. */
  put(key: string, body: Buffer | Readable, options?: PutOptions): Promise<{ size: number }>;

  /**
   * A write its writer hands buffers to, where the driver has one of its own (S3: the parts
   * are spooled from the buffers directly, with no stream between); else put() with a stream.
   */
  open?(key: string, options?: { contentType?: string }): ObjectWrite;

  /**
   * Reads `key`, or the inclusive byte range `range` of it; the caller consumes or destroys
   * `body` (an S3 body holds a connection). Throws ObjectNotFoundError / RangeNotSatisfiableError.
   */
  get(key: string, options?: { range?: ByteRange }): Promise<GetResult>;

  /** Size and time of `key`; null when it does not exist. */
  head(key: string): Promise<ObjectInfo | null>;

  /**
   * Gives the object `from` the key `to` (replacing it) and removes `from`: a rename on the
   * local folder, a server-side copy and a delete on S3. Throws ObjectNotFoundError.
   */
  move(from: string, to: string): Promise<void>;

  /** Deletes `key`; a missing key is not an error. */
  delete(key: string): Promise<void>;

  /**
   * Every object whose key starts with `prefix` (a folder is `users/1/`), in key order; with
   * `startAfter`, only the keys after it (S3's StartAfter), so a long listing can resume.
   */
  list(prefix: string, startAfter?: string): AsyncIterable<ObjectInfo>;

  /**
   * Names directly below the folder `prefix` (empty or ending in `/`): its objects' last
   * segments and its subfolders' names, sorted, without walking the subfolders.
   */
  children(prefix: string): Promise<string[]>;

  /**
   * Deletes every object whose key starts with `prefix` (never empty), and aborts the
   * unfinished writes there (multipart uploads of a killed writer); resolves with how many objects.
   */
  deletePrefix(prefix: string): Promise<number>;

  /**
   * A URL that downloads `key` without credentials until it expires, or null when the driver
   * has none (the local folder: the API streams the file itself).
   */
  signedUrl(key: string, options: SignedUrlOptions): Promise<string | null>;

  /** Throws when the store cannot be written (health checks). */
  health(): Promise<void>;

  /** Releases connections (at shutdown). */
  close?(): void;
}

/** An object being written: it exists once finish() resolves; abort() leaves nothing. */
export interface ObjectWrite {
  /** Takes `buf`, handed over (the caller never changes it after); resolves when more can be taken. */
  write(buf: Buffer): Promise<void>;
  finish(): Promise<{ size: number }>;
  abort(): Promise<void>;
}

export interface PutOptions {
  contentType?: string;
  /** Aborting stops the write and removes whatever was written. */
  signal?: AbortSignal;
}

/** Inclusive byte offsets, as in an HTTP Range header; `end` defaults to the last byte. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface GetResult {
  body: Readable;
  /** Bytes in `body`. */
  length: number;
  /** Size of the whole object. */
  size: number;
  /** The inclusive range `body` holds (the whole object when no range was asked for). */
  start: number;
  end: number;
}

export interface ObjectInfo {
  key: string;
  size: number;
  modified: Date;
}

export interface SignedUrlOptions {
  expiresInSeconds: number;
  /** Offered as the download's name (Content-Disposition: attachment). */
  fileName?: string;
  contentType?: string;
}

export class ObjectNotFoundError extends Error {
  readonly code = 'ENOENT';
  constructor(readonly key: string) {
    super(`No such object: ${key}`);
  }
}

export class RangeNotSatisfiableError extends Error {
  constructor(
    readonly key: string,
    readonly size: number,
  ) {
    super(`Range outside ${key} (${size} bytes)`);
  }
}

export class InvalidKeyError extends Error {
  constructor(key: string) {
    super(`Invalid storage key: ${JSON.stringify(key)}`);
  }
}

/** Throws unless `key` is a valid object key (see ObjectStore). */
export function checkKey(key: string): string {
  if (!isValidPath(key) || key.endsWith('/')) throw new InvalidKeyError(key);
  return key;
}

/** A prefix is a key's beginning: valid segments, optionally ending in `/`. */
export function checkPrefix(prefix: string, { allowEmpty = true } = {}): string {
  if (prefix === '' ? !allowEmpty : !isValidPath(prefix.replace(/\/$/, ''))) throw new InvalidKeyError(prefix);
  return prefix;
}

function isValidPath(key: string): boolean {
  if (!key || key.length > 1024 || key.includes('\0') || key.includes('\\')) return false;
  return key.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

/** The inclusive range of an object of `size` bytes that `range` asks for; null when none of it exists. */
export function resolveRange(range: ByteRange | undefined, size: number): { start: number; end: number } | null {
  if (!range) return { start: 0, end: size - 1 };
  const { start } = range;
  const end = Math.min(range.end ?? size - 1, size - 1);
  if (!Number.isInteger(start) || start < 0 || start >= size || end < start) return null;
  return { start, end };
}

/**
 * Content-Disposition for a file named `name` (RFC 6266): an ASCII fallback and the UTF-8 name.
 */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())}`;
}

/** A pass-through stream that counts what goes through it (the size of a write of unknown length). */
export function byteCounter(): { stream: Transform; bytes: () => number } {
  let n = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      n += chunk.length;
      done(null, chunk);
    },
  });
  return { stream, bytes: () => n };
}

/** The health check of a store: a small object written and deleted again. */
export async function writeProbe(store: ObjectStore): Promise<void> {
  const probe = `.health/${process.pid}-${Date.now()}`;
  await store.put(probe, Buffer.from('ok'));
  await store.delete(probe);
}
