import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { MultipartTarget, MultipartWrite, retrying, SpoolFile, transient, UploadBody, UploadTransport } from './s3-multipart';

async function read(body: UploadBody): Promise<Buffer> {
  const b = body.open();
  if (Buffer.isBuffer(b)) return b;
  const chunks: Buffer[] = [];
  for await (const c of b as Readable) chunks.push(c);
  return Buffer.concat(chunks);
}

/** A transport that records each request (with its body as read) and answers it when the test says. */
function fakeTransport({ failPart, failTimes = Infinity, failStatus = 500 }: { failPart?: number; failTimes?: number; failStatus?: number } = {}) {
  const calls: { name: string; partNumber?: number; body?: Buffer; given?: UploadBody; raw?: unknown; parts?: unknown; contentType?: string; checksums?: boolean }[] = [];
  const waiting: (() => void)[] = [];
  let held = false;
  let failed = 0;
  const transport: UploadTransport = {
    async createUpload(_key, contentType, checksums) {
      calls.push({ name: 'CreateMultipartUpload', contentType, checksums });
      return 'u1';
    },
    async uploadPart(_key, _id, partNumber, body) {
      const raw = body.open();
      const call = { name: 'UploadPart', partNumber, given: body, raw, body: await read({ ...body, open: () => raw }) };
      calls.push(call);
      if (held) await new Promise<void>((r) => waiting.push(r));
      if (partNumber === failPart && failed++ < failTimes) throw Object.assign(new Error('part refused'), { $metadata: { httpStatusCode: failStatus } });
      return { ETag: `"e${partNumber}"` };
    },
    async completeUpload(_key, _id, parts) {
      calls.push({ name: 'CompleteMultipartUpload', parts });
    },
    async abortUpload() {
      calls.push({ name: 'AbortMultipartUpload' });
    },
    async putObject(_key, body, contentType) {
      const raw = body.open();
      calls.push({ name: 'PutObject', given: body, raw, body: await read({ ...body, open: () => raw }), contentType });
    },
  };
  return {
    transport,
    calls,
    names: () => calls.map((c) => c.name),
    parts: () => calls.filter((c) => c.name === 'UploadPart'),
    hold: () => (held = true),
    releaseAll: () => {
      held = false;
      waiting.splice(0).forEach((r) => r());
    },
    travelling: () => waiting.length,
  };
}

const PART = 16;
let spoolDir: string;
beforeAll(() => (spoolDir = mkdtempSync(join(tmpdir(), 'spool-spec-'))));
afterAll(() => rmSync(spoolDir, { recursive: true, force: true }));
afterEach(() => jest.restoreAllMocks());

function target(transport: UploadTransport, over: Partial<MultipartTarget> = {}): MultipartTarget {
  return { transport, key: 'k', contentType: 'image/png', partSize: PART, queueSize: 1, checksums: false, signPayloads: false, spoolDir, ...over };
}

/** Counts the spool files opened and closed (every one must be closed). */
function spoolFiles() {
  const open = jest.spyOn(SpoolFile, 'open');
  const close = jest.spyOn(SpoolFile.prototype, 'close');
  return { opened: () => open.mock.calls.length, closed: () => new Set(close.mock.contexts).size };
}

