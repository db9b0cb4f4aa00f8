import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import sharp from 'sharp';
import { artworkPng, makeArtwork, Kind } from '../../../bench/artwork';
import { checkRenderedPixels, clipToMask, PixelCheckCopy } from '../../../bench/nest-check';
import { maxPremultipliedDiff, popplerRgba, rawRgba } from '../../../test/utils/raster';
import { Rng } from '../pack/rng';
import { compareNesting, layoutSheets, LayoutResult } from '../pack/layout';
import { renderSheets } from '../render/render-sheet';
import { alphaBoundingBox, inspectDesign, DesignInfo } from '../trim';
import { getCell } from './cells';
import * as engineWorker from './engine-worker';
import { alphaMask, INK_ALPHA_THRESHOLD } from './design-mask';
import { longestFreeRun } from './grid';
import { boundedCell, grownMask, MASK_MEMORY_BYTES, nestShapes } from './shape-layout';

describe('footprint grown by the gap', () => {
  it('marks exactly the cells that overlap a footprint rectangle or come closer than the gap to one', () => {
    const rng = new Rng(3);
    for (let trial = 0; trial < 300; trial++) {
      const cell = 1 + rng.int(7);
      const W = 5 + rng.int(60);
      const H = 5 + rng.int(60);
      const gap = [0, 0.5, 1, 2.5, 4, 6.25, 12.5][rng.int(7)] * cell * (0.5 + rng.next());
      const rects: [number, number, number, number][] = Array.from({ length: 1 + rng.int(4) }, () => {
        const x0 = rng.next() * W;
        const y0 = rng.next() * H;
        return [x0, y0, Math.min(W, x0 + rng.next() * W), Math.min(H, y0 + 0.1 + rng.next() * H)];
      });
      const { mask, pad } = grownMask(rects, W, H, cell, gap);
      // the whole neighbourhood, also beyond the mask (nothing may be too close there)
      for (let cy = -2; cy < mask.h + 2; cy++)
        for (let cx = -2; cx < mask.w + 2; cx++) {
          const px0 = (cx - pad) * cell;
          const py0 = (cy - pad) * cell;
          const close = rects.some(([x0, y0, x1, y1]) => {
            if (x1 <= x0 || y1 <= y0) return false;
            const dx = Math.max(0, x0 - (px0 + cell), px0 - x1);
            const dy = Math.max(0, y0 - (py0 + cell), py0 - y1);
            const overlaps = px0 < x1 && px0 + cell > x0 && py0 < y1 && py0 + cell > y0;
            return overlaps || Math.hypot(dx, dy) < gap;
          });
          expect([trial, cx, cy, getCell(mask, cx, cy)]).toEqual([trial, cx, cy, close]);
        }
    }
  });
});

describe('longest free run of a grid row', () => {
  it('matches a cell-by-cell count on random rows (the collision screen may only skip rows that cannot fit)', () => {
    const rng = new Rng(7);
    for (let trial = 0; trial < 2000; trial++) {
      const n = 1 + rng.int(5);
      const row = new Uint32Array(n + 2);
      // mixes of empty, full and random words, with runs that cross word borders
      for (let k = 0; k < n + 2; k++) {
        const kind = rng.int(4);
        row[k] = kind === 0 ? 0 : kind === 1 ? 0xffffffff : ((rng.next() * 0x100000000) >>> 0) & ((rng.next() * 0x100000000) >>> 0);
      }
      let best = 0;
      for (let x = 0, cur = 0; x < n * 32; x++) {
        cur = (row[1 + (x >>> 5)] >>> (x & 31)) & 1 ? 0 : cur + 1;
        best = Math.max(best, cur);
      }
      expect(longestFreeRun(row, 1, n)).toBe(best);
    }
  });
});

describe('mask memory bound', () => {
  it('keeps the requested cell for ordinary designs and coarsens it for many huge ones', () => {
    const ordinary = Array.from({ length: 12 }, () => ({ w: 1800, h: 1500, sourceWidth: 1800 }));
    expect(boundedCell(ordinary, 6, 4)).toBe(6);
    const huge = Array.from({ length: 12 }, () => ({ w: 6000, h: 6000, sourceWidth: 6000 }));
    const cell = boundedCell(huge, 6, 4);
    expect(cell).toBeGreaterThan(6);
    const bytes = (c: number) => 12 * 4 * Math.ceil(6000 / c) * (Math.ceil(Math.ceil(6000 / c) / 32) + 1) * 128;
    expect(bytes(cell)).toBeLessThanOrEqual(MASK_MEMORY_BYTES);
    expect(bytes(6)).toBeGreaterThan(MASK_MEMORY_BYTES);
  });
});

