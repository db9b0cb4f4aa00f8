import {
  AbortMultipartUploadCommand,
  ChecksumAlgorithm,
  CompleteMultipartUploadCommand,
  CompletedPart,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';

/**
 * Part buffers of one size, reused from one part and one write to the next. A write copies
 * what it is handed into its part buffer (the copy a part needs anyway: the SDK signs and
 * sends one contiguous body) and holds nothing else, so a write's memory is its part buffers
 * alone; reusing them spares the allocator a fresh block of the part's size for every part,
 * which it would not hand back to the system soon. Spare buffers go after a quiet while.
 */
export class PartBuffers {
  private readonly spare: Buffer[] = [];
  private idle: NodeJS.Timeout | undefined;

  constructor(
    readonly size: number,
    /** Spare buffers kept (one write's own, as a render's files follow one another). */
    private readonly keep: number,
    private readonly idleMs = 30_000,
  ) {}

  take(): Buffer {
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    return this.spare.pop() ?? Buffer.allocUnsafeSlow(this.size);
  }

  give(buf: Buffer): void {
    if (this.spare.length < this.keep) this.spare.push(buf);
    this.idle ??= setTimeout(() => {
      this.spare.length = 0;
      this.idle = undefined;
    }, this.idleMs).unref();
  }
}

export interface MultipartTarget {
  client: S3Client;
  bucket: string;
  key: string;
  contentType?: string;
  /** Parts sent at once. */
  queueSize: number;
  /** CRC32 on every part (requestChecksumCalculation WHEN_SUPPORTED). */
  checksums: boolean;
  parts: PartBuffers;
}

/**
 * One object written from bytes of unknown length: a PutObject when they fit one part,
 * else a multipart upload whose parts go `queueSize` at a time while the next one fills.
 * It holds at most (queueSize + 1) part buffers. A failed part fails the next write (or
 * finish); abort() (and a failed finish) leave no upload behind.
 */
export class MultipartWrite {
  private part: Buffer | null = null;
  private fill = 0;
  private size = 0;
  private uploadId: Promise<string> | null = null;
  private readonly sending = new Set<Promise<void>>();
  private readonly done: CompletedPart[] = [];
  private partNumber = 0;
  /** The bytes written while they fit one part, as given. */
  private head: Buffer[] | null = [];
  private headBytes = 0;
  /** writeAll's buffer when it fits one PutObject. */
  private single: Buffer | null = null;
  private failure: unknown = null;
  private state: 'open' | 'finishing' | 'finished' | 'aborted' = 'open';

  constructor(private readonly t: MultipartTarget) {}

  /**
   * Takes `buf` (handed over: kept, unchanged by the caller, until finish()). Until the bytes
   * outgrow one part they are kept as given, so a small file never takes a part buffer; from
   * then on each buffer is copied into the part being filled and is free once this resolves.
   */
  async write(buf: Buffer): Promise<void> {
    this.check();
    this.size += buf.length;
    if (this.head) {
      if (this.headBytes + buf.length <= this.t.parts.size) {
        this.head.push(buf);
        this.headBytes += buf.length;
        return;
      }
      const head = this.head;
      this.head = null;
      for (const b of head) await this.copyIn(b);
    }
    await this.copyIn(buf);
  }

  private async copyIn(buf: Buffer): Promise<void> {
    let at = 0;
    while (at < buf.length) {
      // a full part is sent once more bytes come (the last part may be a full one)
      if (this.part && this.fill === this.part.length) await this.sendFilled();
      this.check();
      this.part ??= this.t.parts.take();
      const n = buf.copy(this.part, this.fill, at);
      this.fill += n;
      at += n;
    }
  }

  /**
   * The whole object from one buffer: its slices are the parts, sent without a copy (the
   * caller leaves `buf` alone until this resolves).
   */
  async writeAll(buf: Buffer): Promise<{ size: number }> {
    this.check();
    const size = this.t.parts.size;
    if (buf.length > size)
      try {
        for (let at = 0; at < buf.length; at += size) await this.sendPart(buf.subarray(at, at + size), null);
      } catch (e) {
        await this.abort();
        throw e;
      }
    else this.single = buf;
    this.size = buf.length;
    return this.finish();
  }

  /** Sends what is left and completes the object; resolves with its size. */
  async finish(): Promise<{ size: number }> {
    try {
      this.check();
      this.state = 'finishing';
      if (this.partNumber === 0) {
        const head = this.head ?? [];
        const Body = this.single ?? (this.part ? this.part.subarray(0, this.fill) : head.length === 1 ? head[0] : Buffer.concat(head));
        try {
          await this.t.client.send(new PutObjectCommand({ Bucket: this.t.bucket, Key: this.t.key, Body, ContentType: this.t.contentType }));
        } finally {
          this.release();
        }
      } else {
        if (this.fill > 0) await this.sendFilled();
        else this.release();
        await Promise.all(this.sending);
        this.check();
        const UploadId = await this.uploadId!;
        const Parts = [...this.done].sort((a, b) => a.PartNumber! - b.PartNumber!);
        await this.t.client.send(new CompleteMultipartUploadCommand({ Bucket: this.t.bucket, Key: this.t.key, UploadId, MultipartUpload: { Parts } }));
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
    this.release();
    await Promise.allSettled(this.sending);
    const id = this.uploadId && (await this.uploadId.catch(() => null));
    if (id) await this.t.client.send(new AbortMultipartUploadCommand({ Bucket: this.t.bucket, Key: this.t.key, UploadId: id })).catch(() => undefined);
  }

  private check(): void {
    if (this.failure) throw this.failure;
    if (this.state === 'aborted' || this.state === 'finished') throw Object.assign(new Error('The write has ended'), { name: 'AbortError' });
  }

  private release(): void {
    this.head = null;
    if (this.part) this.t.parts.give(this.part);
    this.part = null;
    this.fill = 0;
  }

  private sendFilled(): Promise<void> {
    const buffer = this.part!;
    const body = buffer.subarray(0, this.fill);
    this.part = null;
    this.fill = 0;
    return this.sendPart(body, buffer);
  }

  /**
   * Sends `Body` as the next part once fewer than queueSize are travelling (the next part
   * fills meanwhile); `buffer`, a part buffer, goes back once the request has ended.
   */
  private async sendPart(Body: Buffer, buffer: Buffer | null): Promise<void> {
    const giveBack = () => buffer && this.t.parts.give(buffer);
    try {
      while (this.sending.size >= this.t.queueSize) await Promise.race(this.sending);
      this.check();
      if (this.partNumber >= 10_000) throw new Error(`${this.t.key}: more than 10,000 parts; raise STORAGE_S3_PART_SIZE_MB`);
    } catch (e) {
      giveBack();
      throw e;
    }
    const PartNumber = ++this.partNumber;
    this.uploadId ??= this.t.client
      .send(
        new CreateMultipartUploadCommand({
          Bucket: this.t.bucket,
          Key: this.t.key,
          ContentType: this.t.contentType,
          ChecksumAlgorithm: this.t.checksums ? ChecksumAlgorithm.CRC32 : undefined,
        }),
      )
      .then((out) => out.UploadId!);
    const sent: Promise<void> = this.uploadId
      .then((UploadId) => this.t.client.send(new UploadPartCommand({ Bucket: this.t.bucket, Key: this.t.key, UploadId, PartNumber, Body })))
      .then((out) => {
        if (!out.ETag) throw new Error(`Part ${PartNumber} of ${this.t.key} came back without an ETag`);
        this.done.push({ PartNumber, ETag: out.ETag, ChecksumCRC32: out.ChecksumCRC32 });
      })
      .catch((e) => {
        this.failure ??= e ?? new Error('part upload failed');
      })
      .finally(() => {
        // the request has ended (answered, or its socket gone): the buffer is free again
        this.sending.delete(sent);
        giveBack();
      });
    this.sending.add(sent);
  }
}
