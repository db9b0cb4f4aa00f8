import { createHash, Hash, randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';

/**
 * A part's or an object's body: bytes in memory, or a spool file read afresh for every
 * attempt. The writer works out its hashes as the bytes come, so the transport never reads
 * a body twice.
 */
export interface UploadBody {
  length: number;
  /** A fresh read of the bytes (the same Buffer, or a new stream of the spool file). */
  open(): Buffer | Readable;
  /** Lowercase hex SHA-256, when payloads are signed; without it the body goes as UNSIGNED-PAYLOAD. */
  sha256?: string;
  /** Base64 CRC32 (the x-amz-checksum-crc32 header), when checksums are on. */
  crc32?: string;
  /** Read from a spool file (a stream, which the SDK does not retry). */
  spooled?: boolean;
  /**
   * A spooled body's bytes from `position` into `buf` (up to its length); how many came. For a
   * sender that reads into buffers of its own, as SignedUploads does, instead of open()'s
   * stream of a fresh buffer per chunk.
   */
  readAt?(buf: Buffer, position: number): number;
}

export interface CompletedUploadPart {
  PartNumber: number;
  ETag: string;
  ChecksumCRC32?: string;
}

/**
 * The five requests a write makes, whatever sends them (SignedUploads, or S3ObjectStore's SDK
 * transport). A transport tries a request again after a transient failure, opening the body
 * afresh (see retrying).
 */
export interface UploadTransport {
  createUpload(key: string, contentType: string | undefined, checksums: boolean): Promise<string>;
  uploadPart(key: string, uploadId: string, partNumber: number, body: UploadBody): Promise<{ ETag?: string; ChecksumCRC32?: string }>;
  completeUpload(key: string, uploadId: string, parts: CompletedUploadPart[]): Promise<void>;
  abortUpload(key: string, uploadId: string): Promise<void>;
  putObject(key: string, body: UploadBody, contentType: string | undefined): Promise<void>;
}

/** The bytes a write keeps in memory before it spools: a small file is one PutObject of its own buffers. */
export const IN_MEMORY_BYTES = 1 << 20;
/** The chunk a part is read from its spool file in while it is sent. */
const READ_CHUNK = 256 << 10;
/** Attempts of a request (see retrying). */
const ATTEMPTS = 3;

/**
 * `send` again after a transient failure, up to ATTEMPTS in all, 0.1 s then 0.4 s apart: for
 * requests the SDK does not retry (a body read from a spool file: the SDK cannot read a stream
 * twice) or that do not go through it (SignedUploads). `send` opens the body afresh each time.
 */
export async function retrying<T>(send: () => Promise<T>, delayMs = 100): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (e) {
      if (attempt >= ATTEMPTS || !transient(e)) throw e;
      await new Promise((r) => setTimeout(r, delayMs * 4 ** (attempt - 1)));
    }
  }
}

/**
 * One part's bytes on disk: a temp file unlinked as soon as it is opened, so it is the open
 * descriptor alone and goes with it, whichever way the process ends (a killed CPU worker
 * leaves no spool behind). Hashes are updated as the bytes are appended.
 *
 * Its reads and writes are synchronous: a part's bytes stay in the page cache (the file is
 * closed, and so gone, within seconds of being written), where a write or a read of a chunk
 * takes microseconds, while an asynchronous one waits in libuv's thread pool behind the
 * renderer's own long tasks there (sharp's resampling) — measured, that wait made a render
 * into the bucket slower by a third.
 */
export class SpoolFile {
  size = 0;
  private sha: Hash | null;
  private crc = 0;
  private closed = false;

  private constructor(
    private readonly fd: number,
    /** The path, where unlinking an open file failed (then it is unlinked at close). */
    private readonly path: string | null,
    sha256: boolean,
    private readonly checksums: boolean,
  ) {
    this.sha = sha256 ? createHash('sha256') : null;
  }

  static async open(dir: string, hashes: { sha256: boolean; crc32: boolean }): Promise<SpoolFile> {
    const path = join(dir, `gangsheet-part-${process.pid}-${randomBytes(6).toString('hex')}`);
    const fd = openSync(path, 'wx+', 0o600);
    let unlinked = true;
    try {
      unlinkSync(path);
    } catch {
      unlinked = false;
    }
    return new SpoolFile(fd, unlinked ? null : path, hashes.sha256, hashes.crc32);
  }

  /** Appends `buf` (free for the caller once this resolves). */
  async append(buf: Buffer): Promise<void> {
    if (this.closed) throw Object.assign(new Error('The spool file is closed'), { name: 'AbortError' });
    let off = 0;
    while (off < buf.length) off += writeSync(this.fd, buf, off, buf.length - off, this.size + off);
    this.size += buf.length;
    this.sha?.update(buf);
    if (this.checksums) this.crc = crc32(buf, this.crc);
  }

