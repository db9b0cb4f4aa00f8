import { createHash } from 'node:crypto';
import * as http from 'node:http';
import * as https from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sign } from 'aws4';
import type { S3StorageConfig } from '../config/configuration';
import { CompletedUploadPart, retrying, UploadBody, UploadTransport } from './s3-multipart';

/**
 * The multipart writer's five requests (create, part, complete, abort, put) as plain HTTP
 * requests signed with SigV4 by `aws4`, without loading the AWS SDK: a CPU worker that only
 * writes a render's files into the bucket needs these and nothing else. The SDK's S3 client
 * costs it about 9 MB of peak memory, and even the SDK's own signer (@smithy/signature-v4,
 * which loads much of @smithy/core) 7.5 MB of RSS against aws4's 1 MB (see
 * docs/benchmarks/operations-log.md). Only for static keys (STORAGE_S3_ACCESS_KEY_ID and
 * _SECRET_ACCESS_KEY); the SDK's credential chain needs the SDK. Errors are shaped as the
 * SDK's are (`name` the S3 error code, `$metadata.httpStatusCode`).
 */
export class SignedUploads implements UploadTransport {
  private readonly credentials: { accessKeyId: string; secretAccessKey: string };
  private readonly base: URL;
  private readonly pathStyle: boolean;
  private readonly agent: http.Agent;

  constructor(
    private readonly options: Pick<S3StorageConfig, 'endpoint' | 'region' | 'bucket' | 'forcePathStyle' | 'accessKeyId' | 'secretAccessKey' | 'queueSize'>,
    /** Sees each request's headers as signed (tests). */
    private readonly onSigned?: (what: string, headers: Record<string, string>) => void,
    private readonly retryDelayMs = 100,
  ) {
    if (!options.accessKeyId || !options.secretAccessKey) throw new Error('SignedUploads needs static keys');
    this.credentials = { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey };
    this.base = new URL(options.endpoint ?? `https://s3.${options.region}.amazonaws.com`);
    // a bucket name with dots does not fit a TLS wildcard certificate: path style, as the SDK does
    this.pathStyle = options.forcePathStyle || options.bucket.includes('.');
    const Agent = this.base.protocol === 'https:' ? https.Agent : http.Agent;
    this.agent = new Agent({ keepAlive: true, maxSockets: Math.max(4, options.queueSize + 2) });
  }

  async createUpload(key: string, contentType: string | undefined, checksums: boolean): Promise<string> {
    const headers: Record<string, string> = {};
    if (contentType) headers['content-type'] = contentType;
    if (checksums) headers['x-amz-checksum-algorithm'] = 'CRC32';
    const res = await this.request({ what: 'CreateMultipartUpload', method: 'POST', key, query: { uploads: '' }, headers });
    const id = xmlValue(res.body, 'UploadId');
    if (!id) throw s3Error(res.status, res.body, `CreateMultipartUpload of ${key} answered without an UploadId`);
    return id;
  }

  async uploadPart(key: string, uploadId: string, partNumber: number, body: UploadBody): Promise<{ ETag?: string; ChecksumCRC32?: string }> {
    const res = await this.request({ what: 'UploadPart', method: 'PUT', key, query: { partNumber: String(partNumber), uploadId }, headers: bodyHeaders(body), body });
    return { ETag: res.headers.etag as string | undefined, ChecksumCRC32: res.headers['x-amz-checksum-crc32'] as string | undefined };
  }

  async completeUpload(key: string, uploadId: string, parts: CompletedUploadPart[]): Promise<void> {
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?><CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
      parts
        .map((p) => `<Part>${p.ChecksumCRC32 ? `<ChecksumCRC32>${escapeXml(p.ChecksumCRC32)}</ChecksumCRC32>` : ''}<ETag>${escapeXml(p.ETag)}</ETag><PartNumber>${p.PartNumber}</PartNumber></Part>`)
        .join('') +
      '</CompleteMultipartUpload>';
    const buf = Buffer.from(xml);
    const body: UploadBody = { length: buf.length, open: () => buf, sha256: createHash('sha256').update(buf).digest('hex') };
    const res = await this.request({ what: 'CompleteMultipartUpload', method: 'POST', key, query: { uploadId }, headers: { 'content-type': 'application/xml', ...bodyHeaders(body) }, body });
    // S3 may answer 200 and report the failure in the body (it began answering before it knew)
    if (/<Error>/.test(res.body)) throw s3Error(500, res.body, `CompleteMultipartUpload of ${key} failed`);
  }

  async abortUpload(key: string, uploadId: string): Promise<void> {
    await this.request({ what: 'AbortMultipartUpload', method: 'DELETE', key, query: { uploadId }, headers: {} });
  }

  async putObject(key: string, body: UploadBody, contentType: string | undefined): Promise<void> {
    await this.request({ what: 'PutObject', method: 'PUT', key, query: {}, headers: { ...(contentType ? { 'content-type': contentType } : {}), ...bodyHeaders(body) }, body });
  }

  close(): void {
    this.agent.destroy();
  }