describe('identical copies', () => {
  /** A disc of 592 px art printed `px` pixels wide, with its ink mask. */
  async function disc(px: number) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600"><circle cx="300" cy="300" r="296" fill="red"/></svg>`;
    const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().extractChannel(3).raw().toBuffer({ resolveWithObject: true });
    const trim = alphaBoundingBox(data, info.width, info.height)!;
    return { w: px, h: px, sourceWidth: trim.width, mask: alphaMask(data, info.width, trim) };
  }
  /** Copies per row (same y), rows in sheet order. */
  const rowCounts = (placements: readonly { y: number }[]) => {
    const rows = new Map<number, number>();
    for (const p of placements) rows.set(p.y, (rows.get(p.y) ?? 0) + 1);
    return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, n]) => n);
  };

  it('keep interlocked rows to the wall: 30 discs of 3 in take under 15 in (the bottom-left rule alone: 16.6 in)', async () => {
    const { sheets } = nestShapes(
      [await disc(900)],
      Array(30).fill(0),
      { width: 6600, gap: 75, margin: 0, maxLength: Infinity, rotate: true, cellPx: 6 },
      { timeLimitMs: 60_000, maxEvaluations: 9 },
    );
    expect(sheets).toHaveLength(1);
    // hexagonal rows at a 3.25 in pitch and the gap: 4 row steps of about 2.94 in plus a disc
    expect(sheets[0].length / 300).toBeLessThan(15);
    // the centre rule gets the same length with copies dropped against the wall; the
    // lattice's rows win the tie
    expect(rowCounts(sheets[0].placements)).toEqual([6, 6, 6, 6, 6]);
  });

  it('keep their lattice when a turned copy would find a lower spot at the wall: 50 discs of 4 in lie in rows of 5 and 4', async () => {
    const {
      sheets: [sheet],
    } = nestShapes(
      [await disc(1200)],
      Array(50).fill(0),
      { width: 6600, gap: 75, margin: 0, maxLength: Infinity, rotate: true, cellPx: 6 },
      { timeLimitMs: 60_000, maxEvaluations: 1, rules: ['lattice'] },
    );
    // the turned masks differ by a cell here and there; a turned copy against the wall used
    // to start rows of 1 (5, 4, 1, 4, 1, 3, ...)
    expect(rowCounts(sheet.placements)).toEqual([5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5]);
  });
});

