import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { InvalidKeyError, ObjectNotFoundError, ObjectStore, RangeNotSatisfiableError } from '../../src/storage/object-store';

/**
 * The behaviour every ObjectStore driver keeps, run against each of them (the local folder in
 * local-object-store.spec.ts, a real Ceph RADOS Gateway in test/storage-s3.e2e-spec.ts).
 */
export interface ContractTarget {
  /** A fresh, empty store (its own folder or key prefix). */
  store: ObjectStore;
  /** The multipart part size of the driver (streams larger than it are sent in parts). */
  partSize: number;
  /** Whatever an unfinished write left behind (partial files, multipart uploads); [] when clean. */
  leftovers(): Promise<string[]>;
}

const MB = 1024 * 1024;

/** `total` bytes in chunks of `chunk`, with no length announced (like an upload or a renderer). */
function chunkedStream(data: Buffer, chunk = 64 * 1024): Readable {
  let at = 0;
  return new Readable({
    read() {
      this.push(at < data.length ? data.subarray(at, (at += chunk)) : null);
    },
  });
}

/** Sends `sent` bytes, then stalls until destroyed (a client that stops half-way). */
function stallingStream(sent: number): Readable {
  let pushed = false;
  return new Readable({
    read() {
      if (!pushed) {
        pushed = true;
        this.push(randomBytes(sent));
      }
    },
  });
}

async function readAll(body: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of body) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

