import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalObjectStore, PARTIAL_DIR } from './local-object-store';
import { ObjectCache } from './object-cache';
import { storeSink } from './store-sink';

describe('storeSink and ObjectCache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gs-sink-'));
  const store = new LocalObjectStore(join(dir, 'files'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const partials = () => (existsSync(join(dir, 'files', PARTIAL_DIR)) ? readdirSync(join(dir, 'files', PARTIAL_DIR)) : []);

  it('streams what a writer writes into one object, which appears only when finished', async () => {
    const sink = storeSink(store, 'runs/a/sheet-1.png', 'image/png');
    const buf = Buffer.alloc(3 << 20, 1);
    for (let i = 0; i < 4; i++) {
      await sink.write(buf);
      // the writer reuses its buffer: the sink has copied what it took
      buf.fill(i + 2);
    }
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