describe('true-shape gang sheets (checked on rendered pixels)', () => {
  let root: string;
  let out: string;
  const infos = new Map<string, DesignInfo>();
  const files = new Map<string, string>();

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-shape-'));
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-shape-out-'));
    const rng = new Rng(5);
    const kinds: Kind[] = ['ring', 'star', 'heart', 'crescent', 'arrow', 'text', 'photo', 'badge'];
    for (const k of kinds) {
      const file = `${k}.png`;
      fs.writeFileSync(path.join(root, file), await artworkPng(makeArtwork(k, rng, 240)));
      files.set(k, file);
      infos.set(k, await inspectDesign(file, { root }));
    }
  });
  afterAll(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(out, { recursive: true, force: true });
  });

  const design = (k: Kind, width: number, quantity: number) => {
    const i = infos.get(k)!;
    return { id: k, widthPx: i.trim.width, heightPx: i.trim.height, width, quantity, mask: i.mask };
  };

  /**
   * Renders the layout and checks the gap and margin on its pixels; with `pdf`, also renders
   * each sheet as a PDF and checks that poppler draws the same pixels (the PDF's images are
   * cleared beyond the ink reach too).
   */
  async function renderAndCheck(layout: LayoutResult, tag: string, opts: { pdf?: boolean } = {}): Promise<string[]> {
    const rendered = await renderSheets({
      sheets: layout.sheets,
      designs: [...infos].map(([k, i]) => ({ id: k, path: files.get(k)!, ...i })),
      dpi: layout.settings.dpi,
      root,
      output: (n) => ({ png: path.join(out, `${tag}-${n}.png`), ...(opts.pdf ? { pdf: path.join(out, `${tag}-${n}.pdf`) } : {}) }),
    });
    const problems: string[] = [];
    if (opts.pdf)
      for (const [n, r] of rendered.entries()) {
        const png = await rawRgba(r.path);
        const pdf = await popplerRgba(path.join(out, `${tag}-${n}.pdf`), layout.settings.dpi);
        if (pdf.width !== png.width || pdf.height !== png.height) {
          problems.push(`sheet ${n}: PDF ${pdf.width} x ${pdf.height} px, PNG ${png.width} x ${png.height} px`);
          continue;
        }
        const diff = maxPremultipliedDiff(png.data, pdf.data);
        if (diff > 1) problems.push(`sheet ${n}: the PDF differs from the PNG by ${diff} levels`);
      }
    for (const [n, sheet] of layout.sheets.entries()) {
      const { data, info } = await sharp(rendered[n].path).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const copies: PixelCheckCopy[] = [];
      for (const p of sheet.placements) {
        const src = infos.get(p.designId)!;
        const [w, h] = p.rotated ? [p.px.height, p.px.width] : [p.px.width, p.px.height];
        // resampled and turned by sharp itself, not by the engine's raster cache, and cleared
        // beyond reach of the mask's ink cells, as the renderer promises (inkClip)
        const upright = await sharp(path.join(root, files.get(p.designId)!))
          .extract({ left: src.trim.left, top: src.trim.top, width: src.trim.width, height: src.trim.height })
          .resize(w, h, { fit: 'fill', kernel: 'lanczos3' })
          .ensureAlpha()
          .raw()
          .toBuffer();
        clipToMask(upright, src.mask!, w, h, src.trim.width);
        const rgba = await sharp(upright, { raw: { width: w, height: h, channels: 4 } }).rotate(p.rotation ?? 0).raw().toBuffer();
        copies.push({ rgba, x: p.px.x, y: p.px.y, w: p.px.width, h: p.px.height });
      }
      const dpi = layout.settings.dpi;
      problems.push(
        ...checkRenderedPixels({ data, width: info.width, height: info.height }, copies, layout.settings.gap * dpi, layout.settings.margin * dpi, INK_ALPHA_THRESHOLD).map(
          (e) => `sheet ${n}: ${e}`,
        ),
      );
    }
    return problems;
  }

  it('nests by the ink: gap and margin hold on the rendered pixels, all four turns used, film saved', async () => {
    const designs = [design('ring', 2, 6), design('star', 1.5, 8), design('heart', 1.5, 8), design('crescent', 1.5, 8), design('arrow', 2, 4), design('text', 2.5, 3)];
    const settings = { width: 8, gap: 0.25, margin: 0.2, dpi: 50, nesting: 'shape' as const };
    const cmp = compareNesting(designs, settings, { timeLimitMs: 60_000, maxEvaluations: 30, cellInches: 0.02 });
    const layout = cmp.shape;
    expect(layout.copies).toBe(37);
    expect(layout.sheets.flatMap((s) => s.placements)).toHaveLength(37);
    const turns = new Set(layout.sheets.flatMap((s) => s.placements.map((p) => p.rotation)));
    expect(turns.size).toBeGreaterThanOrEqual(3);
    // copies' boxes overlap (only their ink keeps apart), and the result is shorter than rectangles
    expect(cmp.savedLength).toBeGreaterThan(0);
    expect(cmp.shape.totalLength).toBeLessThan(cmp.box.totalLength);
    expect(await renderAndCheck(layout, 'main')).toEqual([]);
  });

  it('compacts the far end by overlap minimisation: shorter, and gap and margin still hold on the rendered pixels', async () => {
    const designs = [design('ring', 2, 6), design('star', 1.5, 8), design('heart', 1.5, 8), design('crescent', 1.5, 8), design('arrow', 2, 4), design('text', 2.5, 3)];
    const settings = { width: 8, gap: 0.25, margin: 0.2, dpi: 50, nesting: 'shape' as const };
    const searched = layoutSheets(designs, settings, { timeLimitMs: 60_000, maxEvaluations: 5, cellInches: 0.02 });
    const compacted = layoutSheets(designs, settings, { timeLimitMs: 60_000, maxEvaluations: 5, cellInches: 0.02, compactMoves: 4000 });
    expect(compacted.sheets.flatMap((s) => s.placements)).toHaveLength(37);
    // deterministic (counted evaluations and moves): 16.08 -> 15.64 in
    expect(compacted.totalLength).toBeLessThan(searched.totalLength - 0.2);
    expect(await renderAndCheck(compacted, 'compacted')).toEqual([]);
  });

  it('races a helper thread on the compaction (timed, 6 s: budgets under 3 s lay out alone): every copy placed, gap and margin hold on the rendered pixels, on one sheet and on several', async () => {
    const designs = [design('ring', 2, 6), design('star', 1.5, 8), design('heart', 1.5, 8), design('crescent', 1.5, 8), design('arrow', 2, 4), design('text', 2.5, 3)];
    const settings = { width: 8, gap: 0.25, margin: 0.2, dpi: 50, nesting: 'shape' as const };
    const started = jest.spyOn(engineWorker, 'startEngineWorker');
    // a preview-sized budget lays out alone
    layoutSheets(designs, settings, { timeLimitMs: 1000, cellInches: 0.02, threads: 2 });
    expect(started).not.toHaveBeenCalled();
    const t0 = performance.now();
    // the budget counts from the call, masks included: 6 s leaves the compaction ≥ 3 s on a loaded machine
    const raced = layoutSheets(designs, settings, { timeLimitMs: 6000, cellInches: 0.02, threads: 2 });
    // one helper thread, and it stops with the caller: the layout keeps its budget
    expect(started.mock.calls.map((c) => c[1])).toEqual(['raceHelper']);
    started.mockRestore();
    expect(performance.now() - t0).toBeLessThan(9000);
    expect(raced.sheets).toHaveLength(1);
    expect(raced.sheets[0].placements).toHaveLength(37);
    expect(await renderAndCheck(raced, 'raced')).toEqual([]);
    // with a maximum length the helper only compacts the last sheet, which holds part of the copies
    const multi = layoutSheets(designs, { ...settings, maxLength: 6 }, { timeLimitMs: 4500, cellInches: 0.02, threads: 2 });
    expect(multi.sheets.length).toBeGreaterThan(1);
    expect(multi.sheets.flatMap((s) => s.placements)).toHaveLength(37);
    for (const s of multi.sheets) expect(s.length).toBeLessThanOrEqual(6);
    expect(await renderAndCheck(multi, 'raced-multi')).toEqual([]);
  });

  it('splits across sheets at the maximum length and keeps every rule on each sheet', async () => {
    const designs = [design('heart', 1.5, 10), design('badge', 1.5, 6), design('crescent', 1.25, 10)];
    const layout = layoutSheets(designs, { width: 6, gap: 0.2, margin: 0.1, dpi: 40, maxLength: 5, nesting: 'shape' }, { timeLimitMs: 60_000, maxEvaluations: 6 });
    expect(layout.sheets.length).toBeGreaterThan(1);
    for (const s of layout.sheets) expect(s.lengthPx).toBeLessThanOrEqual(200);
    expect(await renderAndCheck(layout, 'multi')).toEqual([]);
  });

  it('the fill rule mixes designs across the width, keeps the gap on the rendered pixels and splits across sheets', async () => {
    const designs = [design('ring', 2, 6), design('star', 1.5, 8), design('heart', 1.5, 8), design('crescent', 1.5, 8), design('arrow', 2, 4)];
    const settings = { width: 8, gap: 0.25, margin: 0.2, dpi: 50, nesting: 'shape' as const };
    const run = (placementRules: ('fill' | 'centre')[], maxLength?: number, maxEvaluations = 6) =>
      compareNesting(designs, { ...settings, maxLength }, { timeLimitMs: 60_000, maxEvaluations, placementRules });
    // the order in which designs are placed: the plain sequence lays each design as a block
    // (its first layout: the search's later swaps may break a block)
    const switches = (l: LayoutResult) => l.sheets[0].placements.filter((p, i, all) => i > 0 && p.designId !== all[i - 1].designId).length;
    const fill = run(['fill'], undefined, 1);
    const plain = run(['centre'], undefined, 1);
    expect(fill.savedLength).toBeGreaterThan(0);
    expect(plain.savedLength).toBeGreaterThan(0);
    expect(switches(plain.shape)).toBe(designs.length - 1);
    expect(switches(fill.shape)).toBeGreaterThan(designs.length);
    expect(await renderAndCheck(fill.shape, 'fill')).toEqual([]);
    const multi = run(['fill'], 5).shape;
    expect(multi.sheets.length).toBeGreaterThan(1);
    expect(multi.sheets.flatMap((sh) => sh.placements)).toHaveLength(34);
    for (const sh of multi.sheets) expect(sh.lengthPx).toBeLessThanOrEqual(250);
    expect(await renderAndCheck(multi, 'fill-multi')).toEqual([]);
  });

  it('keeps the gap on the rendered pixels of enlarged rasters too (their clip reaches further), in the PNG and the PDF', async () => {
    // 240 px artwork printed 1.6 in wide at 400 DPI: enlarged about 2.7 times
    const designs = [design('star', 1.6, 3), design('crescent', 1.6, 3), design('heart', 1.6, 2)];
    const layout = layoutSheets(designs, { width: 4, gap: 0.1, margin: 0.05, dpi: 400, nesting: 'shape' }, { timeLimitMs: 60_000, maxEvaluations: 3 });
    expect(layout.sheets[0].placements.some((p) => p.px.width > infos.get(p.designId)!.trim.width)).toBe(true);
    expect(await renderAndCheck(layout, 'enlarged', { pdf: true })).toEqual([]);
  });

  it('reports how its search ended: a converging layout stops long before a generous time limit; converge: false runs to it', () => {
    // the badge fits the ring's hole: the strip is as short as the ring at once
    const designs = [design('ring', 4, 1), design('badge', 0.8, 1)];
    const settings = { width: 4.5, gap: 0.1, dpi: 50, nesting: 'shape' as const };
    const early = layoutSheets(designs, settings, { timeLimitMs: 20_000 });
    expect(early.sheets.flatMap((s) => s.placements)).toHaveLength(2);
    expect(early.search).toMatchObject({ converged: true, timeLimitMs: 20_000 });
    expect(early.search!.elapsedMs).toBeLessThan(10_000);
    // six copies that can always be tried in a shorter strip: to the limit without converging
    const six = [design('star', 1.5, 3), design('heart', 1.5, 3)];
    const full = layoutSheets(six, { width: 8, gap: 0.25, margin: 0.2, dpi: 50, nesting: 'shape' }, { timeLimitMs: 2500, converge: false });
    expect(full.search).toMatchObject({ converged: false, timeLimitMs: 2500 });
    expect(full.search!.elapsedMs).toBeGreaterThanOrEqual(2500);
    // rectangles do not converge; a counted run reports nothing (it is reproducible)
    expect(layoutSheets(designs, { ...settings, nesting: 'box' }, { timeLimitMs: 200 }).search).toMatchObject({ converged: false, timeLimitMs: 200 });
    expect(layoutSheets(designs, settings, { timeLimitMs: 60_000, maxEvaluations: 3 }).search).toBeUndefined();
  });

  it('uses the hole of a ring for a small design', () => {
    const designs = [design('ring', 4, 1), design('badge', 0.8, 1)];
    const layout = layoutSheets(designs, { width: 4.5, gap: 0.1, dpi: 50, nesting: 'shape' }, { timeLimitMs: 60_000, maxEvaluations: 4 });
    const [ring, badge] = ['ring', 'badge'].map((id) => layout.sheets[0].placements.find((p) => p.designId === id)!);
    // the badge lies inside the ring's box: the sheet is no longer than the ring
    expect(badge.px.x).toBeGreaterThan(ring.px.x);
    expect(badge.px.y + badge.px.height).toBeLessThan(ring.px.y + ring.px.height);
    expect(layout.sheets[0].length).toBeCloseTo(ring.height, 1);
  });

  it('the pixel checker catches copies that break the gap', async () => {
    const designs = [design('star', 1.5, 4)];
    const layout = layoutSheets(designs, { width: 6, gap: 0.25, dpi: 40, nesting: 'shape', rotate: false }, { timeLimitMs: 60_000, maxEvaluations: 2 });
    const sheet = layout.sheets[0];
    // push the second copy 6 px towards the first: still inside the sheet, ink now too close
    const [a, b] = sheet.placements;
    const dx = Math.sign(a.px.x - b.px.x) * 6;
    const dy = dx === 0 ? Math.sign(a.px.y - b.px.y) * 6 : 0;
    const bad = { ...layout, sheets: [{ ...sheet, placements: sheet.placements.map((p, i) => (i === 1 ? { ...p, px: { ...p.px, x: p.px.x + dx, y: p.px.y + dy } } : p)) }] };
    expect((await renderAndCheck(bad, 'bad')).join()).toMatch(/closer than|overlaps/);
  });

  it('"box" stays the default and ignores masks', () => {
    const designs = [design('ring', 2, 5)];
    const a = layoutSheets(designs, { width: 8, dpi: 40 }, { maxEvaluations: 20, timeLimitMs: 60_000 });
    const b = layoutSheets(designs.map(({ mask: _m, ...d }) => d), { width: 8, dpi: 40 }, { maxEvaluations: 20, timeLimitMs: 60_000 });
    expect(a).toEqual(b);
    expect(a.settings.nesting).toBe('box');
  });

  it('rejects an unknown nesting value', () => {
    expect(() => layoutSheets([design('ring', 2, 1)], { nesting: 'blob' as never })).toThrow(/nesting must be/);
  });
});