  /** One request, tried again after a transient failure (the body read afresh; see retrying). */
  private request(r: S3Request): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
    return retrying(() => this.requestOnce(r), this.retryDelayMs);
  }

  private async requestOnce({ what, method, key, query, headers, body }: S3Request): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
    const { bucket } = this.options;
    const base = this.base;
    const hostname = this.pathStyle ? base.hostname : `${bucket}.${base.hostname}`;
    const host = base.port ? `${hostname}:${base.port}` : hostname;
    const prefix = base.pathname.replace(/\/$/, '');
    const path = `${prefix}${this.pathStyle ? `/${encodeSegment(bucket)}` : ''}/${key.split('/').map(encodeSegment).join('/')}`;
    const search = Object.keys(query)
      .sort()
      .map((k) => `${encodeSegment(k)}=${encodeSegment(query[k])}`)
      .join('&');
    // aws4 signs every header given (host, length, type, the payload's SHA-256 or
    // UNSIGNED-PAYLOAD, the checksum) and S3's path as sent, each segment escaped once; a
    // request without a body signs the empty body's hash
    const signed = sign(
      {
        service: 's3',
        region: this.options.region,
        method,
        path: search ? `${path}?${search}` : path,
        headers: { host, ...headers, ...(body ? {} : { 'content-length': '0' }) },
      },
      this.credentials,
    );
    const signedHeaders = signed.headers as Record<string, string>;
    this.onSigned?.(what, signedHeaders);
    return new Promise((resolve, reject) => {
      const req = (base.protocol === 'https:' ? https : http).request(
        { method, hostname, port: base.port || undefined, path: signed.path, headers: signedHeaders, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const status = res.statusCode ?? 0;
            if (status >= 300) reject(s3Error(status, text, `${what} of ${key}: HTTP ${status}`, res.headers));
            else resolve({ status, headers: res.headers, body: text });
          });
        },
      );
      req.setTimeout(120_000, () => req.destroy(Object.assign(new Error(`${what} of ${key}: no answer in 120 s`), { name: 'TimeoutError' })));
      req.on('error', reject);
      if (body?.readAt) return void sendSpooled(req, body).catch((e) => req.destroy(e));
      const data = body?.open();
      if (!data) req.end();
      else if (Buffer.isBuffer(data)) req.end(data);
      else pipeline(data as Readable, req).catch((e) => req.destroy(e));
    });
  }
}

const CHUNK = 256 << 10;

/**
 * A spooled body into the request from two buffers of its own: a buffer is read into again
 * only once the socket has taken what it held (the write's callback). Sending a part takes
 * two buffers instead of a fresh one per chunk: measured, 3 s less CPU for a render's 435 MB
 * and a lower peak (docs/benchmarks/operations-log.md).
 */
async function sendSpooled(req: http.ClientRequest, body: UploadBody): Promise<void> {
  const size = Math.max(1, Math.min(CHUNK, body.length));
  const bufs = [Buffer.allocUnsafeSlow(size), Buffer.allocUnsafeSlow(size)];
  const flushed: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
  // a request that ends early (its socket gone) calls no more write callbacks: stop waiting
  const closed = new Promise<void>((_, reject) => req.once('close', () => reject(new Error('The request ended'))));
  closed.catch(() => undefined);
  let at = 0;
  for (let i = 0; at < body.length; i ^= 1) {
    await Promise.race([flushed[i], closed]);
    const n = body.readAt!(bufs[i], at);
    if (n <= 0) throw new Error('The spool file ended early');
    at += n;
    const chunk = bufs[i].subarray(0, n);
    flushed[i] = new Promise<void>((resolve, reject) => req.write(chunk, (e) => (e ? reject(e) : resolve())));
    flushed[i].catch(() => undefined);
  }
  req.end();
}

/** One of the writer's requests: its name (errors, tests), verb, object key, query and headers. */
interface S3Request {
  what: string;
  method: string;
  key: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: UploadBody;
}

/** The body's length, payload hash (its SHA-256, or UNSIGNED-PAYLOAD) and CRC32, as headers. */
function bodyHeaders(body: UploadBody): Record<string, string> {
  return {
    'content-length': String(body.length),
    'x-amz-content-sha256': body.sha256 ?? 'UNSIGNED-PAYLOAD',
    ...(body.crc32 ? { 'x-amz-checksum-crc32': body.crc32 } : {}),
  };
}

/** RFC 3986 escaping of one path segment or query part, as S3's SigV4 wants it. */
function encodeSegment(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function xmlValue(xml: string, tag: string): string | undefined {
  const m = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml);
  return m ? m[1].replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&') : undefined;
}

/** An error as the SDK shapes S3's: `name` its code, `$metadata.httpStatusCode` the status. */
function s3Error(status: number, xml: string, fallback: string, headers: http.IncomingHttpHeaders = {}): Error {
  const code = xmlValue(xml, 'Code') ?? (status === 404 ? 'NotFound' : `Http${status}`);
  const message = xmlValue(xml, 'Message') ?? fallback;
  return Object.assign(new Error(message), {
    name: code,
    $fault: status >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode: status, requestId: headers['x-amz-request-id'] as string | undefined },
  });
}