async function keys(store: ObjectStore, prefix: string, startAfter?: string): Promise<string[]> {
  const out: string[] = [];
  for await (const o of store.list(prefix, startAfter)) out.push(o.key);
  return out;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function eventually(check: () => Promise<boolean>, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

export function objectStoreContract(setup: () => ContractTarget): void {
  let t: ContractTarget;
  beforeAll(() => {
    t = setup();
  });

  it('stores a buffer and reads it back whole, with its size', async () => {
    const data = Buffer.from('hello, sheet');
    expect(await t.store.put('a/hello.txt', data, { contentType: 'text/plain' })).toEqual({ size: data.length });
    const got = await t.store.get('a/hello.txt');
    expect(await readAll(got.body)).toEqual(data);
    expect(got).toMatchObject({ length: data.length, size: data.length, start: 0, end: data.length - 1 });
    const head = await t.store.head('a/hello.txt');
    expect(head).toMatchObject({ key: 'a/hello.txt', size: data.length });
    expect(Math.abs(head!.modified.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('streams a body of unknown length larger than a part, byte for byte', async () => {
    const data = randomBytes(2 * t.partSize + 2 * MB);
    const { size } = await t.store.put('big/sheet.png', chunkedStream(data));
    expect(size).toBe(data.length);
    expect((await t.store.head('big/sheet.png'))!.size).toBe(data.length);
    expect(sha(await readAll((await t.store.get('big/sheet.png')).body))).toBe(sha(data));
    expect(await t.leftovers()).toEqual([]);
  });

  it('stores an empty stream as an empty object', async () => {
    expect(await t.store.put('empty/none.bin', chunkedStream(Buffer.alloc(0)))).toEqual({ size: 0 });
    const got = await t.store.get('empty/none.bin');
    expect((await readAll(got.body)).length).toBe(0);
    expect(got.size).toBe(0);
  });

  it('reads a byte range, an open-ended range and a range past the end clipped to the size', async () => {
    const data = randomBytes(100_000);
    await t.store.put('range/r.bin', data);
    const mid = await t.store.get('range/r.bin', { range: { start: 1000, end: 1999 } });
    expect(mid).toMatchObject({ length: 1000, size: 100_000, start: 1000, end: 1999 });
    expect(await readAll(mid.body)).toEqual(data.subarray(1000, 2000));
    const tail = await t.store.get('range/r.bin', { range: { start: 99_990 } });
    expect(tail).toMatchObject({ length: 10, start: 99_990, end: 99_999 });
    expect(await readAll(tail.body)).toEqual(data.subarray(99_990));
    const clipped = await t.store.get('range/r.bin', { range: { start: 99_000, end: 500_000 } });
    expect(clipped).toMatchObject({ length: 1000, end: 99_999 });
    expect(await readAll(clipped.body)).toEqual(data.subarray(99_000));
  });

  it('refuses a range that starts past the end', async () => {
    await t.store.put('range/small.bin', Buffer.alloc(10));
    await expect(t.store.get('range/small.bin', { range: { start: 10 } })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
  });

  it('reports a missing object: get throws, head is null, delete is quiet', async () => {
    await expect(t.store.get('missing/x.png')).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(await t.store.head('missing/x.png')).toBeNull();
    await expect(t.store.delete('missing/x.png')).resolves.toBeUndefined();
  });

  it('replaces an object written again under the same key', async () => {
    await t.store.put('over/o.txt', Buffer.from('first version'));
    await t.store.put('over/o.txt', chunkedStream(Buffer.from('second')));
    expect((await readAll((await t.store.get('over/o.txt')).body)).toString()).toBe('second');
  });

  it('lists by prefix in key order, a folder prefix or any beginning of a key', async () => {
    for (const k of ['l/b/3.png', 'l/a/1.png', 'l/a/2.png', 'l/a/sub/4.png', 'l/ab/5.png', 'l/c.png']) {
      await t.store.put(k, Buffer.from(k));
    }
    expect(await keys(t.store, 'l/a/')).toEqual(['l/a/1.png', 'l/a/2.png', 'l/a/sub/4.png']);
    expect(await keys(t.store, 'l/a')).toEqual(['l/a/1.png', 'l/a/2.png', 'l/a/sub/4.png', 'l/ab/5.png']);
    expect(await keys(t.store, 'l/')).toEqual(['l/a/1.png', 'l/a/2.png', 'l/a/sub/4.png', 'l/ab/5.png', 'l/b/3.png', 'l/c.png']);
    expect(await keys(t.store, 'nothing-here/')).toEqual([]);
    // Resuming after a key: an object's own key, a folder's name, or a key that does not exist.
    expect(await keys(t.store, 'l/', 'l/a/2.png')).toEqual(['l/a/sub/4.png', 'l/ab/5.png', 'l/b/3.png', 'l/c.png']);
    expect(await keys(t.store, 'l/', 'l/a/')).toEqual(['l/a/1.png', 'l/a/2.png', 'l/a/sub/4.png', 'l/ab/5.png', 'l/b/3.png', 'l/c.png']);
    expect(await keys(t.store, 'l/', 'l/a/z')).toEqual(['l/ab/5.png', 'l/b/3.png', 'l/c.png']);
    expect(await keys(t.store, 'l/a/', 'l/b')).toEqual([]);
    expect(await keys(t.store, 'l/', 'a')).toEqual(['l/a/1.png', 'l/a/2.png', 'l/a/sub/4.png', 'l/ab/5.png', 'l/b/3.png', 'l/c.png']);
    const sizes = [];
    for await (const o of t.store.list('l/a/')) sizes.push(o.size);
    expect(sizes).toEqual(['l/a/1.png', 'l/a/2.png', 'l/a/sub/4.png'].map((k) => k.length));
  });

  it('deletes one object, and every object under a prefix but nothing beside it', async () => {
    for (const k of ['d/x/1', 'd/x/2', 'd/x/deep/3', 'd/xy/4', 'd/keep']) await t.store.put(k, Buffer.from('.'));
    await t.store.delete('d/keep');
    expect(await t.store.head('d/keep')).toBeNull();
    expect(await t.store.deletePrefix('d/x/')).toBe(3);
    expect(await keys(t.store, 'd/')).toEqual(['d/xy/4']);
    expect(await t.store.deletePrefix('d/x/')).toBe(0);
    await expect(t.store.deletePrefix('')).rejects.toBeInstanceOf(InvalidKeyError);
  });

  it('moves an object to another key (replacing what was there) and reports a missing source', async () => {
    await t.store.put('mv/run/sheet-1.png', Buffer.from('sheet'));
    await t.store.put('mv/final/sheet-1.png', Buffer.from('older'));
    await t.store.move('mv/run/sheet-1.png', 'mv/final/sheet-1.png');
    expect(await t.store.head('mv/run/sheet-1.png')).toBeNull();
    expect(await readAll((await t.store.get('mv/final/sheet-1.png')).body)).toEqual(Buffer.from('sheet'));
    await expect(t.store.move('mv/run/none.png', 'mv/final/none.png')).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(await t.store.head('mv/final/none.png')).toBeNull();
  });

  it('names the files and folders directly below a folder, without walking the subfolders', async () => {
    await t.store.put('ch/a/1.png', Buffer.from('1'));
    await t.store.put('ch/a/sub/2.png', Buffer.from('2'));
    await t.store.put('ch/a/.run-x/3.png', Buffer.from('3'));
    await t.store.put('ch/ab.txt', Buffer.from('4'));
    expect(await t.store.children('ch/')).toEqual(['a', 'ab.txt']);
    expect(await t.store.children('ch/a/')).toEqual(['.run-x', '1.png', 'sub']);
    expect(await t.store.children('ch/none/')).toEqual([]);
    await expect(t.store.children('ch/a')).rejects.toBeInstanceOf(InvalidKeyError);
  });

  it('refuses keys that are not plain relative paths', async () => {
    for (const bad of ['', '/abs', '../up', 'a/../b', 'a//b', 'a/./b', 'dir/', 'back\\slash', 'nul\0']) {
      await expect(t.store.put(bad, Buffer.from('x'))).rejects.toBeInstanceOf(InvalidKeyError);
    }
    await expect(t.store.head('../etc/passwd')).rejects.toBeInstanceOf(InvalidKeyError);
  });

  it('leaves nothing behind when a write is aborted after it has begun in the store', async () => {
    const ac = new AbortController();
    const body = stallingStream(t.partSize + MB);
    const put = t.store.put('abort/a.png', body, { signal: ac.signal });
    // Abort once the write has begun in the store (a multipart upload, a partial file).
    expect(await eventually(async () => (await t.leftovers()).length > 0, 15_000)).toBe(true);
    ac.abort();
    await expect(put).rejects.toMatchObject({ name: 'AbortError' });
    expect(await t.store.head('abort/a.png')).toBeNull();
    expect(await eventually(async () => (await t.leftovers()).length === 0)).toBe(true);
  });

  it('leaves nothing behind when the source stream fails half-way', async () => {
    const data = randomBytes(t.partSize + 2 * MB);
    let sent = 0;
    const body = new Readable({
      read() {
        if (sent >= data.length - MB) return void this.destroy(new Error('client went away'));
        this.push(data.subarray(sent, (sent += 256 * 1024)));
      },
    });
    await expect(t.store.put('fail/f.png', body)).rejects.toThrow('client went away');
    expect(await t.store.head('fail/f.png')).toBeNull();
    expect(await t.leftovers()).toEqual([]);
  });

  it('passes the health check (writes and removes a probe)', async () => {
    await t.store.health();
    expect(await keys(t.store, '.health/')).toEqual([]);
  });
}
