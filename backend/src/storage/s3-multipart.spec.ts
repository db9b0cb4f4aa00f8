import type { S3Client } from '@aws-sdk/client-s3';
import { MultipartWrite, PartBuffers } from './s3-multipart';

/** A client that records each request and answers it when the test says (parts travelling). */
function fakeClient({ failPart }: { failPart?: number } = {}) {
  const calls: { name: string; input: any; body?: Buffer }[] = [];
  const waiting: (() => void)[] = [];
  let held = false;
  const client = {
    async send(command: { constructor: { name: string }; input: any }) {
      const name = command.constructor.name;
      // the body as it was when sent: a reused buffer must not change under a part in flight
      const body = command.input.Body ? Buffer.from(command.input.Body) : undefined;
      calls.push({ name, input: command.input, body });
      if (name === 'UploadPartCommand' && held) await new Promise<void>((r) => waiting.push(r));
      if (name === 'UploadPartCommand' && command.input.PartNumber === failPart) throw new Error('part refused');
      if (name === 'CreateMultipartUploadCommand') return { UploadId: 'u1' };
      if (name === 'UploadPartCommand') return { ETag: `"e${command.input.PartNumber}"` };
      return {};
    },
  };
  return {
    client: client as unknown as S3Client,
    calls,
    names: () => calls.map((c) => c.name.replace('Command', '')),
    hold: () => (held = true),
    releaseAll: () => {
      held = false;
      waiting.splice(0).forEach((r) => r());
    },
    travelling: () => waiting.length,
  };
}

const PART = 16;

function target(client: S3Client, parts = new PartBuffers(PART, 2), queueSize = 1) {
  return { client, bucket: 'b', key: 'k', contentType: 'image/png', queueSize, checksums: false, parts };
}

describe('MultipartWrite', () => {
  it('sends what fits one part as one PutObject, a full part included', async () => {
    const f = fakeClient();
    const w = new MultipartWrite(target(f.client));
    await w.write(Buffer.alloc(10, 1));
    await w.write(Buffer.alloc(6, 2));
    expect(await w.finish()).toEqual({ size: 16 });
    expect(f.names()).toEqual(['PutObject']);
    expect(f.calls[0].body).toEqual(Buffer.concat([Buffer.alloc(10, 1), Buffer.alloc(6, 2)]));
    expect(f.calls[0].input.ContentType).toBe('image/png');
  });

  it('keeps a file smaller than a part as written: one PutObject of the buffer itself, no part buffer', async () => {
    const f = fakeClient();
    const parts = new PartBuffers(PART, 2);
    const take = jest.spyOn(parts, 'take');
    const sent: Buffer[] = [];
    const client = { send: (c: any) => (sent.push(c.input.Body), f.client.send(c)) } as unknown as S3Client;
    const w = new MultipartWrite(target(client, parts));
    const only = Buffer.alloc(5, 4);
    await w.write(only);
    await w.finish();
    expect(sent[0]).toBe(only);
    expect(take).not.toHaveBeenCalled();
  });

  it('cuts parts of the part size from writes of any size, in order, and completes with their ETags', async () => {
    const f = fakeClient();
    const w = new MultipartWrite(target(f.client));
    const data = Buffer.from(Array.from({ length: 50 }, (_, i) => i));
    await w.write(data.subarray(0, 7));
    await w.write(data.subarray(7, 40));
    await w.write(data.subarray(40));
    expect(await w.finish()).toEqual({ size: 50 });
    expect(f.names()).toEqual(['CreateMultipartUpload', 'UploadPart', 'UploadPart', 'UploadPart', 'UploadPart', 'CompleteMultipartUpload']);
    const parts = f.calls.filter((c) => c.name === 'UploadPartCommand');
    expect(parts.map((p) => p.input.PartNumber)).toEqual([1, 2, 3, 4]);
    expect(Buffer.concat(parts.map((p) => p.body!))).toEqual(data);
    expect(f.calls.at(-1)!.input.MultipartUpload.Parts).toEqual([1, 2, 3, 4].map((n) => ({ PartNumber: n, ETag: `"e${n}"` })));
  });

  it('holds at most (queue size + 1) part buffers: the writer waits while a part travels and the next is full', async () => {
    const f = fakeClient();
    const parts = new PartBuffers(PART, 2);
    const take = jest.spyOn(parts, 'take');
    const w = new MultipartWrite(target(f.client, parts, 1));
    f.hold();
    await w.write(Buffer.alloc(PART, 1));
    await w.write(Buffer.alloc(PART, 2)); // part 1 goes, part 2 fills meanwhile
    let wrote = false;
    const third = w.write(Buffer.alloc(1, 3)).then(() => (wrote = true));
    await new Promise((r) => setImmediate(r));
    expect(f.travelling()).toBe(1);
    expect(wrote).toBe(false);
    f.releaseAll();
    await third;
    await w.finish();
    // two buffers in all, part 1's reused for part 3
    expect(take).toHaveBeenCalledTimes(3);
    const bodies = f.calls.filter((c) => c.name === 'UploadPartCommand').map((c) => c.body!);
    expect(bodies).toEqual([Buffer.alloc(PART, 1), Buffer.alloc(PART, 2), Buffer.alloc(1, 3)]);
  });

  it('sends a whole buffer larger than a part as slices of it, without part buffers', async () => {
    const f = fakeClient();
    const parts = new PartBuffers(PART, 2);
    const take = jest.spyOn(parts, 'take');
    const w = new MultipartWrite(target(f.client, parts, 2));
    expect(await w.writeAll(Buffer.alloc(40, 9))).toEqual({ size: 40 });
    expect(f.calls.filter((c) => c.name === 'UploadPartCommand').map((c) => c.body!.length)).toEqual([16, 16, 8]);
    expect(take).not.toHaveBeenCalled();
  });

  it('a failed part fails the write and aborts the upload; abort() leaves no upload behind', async () => {
    const f = fakeClient({ failPart: 1 });
    const w = new MultipartWrite(target(f.client));
    await w.write(Buffer.alloc(PART + 1));
    await new Promise((r) => setImmediate(r));
    await expect(w.finish()).rejects.toThrow('part refused');
    expect(f.names()).toContain('AbortMultipartUpload');
    expect(f.names()).not.toContain('CompleteMultipartUpload');

    const g = fakeClient();
    const v = new MultipartWrite(target(g.client));
    await v.write(Buffer.alloc(PART + 1));
    await v.abort();
    expect(g.names()).toEqual(['CreateMultipartUpload', 'UploadPart', 'AbortMultipartUpload']);
    await expect(v.write(Buffer.alloc(1))).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('keeps spare part buffers for the next write, up to its limit', () => {
    const parts = new PartBuffers(PART, 1);
    const a = parts.take();
    const b = parts.take();
    parts.give(a);
    parts.give(b);
    expect(parts.take()).toBe(a);
    expect(parts.take()).not.toBe(b);
  });
});
