import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import sharp from 'sharp';
import { checkEsicupSolution } from '../../bench/nest-check';
import { descendants } from '../../bench/proc-memory';
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

describe('the launcher (bin/gangsheet.js, what `npm run gangsheet` runs)', () => {
  const LAUNCHER = path.resolve(__dirname, '../../bin/gangsheet.js');
  const { compiledIsCurrent } = require(LAUNCHER) as { compiledIsCurrent(src: string, dist: string): boolean };

  it('runs the compiled engine only while every source file has a compiled file at least as new', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-launch-'));
    try {
      const at = (file: string, seconds: number) => {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        fs.writeFileSync(path.join(root, file), '');
        fs.utimesSync(path.join(root, file), seconds, seconds);
      };
      at('src/a.ts', 1000);
      at('src/sub/b.ts', 1000);
      at('dist/a.js', 2000);
      at('dist/sub/b.js', 2000);
      const current = () => compiledIsCurrent(path.join(root, 'src'), path.join(root, 'dist'));
      expect(current()).toBe(true);
      // specs are not built, so a newer spec does not make the build stale
      at('src/sub/b.spec.ts', 3000);
      expect(current()).toBe(true);
      // a source changed after the build
      at('src/sub/b.ts', 2500);
      expect(current()).toBe(false);
      at('dist/sub/b.js', 2500);
      expect(current()).toBe(true);
      // a source the build has not seen (or a build that stopped half-way)
      at('src/c.ts', 1000);
      expect(current()).toBe(false);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('runs the command in a child process started with the CPU workers\' environment (two malloc arenas)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-launch-'));
    try {
      fs.writeFileSync(path.join(dir, 'pieces.txt'), '2\n10\n4 3\n5 2\n');
      const env: NodeJS.ProcessEnv = { ...process.env, INIT_CWD: dir };
      delete env.MALLOC_ARENA_MAX;
      const child = spawn(process.execPath, [LAUNCHER, 'pack', 'pieces.txt'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (b: Buffer) => (out += b));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      let running = true;
      void exited.then(() => (running = false));
      // what the command's process was started with, read while it runs
      const seen = new Set<string>();
      while (running) {
        for (const pid of descendants(child.pid!)) {
          try {
            // between fork and exec a child still shows the launcher's own command and environment
            if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(LAUNCHER)) continue;
            const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
            // a process that exited and awaits its parent (a zombie) shows no environment at all
            if (!environ) continue;
            const vars = environ.split('\0');
            seen.add(vars.find((v) => v.startsWith('MALLOC_ARENA_MAX=')) ?? 'unset');
          } catch {
            // gone meanwhile
          }
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(await exited).toBe(0);
      expect(JSON.parse(out).sheets).toHaveLength(1);
      expect([...seen]).toEqual(['MALLOC_ARENA_MAX=2']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
