import type * as S3 from '@aws-sdk/client-s3';
import type { PutObjectCommand, S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import { S3StorageConfig } from '../config/configuration';
import { CompletedUploadPart, MultipartWrite, retrying, UploadBody, UploadTransport } from './s3-multipart';
import { SignedUploads } from './s3-signed-uploads';
import {
  ByteRange,
  checkKey,
  checkPrefix,
  contentDisposition,
  GetResult,
  InvalidKeyError,
  ObjectInfo,
  ObjectNotFoundError,
  ObjectStore,
  ObjectWrite,
  PutOptions,
  RangeNotSatisfiableError,
  SignedUrlOptions,
  writeProbe,
} from './object-store';

export type S3StoreOptions = S3StorageConfig & {
  /** Where a write spools its parts (os.tmpdir() by default; see MultipartWrite). */
  spoolDir?: string;
  /**
   * What sends a write's requests: `signed` (SignedUploads: signed HTTP requests, without the
   * AWS SDK's S3 client; the default with static keys) or `sdk` (the S3 client; the default
   * without them, for the SDK's credential chain).
   */
  uploads?: 'signed' | 'sdk';
  /** Sees the headers of each upload request as signed (tests). */
  onSignedUpload?: (request: string, headers: Record<string, string>) => void;
};

let sdkModule: typeof S3 | undefined;

/**
 * The AWS SDK's S3 client module, loaded on first use: a CPU worker that only writes a
 * render's files does so through SignedUploads and never needs it (it costs ~9 MB of peak).
 */
function sdk(): typeof S3 {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (sdkModule ??= require('@aws-sdk/client-s3') as typeof S3);
}

const DELETE_BATCH = 1000;
/** CopyObject takes objects up to 5 GiB; larger ones are copied as a multipart upload of parts this size. */
const COPY_LIMIT = 5 * 1024 ** 3;
const COPY_PART = 1024 ** 3;

export class S3ObjectStore implements ObjectStore {
  readonly driver = 's3' as const;
  private clients: { client: S3Client; signer: S3Client } | null = null;
  private readonly uploads: UploadTransport;

  constructor(readonly options: S3StoreOptions) {
    const keys = !!(options.accessKeyId && options.secretAccessKey);
    this.uploads =
      (options.uploads ?? (keys ? 'signed' : 'sdk')) === 'signed'
        ? new SignedUploads(options, options.onSignedUpload)
        : new SdkUploads(() => this.client, options.bucket);
  }

  /** The SDK's S3 client (created, and the SDK loaded, on first use). */
  get client(): S3Client {
    return this.sdkClients().client;
  }

  private sdkClients(): { client: S3Client; signer: S3Client } {
    if (this.clients) return this.clients;
    const { S3Client } = sdk();
    const options = this.options;
    const mode = options.checksums === 'when_supported' ? 'WHEN_SUPPORTED' : 'WHEN_REQUIRED';
    const base = {
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
      requestChecksumCalculation: mode,
      responseChecksumValidation: mode,
    } as const;
    const client = new S3Client({ ...base, endpoint: options.endpoint });
    const signer = options.publicEndpoint ? new S3Client({ ...base, endpoint: options.publicEndpoint }) : client;
    this.clients = { client, signer };
    return this.clients;
  }

  private objectKey(key: string): string {
    return this.options.prefix + checkKey(key);
  }

  /**
   * A write of unknown length, part by part (see MultipartWrite): the object exists once
   * finish() resolves; abort() removes it.
   */
  open(key: string, options: { contentType?: string } = {}): ObjectWrite {
    const write = this.multipart(key, options.contentType);
    let finished = false;
    return {
      write: (buf) => write.write(buf),
      finish: async () => {
        const out = await write.finish();
        finished = true;
        return out;
      },
      abort: async () => {
        await write.abort();
        // aborted after it completed: the object exists, so it goes again
        if (finished) await this.delete(key);
      },
    };
  }

  async put(key: string, body: Buffer | Readable, options: PutOptions = {}): Promise<{ size: number }> {
    const { signal } = options;
    signal?.throwIfAborted();
    const write = this.multipart(key, options.contentType);
    if (Buffer.isBuffer(body)) {
      const out = await write.writeAll(body);
      return this.keepUnlessAborted(key, out, signal);
    }
    const onAbort = () => body.destroy(abortError(signal));
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      // each chunk is copied into the part being filled, then free for the source to reuse
      for await (const chunk of body) await write.write(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      return await this.keepUnlessAborted(key, await write.finish(), signal);
    } catch (e) {
      await write.abort();
      body.destroy();
      throw signal?.aborted ? abortError(signal) : e;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private multipart(key: string, contentType?: string): MultipartWrite {
    return new MultipartWrite({
      transport: this.uploads,
      key: this.objectKey(key),
      contentType,
      partSize: this.options.partSizeBytes,
      queueSize: this.options.queueSize,
      checksums: this.options.checksums === 'when_supported',
      signPayloads: !unsignedPayloads(this.options),
      spoolDir: this.options.spoolDir,
    });
  }

  /** Aborted after the last part was sent: the object exists, so it goes again. */
  private async keepUnlessAborted(key: string, out: { size: number }, signal?: AbortSignal): Promise<{ size: number }> {
    if (!signal?.aborted) return out;
    await this.delete(key);
    throw abortError(signal);
  }

  async get(key: string, options: { range?: ByteRange } = {}): Promise<GetResult> {
    const { range } = options;
    if (range && (!Number.isInteger(range.start) || range.start < 0 || (range.end !== undefined && range.end < range.start))) {
      throw new RangeNotSatisfiableError(key, (await this.head(key))?.size ?? 0);
    }
    try {
      const out = await this.client.send(
        new (sdk().GetObjectCommand)({
          Bucket: this.options.bucket,
          Key: this.objectKey(key),
          Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined,
        }),
      );
      const length = out.ContentLength ?? 0;
      const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(out.ContentRange ?? '');
      const [start, end, size] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, length - 1, length];
      return { body: out.Body as Readable, length, size, start, end };
    } catch (e) {
      if (status(e) === 404) throw new ObjectNotFoundError(key);
      if (status(e) === 416) throw new RangeNotSatisfiableError(key, (await this.head(key))?.size ?? 0);
      throw e;
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const out = await this.client.send(new (sdk().HeadObjectCommand)({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
      return { key, size: out.ContentLength ?? 0, modified: out.LastModified ?? new Date(0) };
    } catch (e) {
      if (status(e) === 404) return null;
      throw e;
    }
  }

  async move(from: string, to: string): Promise<void> {
    const info = await this.head(from);
    if (!info) throw new ObjectNotFoundError(from);
    const Bucket = this.options.bucket;
    const Key = this.objectKey(to);
    const CopySource = `${Bucket}/${this.objectKey(from).split('/').map(encodeURIComponent).join('/')}`;
    if (info.size <= COPY_LIMIT) {
      await this.client.send(new (sdk().CopyObjectCommand)({ Bucket, Key, CopySource }));
    } else {
      const { UploadId } = await this.client.send(new (sdk().CreateMultipartUploadCommand)({ Bucket, Key }));
      try {
        const Parts = [];
        for (let start = 0, n = 1; start < info.size; start += COPY_PART, n++) {
          const end = Math.min(info.size, start + COPY_PART) - 1;
          const out = await this.client.send(
            new (sdk().UploadPartCopyCommand)({ Bucket, Key, UploadId, PartNumber: n, CopySource, CopySourceRange: `bytes=${start}-${end}` }),
          );
          Parts.push({ PartNumber: n, ETag: out.CopyPartResult?.ETag });
        }
        await this.client.send(new (sdk().CompleteMultipartUploadCommand)({ Bucket, Key, UploadId, MultipartUpload: { Parts } }));
      } catch (e) {
        await this.client.send(new (sdk().AbortMultipartUploadCommand)({ Bucket, Key, UploadId })).catch(() => undefined);
        throw e;
      }
    }
    await this.delete(from);
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new (sdk().DeleteObjectCommand)({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
  }

  async *list(prefix: string, startAfter?: string): AsyncIterable<ObjectInfo> {
    checkPrefix(prefix);
    const own = this.options.prefix;
    let ContinuationToken: string | undefined;
    do {
      // StartAfter places the first page; the continuation token carries on from there.
      const StartAfter = startAfter && !ContinuationToken ? own + startAfter : undefined;
      const page = await this.client.send(
        new (sdk().ListObjectsV2Command)({ Bucket: this.options.bucket, Prefix: own + prefix, ContinuationToken, StartAfter }),
      );
      for (const o of page.Contents ?? []) {
        if (!o.Key) continue;
        yield { key: o.Key.slice(own.length), size: o.Size ?? 0, modified: o.LastModified ?? new Date(0) };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  async children(prefix: string): Promise<string[]> {
    if (prefix !== '' && !prefix.endsWith('/')) throw new InvalidKeyError(prefix);
    checkPrefix(prefix);
    const full = this.options.prefix + prefix;
    const out: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(new (sdk().ListObjectsV2Command)({ Bucket: this.options.bucket, Prefix: full, Delimiter: '/', ContinuationToken }));
      for (const p of page.CommonPrefixes ?? []) if (p.Prefix) out.push(p.Prefix.slice(full.length, -1));
      for (const o of page.Contents ?? []) if (o.Key) out.push(o.Key.slice(full.length));
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return out.sort();
  }

  async deletePrefix(prefix: string): Promise<number> {
    checkPrefix(prefix, { allowEmpty: false });
    let n = 0;
    let batch: string[] = [];
    const flush = async () => {
      if (!batch.length) return;
      const out = await this.client.send(
        new (sdk().DeleteObjectsCommand)({
          Bucket: this.options.bucket,
          Delete: { Objects: batch.map((k) => ({ Key: this.objectKey(k) })), Quiet: true },
        }),
      );
      if (out.Errors?.length) {
        const first = out.Errors[0];
        throw new Error(`Deleting ${out.Errors.length} object(s) failed, first ${first.Key}: ${first.Code} ${first.Message}`);
      }
      n += batch.length;
      batch = [];
    };
    for await (const info of this.list(prefix)) {
      batch.push(info.key);
      if (batch.length === DELETE_BATCH) await flush();
    }
    await flush();
    await this.abortUploads(prefix);
    return n;
  }

  /**
   * Aborts the unfinished multipart uploads under `prefix`: those of a writer that was killed
   * (a cancelled render's CPU worker) and could not abort its own.
   */
  private async abortUploads(prefix: string): Promise<void> {
    const Bucket = this.options.bucket;
    let KeyMarker: string | undefined;
    let UploadIdMarker: string | undefined;
    do {
      const page = await this.client
        .send(new (sdk().ListMultipartUploadsCommand)({ Bucket, Prefix: this.options.prefix + prefix, KeyMarker, UploadIdMarker }))
        .catch((e) => {
          // keys without s3:ListBucketMultipartUploads: the bucket's lifecycle rule removes them
          if (status(e) === 403) return null;
          throw e;
        });
      if (!page) return;
      for (const u of page.Uploads ?? []) {
        await this.client.send(new (sdk().AbortMultipartUploadCommand)({ Bucket, Key: u.Key, UploadId: u.UploadId })).catch((e) => {
          if (status(e) !== 404) throw e;
        });
      }
      [KeyMarker, UploadIdMarker] = page.IsTruncated ? [page.NextKeyMarker, page.NextUploadIdMarker] : [undefined, undefined];
    } while (KeyMarker);
  }

  async signedUrl(key: string, options: SignedUrlOptions): Promise<string> {
    const command = new (sdk().GetObjectCommand)({
      Bucket: this.options.bucket,
      Key: this.objectKey(key),
      ResponseContentDisposition: options.fileName ? contentDisposition('attachment', options.fileName) : undefined,
      ResponseContentType: options.contentType,
    });
    const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
    return getSignedUrl(this.sdkClients().signer, command, { expiresIn: options.expiresInSeconds });
  }

  health(): Promise<void> {
    return writeProbe(this);
  }

  close(): void {
    if (this.uploads instanceof SignedUploads) this.uploads.close();
    if (!this.clients) return;
    this.clients.client.destroy();
    if (this.clients.signer !== this.clients.client) this.clients.signer.destroy();
    this.clients = null;
  }
}

/**
 * Whether part and object bodies go with `x-amz-content-sha256: UNSIGNED-PAYLOAD` instead of
 * their SHA-256 in the signature (saving that hash on both ends): `auto` over HTTPS, where TLS
 * already protects the bytes, and never over plain HTTP (the AWS SDKs' rule for S3).
 */
export function unsignedPayloads(options: Pick<S3StoreOptions, 'endpoint' | 'signPayloads'>): boolean {
  if ((options.signPayloads ?? 'auto') === 'auto') return !options.endpoint || new URL(options.endpoint).protocol === 'https:';
  return options.signPayloads === 'false';
}

/**
 * The multipart writer's requests through the SDK. A body's hashes come with it (the writer
 * works them out as the bytes arrive): its SHA-256 goes in x-amz-content-sha256 (or
 * UNSIGNED-PAYLOAD), so the SDK never reads a spooled body to hash it, and its CRC32 in
 * x-amz-checksum-crc32, so the SDK adds none of its own.
 */
class SdkUploads implements UploadTransport {
  constructor(
    private readonly sdkClient: () => S3Client,
    private readonly bucket: string,
  ) {}

  private get client(): S3Client {
    return this.sdkClient();
  }

  async createUpload(Key: string, ContentType: string | undefined, checksums: boolean): Promise<string> {
    const out = await this.client.send(
      new (sdk().CreateMultipartUploadCommand)({ Bucket: this.bucket, Key, ContentType, ChecksumAlgorithm: checksums ? 'CRC32' : undefined }),
    );
    return out.UploadId!;
  }

  async uploadPart(Key: string, UploadId: string, PartNumber: number, body: UploadBody): Promise<{ ETag?: string; ChecksumCRC32?: string }> {
    return this.retryingSpooled(body, async () => {
      const command = new (sdk().UploadPartCommand)({
        Bucket: this.bucket,
        Key,
        UploadId,
        PartNumber,
        Body: body.open(),
        ContentLength: body.length,
        ChecksumCRC32: body.crc32,
      });
      const out = await this.client.send(withPayloadHash(command, body));
      return { ETag: out.ETag, ChecksumCRC32: out.ChecksumCRC32 };
    });
  }

  async completeUpload(Key: string, UploadId: string, Parts: CompletedUploadPart[]): Promise<void> {
    await this.client.send(new (sdk().CompleteMultipartUploadCommand)({ Bucket: this.bucket, Key, UploadId, MultipartUpload: { Parts } }));
  }

  async abortUpload(Key: string, UploadId: string): Promise<void> {
    await this.client.send(new (sdk().AbortMultipartUploadCommand)({ Bucket: this.bucket, Key, UploadId }));
  }

  async putObject(Key: string, body: UploadBody, ContentType: string | undefined): Promise<void> {
    await this.retryingSpooled(body, async () => {
      const command = new (sdk().PutObjectCommand)({ Bucket: this.bucket, Key, Body: body.open(), ContentLength: body.length, ContentType, ChecksumCRC32: body.crc32 });
      await this.client.send(withPayloadHash(command, body));
    });
  }

  /** The SDK retries a body in memory itself; a spooled one (a stream) only once told to, read afresh. */
  private retryingSpooled<T>(body: UploadBody, send: () => Promise<T>): Promise<T> {
    return body.spooled ? retrying(send) : send();
  }
}

/** Sets the body's SHA-256 (or UNSIGNED-PAYLOAD) as the payload hash SigV4 signs. */
function withPayloadHash<C extends UploadPartCommand | PutObjectCommand>(command: C, body: UploadBody): C {
  (command.middlewareStack as { add: (m: unknown, o: unknown) => void }).add(
    (next: (a: unknown) => unknown) => (args: { request?: { headers?: Record<string, string> } }) => {
      if (args.request?.headers) args.request.headers['x-amz-content-sha256'] = body.sha256 ?? 'UNSIGNED-PAYLOAD';
      return next(args);
    },
    { step: 'build', name: 'payloadHash' },
  );
  return command;
}

function status(e: unknown): number | undefined {
  return (e as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

function abortError(signal?: AbortSignal): Error {
  const reason = signal?.reason;
  return reason instanceof Error ? reason : Object.assign(new Error('The write was aborted'), { name: 'AbortError' });
}
