import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import sharp from 'sharp';
import { checkEsicupSolution, clearanceProblems } from '../../bench/nest-check';
import { LayoutResult } from './pack/layout';
import { EsicupInstance, EsicupSolution, nestEsicup } from './shape/esicup';

describe('gangsheet build with fixed placements and labels (the CLI)', () => {
  it('writes layout.json with the fixed copy where it was given and every label space', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gangsheet-fixed-'));
    try {
      await sharp({ create: { width: 300, height: 200, channels: 4, background: { r: 200, g: 30, b: 30, alpha: 1 } } }).png().toFile(path.join(dir, 'logo.png'));
      const job = {
        sheet: { width: 12, gap: 0.25, margin: 0.25, dpi: 100 },
        designs: [{ id: 'logo', file: 'logo.png', width: 3, quantity: 6, label: { width: 1.5, height: 0.3 } }],
        fixed: [{ designId: 'logo', copy: 2, x: 6, y: 3, rotation: 90 }],
      };
      fs.writeFileSync(path.join(dir, 'job.json'), JSON.stringify(job));
      const launcher = path.resolve(__dirname, '../../bin/gangsheet.js');
      execFileSync(process.execPath, [launcher, 'build', path.join(dir, 'job.json'), '--out', path.join(dir, 'out'), '--time-limit-ms', '500'], { stdio: 'pipe' });
      const layout = JSON.parse(fs.readFileSync(path.join(dir, 'out', 'layout.json'), 'utf8')) as LayoutResult;
      const placements = layout.sheets.flatMap((s) => s.placements);
      expect(placements).toHaveLength(6);
      expect(placements.find((p) => p.fixed)).toMatchObject({ designId: 'logo', copy: 2, x: 6, y: 3, rotation: 90 });
      expect(placements.every((p) => p.label && p.label.px.width * p.label.px.height === 150 * 30)).toBe(true);
      expect(clearanceProblems(layout)).toEqual([]);
      // a fixed copy off the sheet: the command fails and says why
      fs.writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ ...job, fixed: [{ designId: 'logo', x: 11, y: 3 }] }));
      let stderr = '';
      try {
        execFileSync(process.execPath, [launcher, 'build', path.join(dir, 'bad.json'), '--out', path.join(dir, 'bad')], { stdio: 'pipe' });
      } catch (e) {
        stderr = String((e as { stderr: Buffer }).stderr);
      }
      expect(stderr).toMatch(/fixed copy 0 of "logo" lies outside the printable area of sheet 0/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('gangsheet nest with fixed placements (ESICUP instances, the CLI)', () => {
  const square = { type: 'simple_polygon', data: [[0, 0], [3, 0], [3, 3], [0, 3], [0, 0]] as [number, number][] };
  const triangle = { type: 'simple_polygon', data: [[0, 0], [4, 0], [0, 3], [0, 0]] as [number, number][] };
  const inst: EsicupInstance = {
    strip_height: 10,
    items: [
      { id: 0, demand: 5, allowed_orientations: [0, 90], shape: square },
      { id: 1, demand: 6, allowed_orientations: [0, 90, 180, 270], shape: triangle },
    ],
    fixed: [
      { item: 0, x: 4.3, y: 2.7, rotation: 0 },
      { item: 1, x: 3.5, y: 5.5, rotation: 90 },
    ],
  };

  it('nests around the fixed polygons, which stay where they were given (exact polygon check)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gangsheet-nest-fixed-'));
    try {
      fs.writeFileSync(path.join(dir, 'inst.json'), JSON.stringify(inst));
      const launcher = path.resolve(__dirname, '../../bin/gangsheet.js');
      const out = execFileSync(process.execPath, [launcher, 'nest', path.join(dir, 'inst.json'), '--time-limit-ms', '1500', '--threads', '1'], { encoding: 'utf8' });
      const sol = JSON.parse(out) as EsicupSolution;
      expect(sol.placements).toHaveLength(11);
      expect(sol.placements).toEqual(expect.arrayContaining(inst.fixed!));
      const check = checkEsicupSolution(inst, sol);
      expect(check.errors).toEqual([]);
      // the others are nested around them, not below them: the strip is shorter than the
      // fixed square's far end plus the other copies' own area bound
      expect(sol.length).toBeLessThan(4.3 + 3 + (4 * 9 + 5 * 6) / 10);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses fixed polygons outside the strip, overlapping, or beyond the demand', () => {
    const run = (fixed: EsicupInstance['fixed']) => () => nestEsicup({ ...inst, fixed }, { timeLimitMs: 200, maxEvaluations: 3 });
    expect(run([{ item: 0, x: 1, y: 8, rotation: 0 }])).toThrow(/fixed placement 0 \(item 0\) lies outside the strip/);
    expect(run([{ item: 0, x: 1, y: 1, rotation: 0 }, { item: 0, x: 2, y: 2, rotation: 0 }])).toThrow(/fixed placements 0 and 1 overlap/);
    expect(run(Array.from({ length: 6 }, (_, k) => ({ item: 0, x: 4 * k, y: 0, rotation: 0 })))).toThrow(/more fixed copies of item 0 than its demand/);
    expect(run([{ item: 0, x: 1, y: 1, rotation: 45 }])).toThrow(/may not be turned by 45/);
  });
});
