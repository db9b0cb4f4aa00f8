import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { packingListPdf, positions, winAnsi } from './packing-list';

const sheets = [
  {
    n: 1,
    width: 22,
    length: 10,
    placements: [
      { itemId: 'a', copy: 1, x: 5, y: 0.5, width: 3, height: 2 },
      { itemId: 'a', copy: 0, x: 0.5, y: 0.5, width: 3, height: 2 },
      { itemId: 'b', copy: 0, x: 0.5, y: 4, width: 4, height: 4 },
    ],
  },
  { n: 2, width: 22, length: 5, placements: [{ itemId: 'a', copy: 2, x: 0.5, y: 0.5, width: 3, height: 2 }] },
];

describe('packing list', () => {
  it('numbers positions per sheet in reading order and lists each item\'s copies in label order', () => {
    const { number, listed } = positions(sheets);
    expect(number.get('a#0')).toEqual({ sheet: 1, pos: 1 });
    expect(number.get('a#1')).toEqual({ sheet: 1, pos: 2 });
    expect(number.get('b#0')).toEqual({ sheet: 1, pos: 3 });
    expect(listed.get('a')).toBe('S1: 1, 2; S2: 1');
    expect(listed.get('b')).toBe('S1: 3');
  });

  it('writes sheet maps and the order table as text a PDF reader extracts', async () => {
    const pdf = await packingListPdf({
      title: 'Print ABCD1234',
      sheets,
      orders: [
        { number: '5012', buyer: 'Zoë Łukasz', country: 'AT', items: [{ itemId: 'a', title: 'Cat shirt (front)', size: 'Adult (10 in)', copies: 3 }] },
        { number: '5013', buyer: 'Lena Maier', country: 'DE', items: [{ itemId: 'b', title: 'Logo', size: 'Pocket (4 in)', copies: 1 }] },
      ],
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'packing-'));
    try {
      fs.writeFileSync(path.join(dir, 'p.pdf'), pdf);
      const text = execFileSync('pdftotext', ['-layout', path.join(dir, 'p.pdf'), '-']).toString('utf8');
      expect(execFileSync('pdfinfo', [path.join(dir, 'p.pdf')]).toString()).toMatch(/Pages:\s+3/);
      for (const t of ['Sheet 1 of 2', 'Sheet 2 of 2', '#5012', 'Zoë Lukasz', 'AT', 'Cat shirt (front)', 'Adult (10 in)', 'S1: 1, 2; S2: 1', '#5013', 'S1: 3']) expect(text).toContain(t);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps Latin-1 characters and replaces the rest', () => {
    expect(winAnsi('Zoë Łukasz 東')).toBe('Zoë Lukasz ?');
  });
});
