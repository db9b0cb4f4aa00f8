import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalObjectStore, PARTIAL_DIR } from './local-object-store';
import { ObjectCache } from './object-cache';
import { storeSink, UploadBatch } from './store-sink';
import { ObjectStore } from './object-store';

describe('storeSink and ObjectCache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gs-sink-'));
  const store = new LocalObjectStore(join(dir, 'files'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const partials = () => (existsSync(join(dir, 'files', PARTIAL_DIR)) ? readdirSync(join(dir, 'files', PARTIAL_DIR)) : []);

  it('streams what a writer writes into one object, which appears only when finished', async () => {
    const sink = storeSink(store, 'runs/a/sheet-1.png', 'image/png');
    // each buffer is handed over (ByteSink.write): the sink keeps it, uncopied, until sent
    for (let i = 0; i < 4; i++) await sink.write(Buffer.alloc(3 << 20, i + 1));
    expect(await store.head('runs/a/sheet-1.png')).toBeNull();
    await sink.finish();
    const data = readFileSync(join(dir, 'files', 'runs', 'a', 'sheet-1.png'));
    expect(data.length).toBe(12 << 20);
    expect([data[0], data[(3 << 20) + 1], data[(6 << 20) + 1], data[(9 << 20) + 1]]).toEqual([1, 2, 3, 4]);
  });

  it('leaves nothing behind when aborted', async () => {
    const sink = storeSink(store, 'runs/b/sheet-1.png', 'image/png');
    await sink.write(Buffer.alloc(1 << 20));
    await sink.abort();
    expect(await store.head('runs/b/sheet-1.png')).toBeNull();
    expect(partials()).toEqual([]);
  });

  /** The local store, with every put held until `release(key)`: an upload still travelling. */
  function slowStore() {
    const gates = new Map<string, () => void>();
    const held = new Map<string, Promise<void>>();
    const gate = (key: string) => {
      if (!held.has(key)) held.set(key, new Promise<void>((r) => gates.set(key, r)));
      return held.get(key)!;
    };
    const slow = Object.create(store) as ObjectStore;
    slow.put = async (key, body, options) => {
      const out = await store.put(`slow/${key}`, body, options);
      await gate(key);
      if (key.includes('broken')) throw new Error('gateway said no');
      return out;
    };
    slow.delete = (key) => store.delete(`slow/${key}`);
    const exists = async (key: string) => (await store.head(`slow/${key}`)) !== null;
    return { slow, release: (key: string) => (gate(key), gates.get(key)!()), exists };
  }

  it('an upload batch lets the writer go on while at most two uploads complete, and settles when all have', async () => {
    const { slow, release, exists } = slowStore();
    const batch = new UploadBatch(slow, 2);
    const first = batch.sink('a.png', 'image/png');
    await first.write(Buffer.alloc(10, 1));
    // the first file's upload has not completed, yet the writer is free to go on
    await first.finish();
    const second = batch.sink('b.png', 'image/png');
    await second.write(Buffer.alloc(10, 2));
    let secondDone = false;
    const finishing = second.finish().then(() => (secondDone = true));
    await new Promise((r) => setTimeout(r, 50));
    // two would be in flight: the second finish waits for room
    expect(secondDone).toBe(false);
    release('a.png');
    await finishing;
    let settled = false;
    const settling = batch.settle().then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    release('b.png');
    await settling;
    expect(await exists('a.png')).toBe(true);
    expect(await exists('b.png')).toBe(true);
  });

  it('an upload batch reports a failed upload and removes what it wrote when aborted', async () => {
    const { slow, release, exists } = slowStore();
    const batch = new UploadBatch(slow, 2);
    const ok = batch.sink('c.png', 'image/png');
    await ok.write(Buffer.alloc(10));
    await ok.finish();
    release('c.png');
    const broken = batch.sink('broken.png', 'image/png');
    await broken.write(Buffer.alloc(10));
    await broken.finish();
    release('broken.png');
    await expect(batch.settle()).rejects.toThrow('gateway said no');
    // the next write of the same batch refuses at once
    await expect(batch.sink('d.png', 'image/png').write(Buffer.alloc(1))).rejects.toThrow('gateway said no');
    await batch.abort();
    expect(await exists('c.png')).toBe(false);
  });

  it('keeps local copies of objects, fetched once, within its budget (least recently used go first, held ones stay)', async () => {
    const cache = new ObjectCache(store, join(dir, 'cache'), 2 << 20);
    for (const k of ['c/1.png', 'c/2.png', 'c/3.png']) await store.put(k, Buffer.alloc(1 << 20, 7));
    const release1 = await cache.acquire(['c/1.png']);
    expect(readFileSync(cache.path('c/1.png')).length).toBe(1 << 20);
    const release2 = await cache.acquire(['c/2.png']);
    // long unused copies may go; 1 is still held
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(cache.path('c/1.png'), old, old);
    utimesSync(cache.path('c/2.png'), old, old);
    release2();
    const release3 = await cache.acquire(['c/3.png']);
    expect(existsSync(cache.path('c/1.png'))).toBe(true);
    expect(existsSync(cache.path('c/2.png'))).toBe(false);
    expect(existsSync(cache.path('c/3.png'))).toBe(true);
    release1();
    release3();
    // a copy is fetched again when asked for
    (await cache.acquire(['c/2.png']))();
    expect(existsSync(cache.path('c/2.png'))).toBe(true);
  });
});
