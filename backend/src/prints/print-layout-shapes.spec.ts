/**
 * The layout editor checks the gap by ink in the browser (frontend …/layout-editor/shapeCheck.ts,
 * a port of the engine's fixed-copy check). Its vitest runs it on the cases stored in
 * shape-cases.json and expects the server's verdicts recorded there; this spec keeps that file
 * true: it asks checkLayout (the server's check) about every case again and compares.
 * UPDATE_SHAPE_CASES=1 rewrites the file (after a change to the engine's check).
 */
import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { alphaMask } from '../gangsheet';
import type { EngineDesign } from './engine.adapter';
import { checkLayout, LayoutCopy, LayoutSettings, Rotation } from './print-layout';
import { layoutShapes } from './print-layout-shapes';

const FILE = join(__dirname, '../../../frontend/src/components/prints/layout-editor/shape-cases.json');

function maskOf(w: number, h: number, ink: (x: number, y: number) => boolean) {
  const alpha = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (ink(x + 0.5, y + 0.5)) alpha[y * w + x] = 255;
  return alphaMask(alpha, w, { left: 0, top: 0, width: w, height: h });
}

function design(id: string, w: number, h: number, width: number, ink: (x: number, y: number) => boolean, label?: EngineDesign['label']): EngineDesign {
  return { id, file: `${id}.png`, widthPx: w, heightPx: h, trim: { left: 0, top: 0, width: w, height: h }, width, quantity: 2, vector: false, mask: maskOf(w, h, ink), label };
}

const DESIGNS: EngineDesign[] = [
  design('disc', 200, 200, 2, (x, y) => Math.hypot(x - 100, y - 100) <= 100),
  // a right triangle, enlarged when printed (the renderer's reach is wider)
  design('tri', 120, 80, 1.5, (x, y) => y >= (x * 80) / 120),
  // a crescent with an order label's space below it
  design('moon', 160, 160, 1.6, (x, y) => Math.hypot(x - 80, y - 80) <= 80 && Math.hypot(x - 120, y - 70) > 60, { width: 1, height: 0.12, offset: 0.04 }),
];

const SETTINGS: LayoutSettings[] = [
  { width: 10, maxLength: 20, gap: 0.25, margin: 0.25, dpi: 100, rotate: true, nesting: 'shape', orderLabels: null },
  { width: 10, maxLength: 20, gap: 0.125, margin: 0.2, dpi: 150, rotate: true, nesting: 'shape', orderLabels: null },
];

interface Case {
  settings: number;
  copies: { key: string; itemId: string; x: number; y: number; rotation: Rotation }[];
  tooClose: boolean;
}

/** Pairs of copies near each other, seeded: two designs (or one design twice), turns, offsets around the touching distance. */
function cases(): Omit<Case, 'tooClose'>[] {
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const out: Omit<Case, 'tooClose'>[] = [];
  for (let si = 0; si < SETTINGS.length; si++) {
    const s = SETTINGS[si];
    for (let n = 0; n < 60; n++) {
      const a = DESIGNS[Math.floor(rnd() * DESIGNS.length)];
      const b = DESIGNS[Math.floor(rnd() * DESIGNS.length)];
      const rot = () => ([0, 90, 180, 270] as Rotation[])[Math.floor(rnd() * 4)];
      const snap = (v: number) => Math.round(v * s.dpi) / s.dpi;
      // b's top-left somewhere around a: mostly where the boxes come within the gap
      const angle = rnd() * 2 * Math.PI;
      const dist = 0.6 + rnd() * 1.8;
      out.push({
        settings: si,
        copies: [
          { key: `${a.id}#0`, itemId: a.id, x: snap(3 + rnd() * 0.05), y: snap(3 + rnd() * 0.05), rotation: rot() },
          { key: `${b.id}#${a.id === b.id ? 1 : 0}`, itemId: b.id, x: snap(3 + Math.cos(angle) * dist), y: snap(3 + Math.sin(angle) * dist), rotation: rot() },
        ],
      });
    }
  }
  return out;
}

function verdict(c: Omit<Case, 'tooClose'>): boolean {
  const ids = new Set(c.copies.map((v) => v.itemId));
  const designs = DESIGNS.filter((d) => ids.has(d.id)).map((d) => ({ ...d, quantity: c.copies.filter((v) => v.itemId === d.id).length }));
  const copies: LayoutCopy[] = c.copies.map((v) => ({ itemId: v.itemId, copy: Number(v.key.split('#')[1]), sheet: 0, x: v.x, y: v.y, rotation: v.rotation, pinned: false }));
  const problems = checkLayout(designs, SETTINGS[c.settings], copies);
  const other = problems.filter((p) => p.code !== 'too_close');
  if (other.length) throw new Error(`case has other problems: ${JSON.stringify(other)}`);
  return problems.length > 0;
}

describe('the editor’s local gap check: the server’s verdicts it is tested against', () => {
  it('shape-cases.json holds what checkLayout decides now', () => {
    const fresh = {
      shapes: SETTINGS.map((s) => layoutShapes(DESIGNS, s)),
      cases: cases().map((c) => ({ ...c, tooClose: verdict(c) })),
    };
    if (process.env.UPDATE_SHAPE_CASES) writeFileSync(FILE, JSON.stringify(fresh) + '\n');
    const stored = JSON.parse(readFileSync(FILE, 'utf8'));
    expect(stored).toEqual(JSON.parse(JSON.stringify(fresh)));
    // both answers occur, or the cases test little
    const close = fresh.cases.filter((c) => c.tooClose).length;
    expect(close).toBeGreaterThan(20);
    expect(fresh.cases.length - close).toBeGreaterThan(20);
  }, 120_000);
});