  /** The body of what was appended (append no more). */
  body(): UploadBody {
    const sha256 = this.sha?.digest('hex');
    this.sha = null;
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(this.crc >>> 0);
    const length = this.size;
    return {
      length,
      sha256,
      crc32: this.checksums ? crc.toString('base64') : undefined,
      spooled: true,
      open: () => this.reader(length),
      readAt: (buf, position) => {
        if (this.closed) throw Object.assign(new Error('The spool file is closed'), { name: 'AbortError' });
        return readSync(this.fd, buf, 0, Math.min(buf.length, length - position), position);
      },
    };
  }

  /** A stream of the first `length` bytes, READ_CHUNK at a time. */
  private reader(length: number): Readable {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const file = this;
    let at = 0;
    return new Readable({
      highWaterMark: READ_CHUNK,
      read: function (this: Readable) {
        if (at >= length) return void this.push(null);
        if (this.destroyed) return;
        try {
          if (file.closed) throw Object.assign(new Error('The spool file is closed'), { name: 'AbortError' });
          const buf = Buffer.allocUnsafe(Math.min(READ_CHUNK, length - at));
          const got = readSync(file.fd, buf, 0, buf.length, at);
          if (got === 0) throw new Error('The spool file ended early');
          at += got;
          this.push(got < buf.length ? buf.subarray(0, got) : buf);
        } catch (e) {
          this.destroy(e as Error);
        }
      },
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      closeSync(this.fd);
    } catch {
      // already gone
    }
    if (this.path)
      try {
        unlinkSync(this.path);
      } catch {
        // already gone
      }
  }
}

export interface MultipartTarget {
  transport: UploadTransport;
  key: string;
  contentType?: string;
  partSize: number;
  /** Parts sent at once. */
  queueSize: number;
  /** CRC32 on every part and object. */
  checksums: boolean;
  /** SHA-256 of every body in its signature (else UNSIGNED-PAYLOAD). */
  signPayloads: boolean;
  /** Where parts are spooled (os.tmpdir() by default). */
  spoolDir?: string;
  /** The bytes kept in memory before spooling (IN_MEMORY_BYTES; at most the part size). */
  inMemoryBytes?: number;
}

/** The hashes of a body in memory, as a spool file works them out. */
export function memoryBody(buf: Buffer, t: Pick<MultipartTarget, 'checksums' | 'signPayloads'>): UploadBody {
  let crc: string | undefined;
  if (t.checksums) {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(crc32(buf) >>> 0);
    crc = b.toString('base64');
  }
  return { length: buf.length, open: () => buf, sha256: t.signPayloads ? createHash('sha256').update(buf).digest('hex') : undefined, crc32: crc };
}

/**
 * One object written from bytes of unknown length: a PutObject when they fit one part, else
 * a multipart upload whose parts go `queueSize` at a time while the next one fills. Bytes
 * are kept in memory only while they are few (IN_MEMORY_BYTES: a small file is one PutObject
 * of its own buffers); beyond that each part is spooled to a temp file as it comes and sent
 * from it, so a write's memory is a read chunk per part in flight, whatever the part size.
 * It holds at most (queueSize + 1) spool files of the part size. A failed part fails the
 * next write (or finish); abort() (and a failed finish) leave no upload and no file behind.
 */
export class MultipartWrite {
  private part: SpoolFile | null = null;
  /** A spool file being opened (the first write to a part). */
  private opening: Promise<SpoolFile> | null = null;
  private size = 0;
  private uploadId: Promise<string> | null = null;
  private readonly sending = new Set<Promise<void>>();
  private readonly done: CompletedUploadPart[] = [];
  private partNumber = 0;
  /** The bytes written while they are few, as given. */
  private head: Buffer[] | null = [];
  private headBytes = 0;
  private failure: unknown = null;
  private state: 'open' | 'finishing' | 'finished' | 'aborted' = 'open';

  constructor(private readonly t: MultipartTarget) {}

  /**
   * Takes `buf` (handed over: kept, unchanged by the caller, until finish() while the bytes
   * are few; from then on each buffer is written to the part's spool file and is free once
   * this resolves).
   */
  async write(buf: Buffer): Promise<void> {
    this.check();
    this.size += buf.length;
    if (this.head) {
      if (this.headBytes + buf.length <= Math.min(this.t.inMemoryBytes ?? IN_MEMORY_BYTES, this.t.partSize)) {
        this.head.push(buf);
        this.headBytes += buf.length;
        return;
      }
      const head = this.head;
      this.head = null;
      for (const b of head) await this.spool(b);
    }
    await this.spool(buf);
  }

  private async spool(buf: Buffer): Promise<void> {
    let at = 0;
    while (at < buf.length) {
      // a full part is sent once more bytes come (the last part may be a full one)
      if (this.part && this.part.size === this.t.partSize) await this.sendFilled();
      this.check();
      const part = this.part ?? (await this.openPart());
      const n = Math.min(buf.length - at, this.t.partSize - part.size);
      await part.append(at === 0 && n === buf.length ? buf : buf.subarray(at, at + n));
      at += n;
    }
  }

