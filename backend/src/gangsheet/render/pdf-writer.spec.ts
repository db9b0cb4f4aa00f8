import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PDF_MAX_OFFSET, PdfWriter } from './pdf-writer';

describe('PdfWriter', () => {
  let dir: string;
  beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-pdfw-'))));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  // Writing 10 GB to prove it is not practical: the writer's position stands in for it.
  it('writes objects up to the last offset a cross-reference entry holds (ten digits), and stops past it', async () => {
    const w = await PdfWriter.create(path.join(dir, 'big.pdf'));
    const [a, b] = [w.alloc(), w.alloc()];
    const at = (w as unknown as { pos: number });
    at.pos = PDF_MAX_OFFSET;
    await w.object(a, '<< >>');
    expect(String(PDF_MAX_OFFSET)).toHaveLength(10);
    await expect(w.object(b, '<< >>')).rejects.toThrow(/9999999999 bytes, the largest offset its cross-reference table can hold/);
    await w.abort();
  });
});
