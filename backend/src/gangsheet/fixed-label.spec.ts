import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import sharp from 'sharp';
import { compareNesting, FixedPlacement, FixedPlacementError, LayoutDesign, LayoutResult, layoutSheets, Nesting } from './pack/layout';
import { checkEsicupSolution } from '../../bench/nest-check';
import { alphaMask } from './shape/design-mask';
import { EsicupInstance, EsicupSolution, nestEsicup } from './shape/esicup';

const DPI = 100;
const SHEET = { width: 12, gap: 0.25, margin: 0.25, dpi: DPI };
const GAP = Math.round(SHEET.gap * DPI);

/** A disc's ink mask (so that true-shape nesting beats rectangles and really nests). */
function discMask(side: number) {
  const alpha = new Uint8Array(side * side);
  const r = side / 2;
  for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) if ((x + 0.5 - r) ** 2 + (y + 0.5 - r) ** 2 <= r * r) alpha[y * side + x] = 255;
  return alphaMask(alpha, side, { left: 0, top: 0, width: side, height: side });
}

const DESIGNS: LayoutDesign[] = [
  { id: 'logo', widthPx: 300, heightPx: 200, width: 3, quantity: 10, label: { width: 1.5, height: 0.3, offset: 0.05 } },
  { id: 'badge', widthPx: 200, heightPx: 200, width: 2, quantity: 8 },
];
const FIXED: FixedPlacement[] = [
  { designId: 'badge', x: 5, y: 1 },
  { designId: 'logo', copy: 3, x: 1, y: 6, rotation: 90 },
];

type R = { x: number; y: number; w: number; h: number };
/** A copy's art as a rectangle, or as the disc its ink covers (centre and radius). */
type Shape = R | { cx: number; cy: number; r: number };
const rect = (p: { px: { x: number; y: number; width: number; height: number } }): R => ({ x: p.px.x, y: p.px.y, w: p.px.width, h: p.px.height });

/** Euclidean distance between two shapes (0 when they touch or overlap). */
function distance(a: Shape, b: Shape): number {
  if ('r' in a && 'r' in b) return Math.max(0, Math.hypot(a.cx - b.cx, a.cy - b.cy) - a.r - b.r);
  if ('r' in a || 'r' in b) {
    const [c, r] = ('r' in a ? [a, b] : [b, a]) as [{ cx: number; cy: number; r: number }, R];
    const dx = Math.max(0, r.x - c.cx, c.cx - (r.x + r.w));
    const dy = Math.max(0, r.y - c.cy, c.cy - (r.y + r.h));
    return Math.max(0, Math.hypot(dx, dy) - c.r);
  }
  const dx = Math.max(0, a.x - (b.x + b.w), b.x - (a.x + a.w));
  const dy = Math.max(0, a.y - (b.y + b.h), b.y - (a.y + a.h));
  return Math.hypot(dx, dy);
}

/**
 * Exact check on whole pixels: every copy's art and label space lie in the printable area,
 * and those of two different copies are at least the gap apart. The designs are solid
 * rectangles, or discs (`round`): a disc's ink covers the disc inscribed in its box, which
 * the nester keeps the gap from.
 */