  private async openPart(): Promise<SpoolFile> {
    this.opening = SpoolFile.open(this.t.spoolDir ?? tmpdir(), { sha256: this.t.signPayloads, crc32: this.t.checksums });
    try {
      this.part = await this.opening;
    } finally {
      this.opening = null;
    }
    if (this.state === 'aborted') {
      await this.release();
      this.check();
    }
    return this.part!;
  }

  /**
   * The whole object from one buffer: its slices are the parts, sent without a copy or a
   * spool file (the caller leaves `buf` alone until this resolves).
   */
  async writeAll(buf: Buffer): Promise<{ size: number }> {
    this.check();
    const size = this.t.partSize;
    if (buf.length > size) {
      try {
        for (let at = 0; at < buf.length; at += size) await this.sendPart(memoryBody(buf.subarray(at, at + size), this.t), null);
      } catch (e) {
        await this.abort();
        throw e;
      }
      this.head = null;
    } else this.head = [buf];
    this.size = buf.length;
    return this.finish();
  }

  /** Sends what is left and completes the object; resolves with its size. */
  async finish(): Promise<{ size: number }> {
    try {
      this.check();
      this.state = 'finishing';
      if (this.partNumber === 0) {
        if (this.part) {
          const part = this.part;
          this.part = null;
          try {
            await this.t.transport.putObject(this.t.key, part.body(), this.t.contentType);
          } finally {
            await part.close();
          }
        } else {
          const head = this.head ?? [];
          this.head = null;
          const buf = head.length === 1 ? head[0] : Buffer.concat(head);
          await this.t.transport.putObject(this.t.key, memoryBody(buf, this.t), this.t.contentType);
        }
      } else {
        if (this.part && this.part.size > 0) await this.sendFilled();
        else await this.release();
        await Promise.all(this.sending);
        this.check();
        const uploadId = await this.uploadId!;
        const parts = [...this.done].sort((a, b) => a.PartNumber - b.PartNumber);
        await this.t.transport.completeUpload(this.t.key, uploadId, parts);
      }
    } catch (e) {
      await this.abort();
      throw e;
    }
    this.state = 'finished';
    return { size: this.size };
  }

  /** Stops: the parts still travelling settle, the multipart upload is aborted, nothing stays. */
  async abort(): Promise<void> {
    if (this.state === 'aborted' || this.state === 'finished') return;
    this.state = 'aborted';
    await this.release();
    await Promise.allSettled(this.sending);
    const id = this.uploadId && (await this.uploadId.catch(() => null));
    if (id) await this.t.transport.abortUpload(this.t.key, id).catch(() => undefined);
  }

  private check(): void {
    if (this.failure) throw this.failure;
    if (this.state === 'aborted' || this.state === 'finished') throw Object.assign(new Error('The write has ended'), { name: 'AbortError' });
  }

  private async release(): Promise<void> {
    this.head = null;
    const part = this.part ?? (this.opening && (await this.opening.catch(() => null)));
    this.part = null;
    await part?.close();
  }

  private sendFilled(): Promise<void> {
    const part = this.part!;
    this.part = null;
    return this.sendPart(part.body(), part);
  }

  /**
   * Sends `body` as the next part once fewer than queueSize are travelling (the next part
   * fills meanwhile); `file`, its spool file, is closed once the request has ended.
   */
  private async sendPart(body: UploadBody, file: SpoolFile | null): Promise<void> {
    try {
      while (this.sending.size >= this.t.queueSize) await Promise.race(this.sending);
      this.check();
      if (this.partNumber >= 10_000) throw new Error(`${this.t.key}: more than 10,000 parts; raise STORAGE_S3_PART_SIZE_MB`);
    } catch (e) {
      await file?.close();
      throw e;
    }
    const partNumber = ++this.partNumber;
    this.uploadId ??= this.t.transport.createUpload(this.t.key, this.t.contentType, this.t.checksums);
    const sent: Promise<void> = this.uploadId
      .then((uploadId) => this.t.transport.uploadPart(this.t.key, uploadId, partNumber, body))
      .then((out) => {
        if (!out.ETag) throw new Error(`Part ${partNumber} of ${this.t.key} came back without an ETag`);
        this.done.push({ PartNumber: partNumber, ETag: out.ETag, ...((out.ChecksumCRC32 ?? body.crc32) ? { ChecksumCRC32: out.ChecksumCRC32 ?? body.crc32 } : {}) });
      })
      .catch((e) => {
        this.failure ??= e ?? new Error('part upload failed');
      })
      .finally(async () => {
        // the request has ended (answered, or its socket gone): the spool file goes
        await file?.close();
        this.sending.delete(sent);
      });
    this.sending.add(sent);
  }
}

/** A failure worth another attempt: no answer (the connection), a 5xx, throttling, a timeout. */
export function transient(e: unknown): boolean {
  const err = e as { $metadata?: { httpStatusCode?: number }; name?: string; code?: string; statusCode?: number } | null;
  const status = err?.$metadata?.httpStatusCode ?? err?.statusCode;
  if (status === undefined) return !!err && err.name !== 'AbortError';
  return status >= 500 || status === 429 || err?.name === 'RequestTimeout' || err?.name === 'SlowDown';
}