describe('MultipartWrite', () => {
  it('sends a few bytes as one PutObject of the buffers as written, without a spool file', async () => {
    const f = fakeTransport();
    const files = spoolFiles();
    const w = new MultipartWrite(target(f.transport));
    const only = Buffer.alloc(5, 4);
    await w.write(only);
    expect(await w.finish()).toEqual({ size: 5 });
    expect(f.names()).toEqual(['PutObject']);
    expect(f.calls[0].raw).toBe(only);
    expect(f.calls[0].contentType).toBe('image/png');
    expect(files.opened()).toBe(0);
  });

  it('spools a file larger than the in-memory bytes but not than a part: one PutObject read from the spool file', async () => {
    const f = fakeTransport();
    const files = spoolFiles();
    const w = new MultipartWrite(target(f.transport, { inMemoryBytes: 8 }));
    await w.write(Buffer.alloc(6, 1));
    await w.write(Buffer.alloc(10, 2));
    expect(await w.finish()).toEqual({ size: 16 });
    expect(f.names()).toEqual(['PutObject']);
    expect(f.calls[0].raw).toBeInstanceOf(Readable);
    expect(f.calls[0].given!.length).toBe(16);
    expect(f.calls[0].body).toEqual(Buffer.concat([Buffer.alloc(6, 1), Buffer.alloc(10, 2)]));
    expect([files.opened(), files.closed()]).toEqual([1, 1]);
    expect(readdirSync(spoolDir)).toEqual([]);
  });

  it('cuts parts of the part size from writes of any size, in order, and completes with their ETags', async () => {
    const f = fakeTransport();
    const files = spoolFiles();
    const w = new MultipartWrite(target(f.transport));
    const data = Buffer.from(Array.from({ length: 50 }, (_, i) => i));
    await w.write(data.subarray(0, 7));
    await w.write(data.subarray(7, 40));
    await w.write(data.subarray(40));
    expect(await w.finish()).toEqual({ size: 50 });
    expect(f.names()).toEqual(['CreateMultipartUpload', 'UploadPart', 'UploadPart', 'UploadPart', 'UploadPart', 'CompleteMultipartUpload']);
    expect(f.parts().map((p) => p.partNumber)).toEqual([1, 2, 3, 4]);
    expect(f.parts().map((p) => p.given!.length)).toEqual([16, 16, 16, 2]);
    expect(Buffer.concat(f.parts().map((p) => p.body!))).toEqual(data);
    expect(f.calls.at(-1)!.parts).toEqual([1, 2, 3, 4].map((n) => ({ PartNumber: n, ETag: `"e${n}"` })));
    expect([files.opened(), files.closed()]).toEqual([4, 4]);
  });

  it("gives each body its SHA-256 when payloads are signed and its CRC32 when checksums are on", async () => {
    const f = fakeTransport();
    const w = new MultipartWrite(target(f.transport, { signPayloads: true, checksums: true }));
    const data = Buffer.from(Array.from({ length: 20 }, (_, i) => i * 7));
    await w.write(data.subarray(0, 3));
    await w.write(data.subarray(3));
    await w.finish();
    expect(f.calls[0]).toMatchObject({ name: 'CreateMultipartUpload', checksums: true });
    const crc = (b: Buffer) => {
      const out = Buffer.alloc(4);
      out.writeUInt32BE(crc32(b) >>> 0);
      return out.toString('base64');
    };
    for (const p of f.parts()) {
      expect(p.given!.sha256).toBe(createHash('sha256').update(p.body!).digest('hex'));
      expect(p.given!.crc32).toBe(crc(p.body!));
    }
    expect(f.calls.at(-1)!.parts).toEqual(f.parts().map((p) => ({ PartNumber: p.partNumber, ETag: `"e${p.partNumber}"`, ChecksumCRC32: crc(p.body!) })));

    const g = fakeTransport();
    const unsigned = new MultipartWrite(target(g.transport));
    await unsigned.write(Buffer.alloc(3));
    await unsigned.finish();
    expect(g.calls[0].given).toMatchObject({ sha256: undefined, crc32: undefined });
  });

  it('holds at most (queue size + 1) spool files: the writer waits while a part travels and the next is full', async () => {
    const f = fakeTransport();
    const files = spoolFiles();
    const w = new MultipartWrite(target(f.transport, { queueSize: 1 }));
    f.hold();
    await w.write(Buffer.alloc(PART, 1));
    await w.write(Buffer.alloc(PART, 2)); // part 1 goes, part 2 fills meanwhile
    let wrote = false;
    const third = w.write(Buffer.alloc(1, 3)).then(() => (wrote = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(f.travelling()).toBe(1);
    expect(wrote).toBe(false);
    expect(files.opened() - files.closed()).toBe(2);
    f.releaseAll();
    await third;
    await w.finish();
    expect([files.opened(), files.closed()]).toEqual([3, 3]);
    expect(f.parts().map((p) => p.body!)).toEqual([Buffer.alloc(PART, 1), Buffer.alloc(PART, 2), Buffer.alloc(1, 3)]);
  });

  it('sends a whole buffer larger than a part as slices of it, without spool files', async () => {
    const f = fakeTransport();
    const files = spoolFiles();
    const w = new MultipartWrite(target(f.transport, { queueSize: 2 }));
    const all = Buffer.alloc(40, 9);
    expect(await w.writeAll(all)).toEqual({ size: 40 });
    expect(f.parts().map((p) => p.body!.length)).toEqual([16, 16, 8]);
    expect(f.parts().every((p) => Buffer.isBuffer(p.raw) && p.raw.buffer === all.buffer)).toBe(true);
    expect(files.opened()).toBe(0);
  });

  it('tries a request again after a transient failure (a fresh read of a spooled body), not after a refusal', async () => {
    const file = await SpoolFile.open(spoolDir, { sha256: false, crc32: false });
    await file.append(Buffer.from('part'));
    const body = file.body();
    const reads: Buffer[] = [];
    let calls = 0;
    const out = await retrying(async () => {
      reads.push(await read(body));
      if (++calls === 1) throw Object.assign(new Error('busy'), { $metadata: { httpStatusCode: 503 } });
      return 'sent';
    }, 1);
    expect(out).toBe('sent');
    expect(reads).toEqual([Buffer.from('part'), Buffer.from('part')]);
    await file.close();

    calls = 0;
    await expect(
      retrying(async () => {
        calls++;
        throw Object.assign(new Error('denied'), { $metadata: { httpStatusCode: 403 } });
      }, 1),
    ).rejects.toThrow('denied');
    expect(calls).toBe(1);
    calls = 0;
    await expect(
      retrying(async () => {
        calls++;
        throw new Error('socket hang up'); // no answer at all
      }, 1),
    ).rejects.toThrow('socket hang up');
    expect(calls).toBe(3);
    expect(transient(Object.assign(new Error('x'), { $metadata: { httpStatusCode: 404 } }))).toBe(false);
    expect(transient(Object.assign(new Error('x'), { name: 'SlowDown', $metadata: { httpStatusCode: 503 } }))).toBe(true);
  });

  it('a spool file closed under a read fails the read, never reads what its descriptor number became', async () => {
    const file = await SpoolFile.open(spoolDir, { sha256: false, crc32: false });
    await file.append(Buffer.alloc(600 << 10, 1));
    const body = file.body();
    await file.close();
    await expect(read(body)).rejects.toThrow('closed');
  });

  it('a failed part fails the write and aborts the upload; abort() leaves no upload and no spool file behind', async () => {
    const f = fakeTransport({ failPart: 1, failStatus: 400 });
    const files = spoolFiles();
    const w = new MultipartWrite(target(f.transport));
    await w.write(Buffer.alloc(PART + 1));
    await new Promise((r) => setTimeout(r, 20));
    await expect(w.finish()).rejects.toThrow('part refused');
    expect(f.names()).toContain('AbortMultipartUpload');
    expect(f.names()).not.toContain('CompleteMultipartUpload');

    const g = fakeTransport();
    const v = new MultipartWrite(target(g.transport));
    await v.write(Buffer.alloc(PART + 1));
    await v.abort();
    expect(g.names()).toEqual(['CreateMultipartUpload', 'UploadPart', 'AbortMultipartUpload']);
    await expect(v.write(Buffer.alloc(1))).rejects.toMatchObject({ name: 'AbortError' });
    expect(files.opened()).toBe(files.closed());
    expect(readdirSync(spoolDir)).toEqual([]);
  });

  it("keeps no name of a spool file on disk: it is unlinked once open", async () => {
    const file = await SpoolFile.open(spoolDir, { sha256: true, crc32: false });
    expect(readdirSync(spoolDir)).toEqual([]);
    await file.append(Buffer.from('hello'));
    const body = file.body();
    expect(await read(body)).toEqual(Buffer.from('hello'));
    expect(await read(body)).toEqual(Buffer.from('hello')); // read again for a retry
    expect(body.sha256).toBe(createHash('sha256').update('hello').digest('hex'));
    await file.close();
  });
});
