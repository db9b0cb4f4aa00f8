import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { discardSpooled, SpooledFile, SpoolStorage } from './upload-storage';

describe('SpoolStorage', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'gs-spool-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const store = (storage: SpoolStorage, chunks: string[]) =>
    new Promise<Partial<SpooledFile>>((resolve, reject) => {
      const file = { fieldname: 'files', originalname: 'a.png', stream: Readable.from(chunks.map((c) => Buffer.from(c))) } as unknown as Express.Multer.File;
      // multer hands it the raw Node request; the engine does not read it.
      storage._handleFile({} as never, file, (err, info) => (err ? reject(err) : resolve(info!)));
    });

  it('spools a file to disk and reports its path and size', async () => {
    const info = await store(new SpoolStorage(dir, 10), ['hello', ' you']);
    expect(info).toEqual({ path: expect.stringContaining(dir), size: 9 });
    expect(readFileSync(info.path!, 'utf8')).toBe('hello you');
    await discardSpooled([info as SpooledFile]);
    expect(existsSync(info.path!)).toBe(false);
  });

  it('marks a file over the limit as too large, keeping nothing of it, without failing the batch', async () => {
    const info = await store(new SpoolStorage(dir, 4), ['hello', ' you']);
    expect(info).toEqual({ size: 9, tooLarge: true });
  });

  it('_removeFile removes a spooled file and ignores one without a path', async () => {
    const storage = new SpoolStorage(dir, 10);
    const info = await store(storage, ['x']);
    await new Promise((r) => storage._removeFile({} as never, info as Express.Multer.File, r));
    expect(existsSync(info.path!)).toBe(false);
    await new Promise((r) => storage._removeFile({} as never, { size: 3, tooLarge: true } as unknown as Express.Multer.File, r));
  });
});
