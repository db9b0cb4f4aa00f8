import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import sharp from 'sharp';
import { checkEsicupSolution } from '../../bench/nest-check';
import { artworkPng, makeArtwork } from '../../bench/artwork';
import { buildJob } from '../gangsheet/build';
import { Rng } from '../gangsheet/pack/rng';
import { parseEsicup } from '../gangsheet/shape/esicup';
import { runNest } from './gangsheet';

const JAKOBS = path.resolve(__dirname, '../../../../shared/bench-data/irregular/jakobs1.json');

describe('gangsheet nest', () => {
  it('prints {length, placements} that pass the polygon check (a search on each of two threads)', async () => {
    const out = JSON.parse(await runNest(JAKOBS, new Map([['time-limit-ms', '1500'], ['threads', '2']])));
    expect(Object.keys(out).sort()).toEqual(['length', 'placements']);
    expect(Object.keys(out.placements[0]).sort()).toEqual(['item', 'rotation', 'x', 'y']);
    const inst = parseEsicup(fs.readFileSync(JAKOBS, 'utf8'));
    expect(checkEsicupSolution(inst, out).errors).toEqual([]);
  });

  it('rejects unknown options and files that are not ESICUP instances', async () => {
    await expect(runNest(JAKOBS, new Map([['width', '3']]))).rejects.toThrow(/unknown option --width/);
    const bad = path.join(os.tmpdir(), `not-esicup-${process.pid}.json`);
    fs.writeFileSync(bad, JSON.stringify({ items: [] }));
    try {
      await expect(runNest(bad, new Map())).rejects.toThrow(/not an ESICUP instance/);
    } finally {
      fs.rmSync(bad);
    }
  });
});

describe('gangsheet build with "nesting": "shape"', () => {
  it('nests by the ink and reports the film saved against rectangles', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-build-'));
    try {
      const rng = new Rng(3);
      fs.writeFileSync(path.join(dir, 'heart.png'), await artworkPng(makeArtwork('heart', rng, 200)));
      fs.writeFileSync(path.join(dir, 'star.png'), await artworkPng(makeArtwork('star', rng, 200)));
      const job = {
        sheet: { width: 6, gap: 0.2, margin: 0.1, dpi: 50, nesting: 'shape' },
        designs: [
          { file: 'heart.png', width: 1.5, quantity: 8 },
          { file: 'star.png', width: 1.5, quantity: 8 },
        ],
      };
      fs.writeFileSync(path.join(dir, 'job.json'), JSON.stringify(job));
      const report = await buildJob(path.join(dir, 'job.json'), path.join(dir, 'out'), { timeLimitMs: 1500 });
      expect(report.nesting).toBe('shape');
      expect(report.totalLength).toBeCloseTo(report.sheets.reduce((a, s) => a + s.length, 0), 9);
      expect(report.boxTotalLength).toBeGreaterThan(report.totalLength);
      expect(report.savedLength).toBeCloseTo(report.boxTotalLength! - report.totalLength, 3);
      const onDisk = JSON.parse(fs.readFileSync(path.join(dir, 'out', 'report.json'), 'utf8'));
      expect(onDisk.totalLength).toBe(report.totalLength);
      const meta = await sharp(path.join(dir, 'out', 'sheet-1.png')).metadata();
      expect(meta).toMatchObject({ format: 'png', channels: 4, width: 300, density: 50 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
