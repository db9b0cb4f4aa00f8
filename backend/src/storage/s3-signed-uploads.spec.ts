import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpoolFile } from './s3-multipart';
import { SignedUploads } from './s3-signed-uploads';

/** An HTTP server that records each request and answers as the test says. */
async function fakeGateway(answer: (req: { method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer }) => { status?: number; headers?: Record<string, string>; body?: string }) {
  const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const r = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) };
      seen.push(r);
      const a = answer(r);
      res.writeHead(a.status ?? 200, a.headers ?? {});
      res.end(a.body ?? '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { seen, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
}

const options = (endpoint: string) => ({
  endpoint,
  region: 'us-east-1',
  bucket: 'bkt',
  forcePathStyle: true,
  accessKeyId: 'AKID',
  secretAccessKey: 'secret',
  queueSize: 2,
});

describe('SignedUploads', () => {
  it('sends the five requests path-style, signed, with the body, its hash and checksum as headers', async () => {
    const gw = await fakeGateway((r) => {
      if (r.url.endsWith('?uploads=')) return { body: '<InitiateMultipartUploadResult><UploadId>up&amp;1</UploadId></InitiateMultipartUploadResult>' };
      if (r.url.includes('partNumber=')) return { headers: { etag: '"p1"', 'x-amz-checksum-crc32': 'AAAAAQ==' } };
      return {};
    });
    const t = new SignedUploads(options(gw.endpoint));
    try {
      expect(await t.createUpload('a b/ü(1).png', 'image/png', true)).toBe('up&1');
      const body = Buffer.from('hello');
      const part = await t.uploadPart('a b/ü(1).png', 'up&1', 1, { length: 5, open: () => Readable.from([body]), sha256: 'ab'.repeat(32), crc32: 'AAAAAQ==' });
      expect(part).toEqual({ ETag: '"p1"', ChecksumCRC32: 'AAAAAQ==' });
      await t.completeUpload('a b/ü(1).png', 'up&1', [{ PartNumber: 1, ETag: '"p1"', ChecksumCRC32: 'AAAAAQ==' }]);
      await t.abortUpload('k', 'u2');
      await t.putObject('k', { length: 2, open: () => Buffer.from('hi') }, 'text/plain');
    } finally {
      t.close();
      await gw.close();
    }
    const [create, up, complete, abort, put] = gw.seen;
    expect(create).toMatchObject({ method: 'POST', url: '/bkt/a%20b/%C3%BC%281%29.png?uploads=' });
    expect(create.headers).toMatchObject({ 'content-type': 'image/png', 'x-amz-checksum-algorithm': 'CRC32' });
    expect(create.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/us-east-1\/s3\/aws4_request, SignedHeaders=[^,]*host[^,]*x-amz-content-sha256[^,]*, Signature=[0-9a-f]{64}$/);
    expect(up).toMatchObject({ method: 'PUT', url: '/bkt/a%20b/%C3%BC%281%29.png?partNumber=1&uploadId=up%261', body: Buffer.from('hello') });
    expect(up.headers).toMatchObject({ 'content-length': '5', 'x-amz-content-sha256': 'ab'.repeat(32), 'x-amz-checksum-crc32': 'AAAAAQ==' });
    expect(complete.method).toBe('POST');
    expect(complete.body.toString()).toContain('<Part><ChecksumCRC32>AAAAAQ==</ChecksumCRC32><ETag>&quot;p1&quot;</ETag><PartNumber>1</PartNumber></Part>');
    expect(complete.headers['x-amz-content-sha256']).toMatch(/^[0-9a-f]{64}$/);
    expect(abort).toMatchObject({ method: 'DELETE', url: '/bkt/k?uploadId=u2' });
    expect(put).toMatchObject({ method: 'PUT', url: '/bkt/k', body: Buffer.from('hi') });
    expect(put.headers).toMatchObject({ 'content-type': 'text/plain', 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' });
  });

  it("shapes S3's errors as the SDK does, a completion's error in a 200 answer included", async () => {
    const gw = await fakeGateway((r) =>
      r.method === 'PUT'
        ? { status: 403, body: '<Error><Code>SignatureDoesNotMatch</Code><Message>no</Message></Error>' }
        : { status: 200, body: '<?xml version="1.0"?>\n\n<Error><Code>InternalError</Code><Message>try again</Message></Error>' },
    );
    const t = new SignedUploads(options(gw.endpoint));
    try {
      await expect(t.putObject('k', { length: 1, open: () => Buffer.from('x') }, undefined)).rejects.toMatchObject({
        name: 'SignatureDoesNotMatch',
        message: 'no',
        $metadata: { httpStatusCode: 403 },
      });
      await expect(t.completeUpload('k', 'u', [{ PartNumber: 1, ETag: '"e"' }])).rejects.toMatchObject({ name: 'InternalError', $metadata: { httpStatusCode: 500 } });
    } finally {
      t.close();
      await gw.close();
    }
  });

  it('sends a request again after a 5xx, the body read afresh; not after a 4xx', async () => {
    let n = 0;
    const gw = await fakeGateway((r) => (r.url.includes('partNumber=1') && n++ === 0 ? { status: 503, body: '<Error><Code>SlowDown</Code></Error>' } : r.url.includes('partNumber=2') ? { status: 400, body: '<Error><Code>InvalidPart</Code></Error>' } : { headers: { etag: '"e"' } }));
    const t = new SignedUploads(options(gw.endpoint), undefined, 1);
    try {
      let opened = 0;
      const body = { length: 3, open: () => (opened++, Readable.from([Buffer.from('abc')])) };
      expect(await t.uploadPart('k', 'u', 1, body)).toMatchObject({ ETag: '"e"' });
      expect(opened).toBe(2);
      await expect(t.uploadPart('k', 'u', 2, body)).rejects.toMatchObject({ name: 'InvalidPart', $metadata: { httpStatusCode: 400 } });
    } finally {
      t.close();
      await gw.close();
    }
    expect(gw.seen.map((r) => r.url)).toEqual(['/bkt/k?partNumber=1&uploadId=u', '/bkt/k?partNumber=1&uploadId=u', '/bkt/k?partNumber=2&uploadId=u']);
    expect(gw.seen.map((r) => r.body.toString())).toEqual(['abc', 'abc', 'abc']);
  });

  it('sends a spooled part from its file in reused buffers, the same bytes again on a retry', async () => {
    let n = 0;
    const gw = await fakeGateway(() => (n++ === 0 ? { status: 500, body: '<Error><Code>InternalError</Code></Error>' } : { headers: { etag: '"e"' } }));
    const dir = mkdtempSync(join(tmpdir(), 'signed-spec-'));
    const file = await SpoolFile.open(dir, { sha256: true, crc32: false });
    const data = Buffer.from(Array.from({ length: 700_000 }, (_, i) => (i * 7) & 255));
    await file.append(data.subarray(0, 100_000));
    await file.append(data.subarray(100_000));
    const t = new SignedUploads(options(gw.endpoint), undefined, 1);
    try {
      expect(await t.uploadPart('k', 'u', 1, file.body())).toMatchObject({ ETag: '"e"' });
    } finally {
      t.close();
      await file.close();
      await gw.close();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(gw.seen).toHaveLength(2);
    for (const r of gw.seen) {
      expect(r.body.equals(data)).toBe(true);
      expect(r.headers['content-length']).toBe('700000');
      expect(r.headers['x-amz-content-sha256']).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });

  it('addresses the bucket as a host name unless told path style (or the name has dots)', async () => {
    const gw = await fakeGateway(() => ({}));
    const hosts: string[] = [];
    const virtual = new SignedUploads({ ...options('http://localhost:1'), forcePathStyle: false }, (_what, headers) => hosts.push(headers.host), 1);
    const dotted = new SignedUploads({ ...options('http://localhost:1'), bucket: 'a.b', forcePathStyle: false }, (_what, headers) => hosts.push(headers.host), 1);
    await expect(virtual.abortUpload('k', 'u')).rejects.toBeDefined();
    await expect(dotted.abortUpload('k', 'u')).rejects.toBeDefined();
    virtual.close();
    dotted.close();
    await gw.close();
    expect([...new Set(hosts)]).toEqual(['bkt.localhost:1', 'localhost:1']);
  });
});