function problems(layout: LayoutResult, round: (designId: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const margin = Math.round(SHEET.margin * DPI);
  for (const sheet of layout.sheets) {
    const items = sheet.placements.map((p) => {
      const box = rect(p);
      const art: Shape = round(p.designId) ? { cx: box.x + box.w / 2, cy: box.y + box.h / 2, r: box.w / 2 } : box;
      return { p, box, shapes: p.label ? [art, rect(p.label)] : [art] };
    });
    for (const { p, box, shapes } of items)
      for (const r of [box, ...shapes.slice(1)] as R[]) if (r.x < margin || r.y < margin || r.x + r.w > sheet.widthPx - margin) out.push(`${p.designId}#${p.copy} outside the printable area`);
    for (let i = 0; i < items.length; i++)
      for (let j = 0; j < i; j++)
        for (const x of items[i].shapes)
          for (const y of items[j].shapes)
            if (distance(x, y) < GAP) out.push(`${items[i].p.designId}#${items[i].p.copy} and ${items[j].p.designId}#${items[j].p.copy} closer than the gap`);
  }
  return out;
}

function fixedAsGiven(layout: LayoutResult): void {
  const fixed = layout.sheets[0].placements.filter((p) => p.fixed);
  expect(fixed.map((p) => [p.designId, p.copy, p.px.x, p.px.y, p.rotation])).toEqual([
    ['badge', 0, 500, 100, 0],
    ['logo', 3, 100, 600, 90],
  ]);
}

describe('fixed placements and label space', () => {
  it.each<Nesting>(['box', 'shape'])('lays %s copies around fixed ones, keeping every label space free, with the fixed copies unchanged', (nesting) => {
    const layout = layoutSheets(DESIGNS, { ...SHEET, nesting }, { maxEvaluations: 40, compactMoves: 50, fixed: FIXED });
    expect(layout.copies).toBe(18);
    expect(layout.sheets.flatMap((s) => s.placements)).toHaveLength(18);
    fixedAsGiven(layout);
    expect(problems(layout)).toEqual([]);
    // every copy of the labelled design reports its label space, below the art as turned
    const logos = layout.sheets[0].placements.filter((p) => p.designId === 'logo');
    for (const p of logos) {
      expect(p.label).toMatchObject({ width: p.rotated ? 0.3 : 1.5, height: p.rotated ? 1.5 : 0.3 });
      if (p.rotation === 0) expect(p.label!.px.y).toBe(p.px.y + p.px.height + 5);
    }
    expect(logos.find((p) => p.copy === 3)!.label!.px).toEqual({ x: 65, y: 675, width: 30, height: 150 });
  });

  it('nests true shapes around fixed copies and label spaces (the shape layout, not its rectangle fallback)', () => {
    const designs: LayoutDesign[] = [
      { id: 'disc', widthPx: 120, heightPx: 120, width: 2, quantity: 24, mask: discMask(120), label: { width: 1, height: 0.25 } },
      { id: 'card', widthPx: 200, heightPx: 100, width: 2, quantity: 4 },
    ];
    const fixed: FixedPlacement[] = [{ designId: 'card', x: 4, y: 2 }, { designId: 'disc', copy: 5, x: 8.5, y: 0.5 }];
    const cmp = compareNesting(designs, { ...SHEET, nesting: 'shape' }, { maxEvaluations: 30, compactMoves: 50, fixed });
    // the shape layout is not the box one: some discs' boxes come closer than the gap
    expect(cmp.shape.totalLength).toBeLessThan(cmp.box.totalLength);
    for (const layout of [cmp.shape, cmp.box]) {
      const pinned = layout.sheets[0].placements.filter((p) => p.fixed).map((p) => [p.designId, p.copy, p.px.x, p.px.y]);
      expect(pinned).toEqual([
        ['card', 0, 400, 200],
        ['disc', 5, 850, 50],
      ]);
      expect(problems(layout, (id) => id === 'disc')).toEqual([]);
    }
  });

  it('compacts the far end around fixed copies without moving them', () => {
    const designs: LayoutDesign[] = [{ id: 'disc', widthPx: 120, heightPx: 120, width: 1.5, quantity: 30, mask: discMask(120) }];
    const fixed: FixedPlacement[] = [{ designId: 'disc', x: 5.03, y: 1.27 }, { designId: 'disc', copy: 7, x: 0.25, y: 3.9 }];
    const opts = { maxEvaluations: 10, placementRules: ['far' as const], fixed };
    const searched = compareNesting(designs, { ...SHEET, nesting: 'shape' }, opts).shape;
    const compacted = compareNesting(designs, { ...SHEET, nesting: 'shape' }, { ...opts, compactMoves: 600 }).shape;
    expect(compacted.totalLength).toBeLessThan(searched.totalLength);
    for (const layout of [searched, compacted]) {
      expect(layout.sheets[0].placements.filter((p) => p.fixed).map((p) => [p.copy, p.px.x, p.px.y])).toEqual([
        [0, 503, 127],
        [7, 25, 390],
      ]);
      expect(problems(layout, () => true)).toEqual([]);
    }
  });

  it('re-nests around copies pinned where a shape layout put them, even where their boxes come closer than the gap', () => {
    const designs: LayoutDesign[] = [{ id: 'disc', widthPx: 120, heightPx: 120, width: 1.5, quantity: 24, mask: discMask(120) }];
    const settings = { ...SHEET, nesting: 'shape' as const };
    const first = compareNesting(designs, settings, { maxEvaluations: 10 }).shape;
    const ps = first.sheets[0].placements;
    // two copies whose boxes are closer than the gap: no rectangle layout can hold them there
    const pair = ps.flatMap((a, i) => ps.slice(0, i).map((b) => [a, b])).find(([a, b]) => distance(rect(a), rect(b)) < GAP)!;
    expect(pair).toBeDefined();
    const fixed = pair.map((p) => ({ designId: p.designId, copy: p.copy, x: p.x, y: p.y, rotation: p.rotation }));
    expect(() => layoutSheets(designs, { ...settings, nesting: 'box' }, { maxEvaluations: 10, fixed })).toThrow(FixedPlacementError);
    const again = compareNesting(designs, settings, { maxEvaluations: 10, compactMoves: 200, fixed });
    const pinned = again.shape.sheets[0].placements.filter((p) => p.fixed);
    const key = (p: (typeof ps)[number]) => [p.copy, p.px.x, p.px.y];
    expect(pinned.map(key).sort((a, b) => a[0] - b[0])).toEqual(pair.map(key).sort((a, b) => a[0] - b[0]));
    expect(again.shape.sheets.flatMap((s) => s.placements)).toHaveLength(24);
    expect(problems(again.shape, () => true)).toEqual([]);
    // the rectangle layout (without the pins) still gives the film figures
    expect(again.box.sheets.flatMap((s) => s.placements).some((p) => p.fixed)).toBe(false);
  });

  it('gives the same layouts as before when neither is used', () => {
    const plain = DESIGNS.map(({ label: _label, ...d }) => d);
    for (const nesting of ['box', 'shape'] as const) {
      const a = layoutSheets(plain, { ...SHEET, nesting }, { maxEvaluations: 20 });
      const b = layoutSheets(plain, { ...SHEET, nesting }, { maxEvaluations: 20, fixed: [] });
      expect(b).toEqual(a);
      expect(a.sheets[0].placements.some((p) => 'label' in p || 'fixed' in p)).toBe(false);
    }
  });

  it.each<Nesting>(['box', 'shape'])('refuses %s fixed copies that overlap, come closer than the gap, or leave the sheet', (nesting) => {
    const run = (fixed: FixedPlacement[], extra = {}) => () => layoutSheets(DESIGNS, { ...SHEET, nesting, ...extra }, { maxEvaluations: 5, fixed });
    expect(run([{ designId: 'badge', x: 1, y: 1 }, { designId: 'badge', x: 2, y: 2 }])).toThrow(/fixed copy 1 of "badge" and fixed copy 0 of "badge" overlap or are closer than the gap/);
    // side by side, 0.1 in apart where the gap is 0.25 in
    expect(run([{ designId: 'badge', x: 1, y: 1 }, { designId: 'badge', x: 3.1, y: 1 }])).toThrow(FixedPlacementError);
    expect(run([{ designId: 'badge', x: 11, y: 1 }])).toThrow(/fixed copy 0 of "badge" lies outside the printable area of sheet 0/);
    expect(run([{ designId: 'badge', x: 0.1, y: 1 }])).toThrow(/outside the printable area/);
    // the label space counts: the label below a logo at the sheet's far end would leave it
    expect(run([{ designId: 'logo', x: 1, y: 7.5 }], { maxLength: 10 })).toThrow(/outside the printable area/);
    expect(run([{ designId: 'badge', x: 1, y: 1, sheet: 1 }])).toThrow(/one sheet/);
    expect(run([{ designId: 'nope', x: 1, y: 1 }])).toThrow(/no design "nope"/);
    expect(run([{ designId: 'badge', copy: 8, x: 1, y: 1 }])).toThrow(/8 copies/);
    // 0.25 in apart exactly: allowed
    expect(run([{ designId: 'badge', x: 1, y: 1 }, { designId: 'badge', x: 3.25, y: 1 }])()).toBeDefined();
  });

  it('keeps fixed copies on later sheets and fills every sheet around them', () => {
    const fixed: FixedPlacement[] = [{ designId: 'badge', x: 5, y: 1, sheet: 1 }, { designId: 'badge', copy: 1, x: 0.25, y: 0.25, sheet: 0 }];
    const layout = layoutSheets(DESIGNS, { ...SHEET, maxLength: 6, nesting: 'box' }, { maxEvaluations: 40, fixed });
    expect(layout.sheets.length).toBeGreaterThanOrEqual(2);
    expect(layout.sheets[1].placements.find((p) => p.fixed)).toMatchObject({ designId: 'badge', copy: 0, x: 5, y: 1 });
    expect(layout.sheets[0].placements.find((p) => p.fixed)).toMatchObject({ designId: 'badge', copy: 1, x: 0.25, y: 0.25 });
    expect(layout.sheets.flatMap((s) => s.placements)).toHaveLength(18);
    for (const s of layout.sheets) expect(s.lengthPx).toBeLessThanOrEqual(600);
    expect(problems(layout)).toEqual([]);
  });
});

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
      expect(problems(layout)).toEqual([]);
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
