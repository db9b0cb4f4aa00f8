/**
 * `npm run bench:nest`: true-shape nesting, side by side in one run.
 *
 * 1. ESICUP instances (../shared/bench-data/irregular, and bench/data/esicup): density = item area / (strip height
 *    × length) in NEST_MS (default 30 s) per instance, against sparrow's record densities.
 *    Every solution is checked with exact polygon clipping before it counts.
 * 2. Realistic artwork (bench/artwork.ts: rings, stars, hearts, crescents, arrows, text-like
 *    blobs, photos in rounded masks; 22 in sheet, 0.25 in gap, 150–400 copies): film length
 *    with "shape" vs "box" (ART_MS per order, default 10 s, or "product": the budget a print of
 *    that many copies gets; ART_SEEDS: searches per order, the mean counts), and the quick preview budget
 *    (PREVIEW_MS, default 1 s, timed around the layout call). "bound" is the area bound of
 *    true-shape nesting (artwork.ts, grownInkArea: ink grown by half the gap, over the film
 *    width plus a gap), "b/box" what a perfect layout's ratio would be, "fill" the share of the
 *    film the shape layout fills with gap-grown ink.
 * 3. Time to the final layout of a 300-copy order at 2 s / 10 s / 30 s budgets.
 * 4. Single-design orders (one artwork of each kind, 30 / 50 / 80 copies at 3 / 4 / 2.5 in):
 *    shape vs box at SINGLE_MS (default 2 s), the shop's "one logo, many copies" order.
 * 5. `converge` (not in the default parts): the artwork orders at the product's budget with the
 *    layout stopping once converged (the product) and running to its budget (`converge: false`),
 *    the two alternating in one run (seed by seed, which goes first
 *    alternating too) so both see the same load: film and wall time per order, and their means.
 *    CONVERGE_COPIES rescales every order to that many copies (the pipeline's 60-copy prints);
 *    CONVERGE_SCALE (default 1) gives the converging layouts that share of the budget (what a
 *    smaller per-copy budget would cost in film); CONVERGE_FROM skips the first orders (ART_ORDERS
 *    up to 12: orders the other parts do not use); NEST_BUSY=1 runs every layout also with a
 *    busy loop in another process (one of two cores taken), busy and quiet alternating.
 * 6. `pinned` (not in the default parts): 10 copies of each artwork order pinned (pin sets
 *    from counted layouts, PIN_SEEDS, the same every run), the rest re-nested around them at
 *    the preview budget against the unpinned preview (ART_SEEDS): with only the pins, and with
 *    the current layout as the start (pins moved, pins kept); PINNED_COPIES, PINNED_FROM,
 *    PINNED_FULL, PINNED_START, PIN_EVALUATIONS, PIN_MOVES (see runPinned).
 *
 * Env: NEST_MS, NEST_THREADS (ESICUP searches at once, default one per core), NEST_RACE=1 (those
 * threads race on one strip instead), NEST_SEED (the ESICUP seed, default 1), ART_MS,
 * NEST_BUSY=1 (the ESICUP part with a busy loop taking one core, and see part 5), ART_THREADS (threads per artwork layout, parts 2–4; default the product's, 2 where there are
 * 2 cores; budgets under 3 s use one), PREVIEW_MS, ART_ORDERS (default 6), ART_FROM (the artwork part skips the first orders: ART_ORDERS=12 ART_FROM=6 lays out only the six beyond the usual ones), NEST_INSTANCES (comma list, or `shared` for the three in the shared folder; default all thirteen), NEST_CELLS (ESICUP search
 * grid cells across the strip), NEST_COMPACT (share of the ESICUP search time for
 * overlap-minimisation compaction, default 0.9), NEST_OVERLAP (`poles`: the compaction measures overlap by poles, overlap.ts).
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import { availableParallelism } from 'os';
import * as path from 'path';
import sharp from 'sharp';
import { compareNesting, LayoutDesign, layoutSheets } from '../src/gangsheet/pack/layout';
import { alphaMask, maskCoverage } from '../src/gangsheet/shape/design-mask';
import { itemArea, parseEsicup } from '../src/gangsheet/shape/esicup';
import { nestEsicupParallel } from '../src/gangsheet/shape/esicup-parallel';
import { alphaBoundingBox } from '../src/gangsheet/trim';
import { layoutBudget, SHAPE_LAYOUT_MS_PER_COPY } from '../src/prints/print-budget';
import { artworkOrders, grownInkArea, KINDS, makeArtwork } from './artwork';
import { Rng } from '../src/gangsheet/pack/rng';
import { checkEsicupSolution } from './nest-check';

const DATA = path.resolve(__dirname, '../../../shared/bench-data/irregular');
/** More ESICUP instances, kept with the benchmark (data/esicup/README.md: source and records). */
const MORE_DATA = path.resolve(__dirname, 'data/esicup');
const NEST_MS = Number(process.env.NEST_MS ?? 30000);
/** Per order: a fixed budget, or "product": what a print of that many copies gets (`layoutBudget`). */
const ART_MS = process.env.ART_MS ?? '10000';
/** Searches per order (seeds); the table shows their mean, so one run's luck does not decide the figure. */
const ART_SEEDS = (process.env.ART_SEEDS ?? '1').split(',').map(Number);
const PREVIEW_MS = Number(process.env.PREVIEW_MS ?? 1000);
const ART_ORDERS = Number(process.env.ART_ORDERS ?? 6);
/** Threads per artwork layout: the product's default (PRINT_LAYOUT_THREADS) unless set. */
const ART_THREADS = Number(process.env.ART_THREADS ?? Math.min(2, availableParallelism()));
const CELL_IN = process.env.NEST_CELL_IN ? Number(process.env.NEST_CELL_IN) : undefined;
/** sparrow's record densities (README of the bench data, data/esicup/README.md). */
const RECORDS: Record<string, number> = {
  shapes0: 0.6998,
  albano: 0.8982,
  jakobs1: 0.8924,
  blaz1: 0.8622,
  dagli: 0.9017,
  fu: 0.9239,
  jakobs2: 0.8772,
  mao: 0.8687,
  marques: 0.9201,
  shapes1: 0.7672,
  shirts: 0.9092,
  swim: 0.7983,
  trousers: 0.9261,
};
/** Searches at once per instance (default: one per core), the shortest strip counts. */
const NEST_THREADS = process.env.NEST_THREADS ? Number(process.env.NEST_THREADS) : undefined;
/** NEST_RACE=1: the ESICUP threads race on one strip instead of searching side by side. */
const NEST_RACE = process.env.NEST_RACE === '1';
/** NEST_SEED: the ESICUP runs' seed (default 1; side by side, the other searches take it plus multiples of SEED_STRIDE). */
const NEST_SEED = process.env.NEST_SEED ? Number(process.env.NEST_SEED) : undefined;
/** Default: every instance with a record (the shared three, then those in data/esicup); `shared` for the shared three. */
const INSTANCES = (process.env.NEST_INSTANCES === 'shared' ? 'shapes0,albano,jakobs1' : (process.env.NEST_INSTANCES ?? Object.keys(RECORDS).join(','))).split(',');

const pad = (s: string | number, n: number) => String(s).padStart(n);

async function runEsicup(): Promise<void> {
  // NEST_BUSY=1: a busy loop in another process takes one core throughout
  const busy = process.env.NEST_BUSY === '1' ? spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }) : undefined;
  try {
    await esicupTable(busy !== undefined);
  } finally {
    busy?.kill();
  }
}

async function esicupTable(busy: boolean): Promise<void> {
  const how = NEST_RACE ? 'threads racing on one strip' : 'searches at once';
  console.log(`## ESICUP (${NEST_MS / 1000} s per instance, ${NEST_THREADS ?? availableParallelism()} ${how}${NEST_SEED !== undefined ? `, seed ${NEST_SEED}` : ''}${busy ? ', one core busy' : ''}; record = sparrow's best density)`);
  console.log(`${'instance'.padEnd(9)} ${pad('pieces', 6)} ${pad('length', 9)} ${pad('density', 8)} ${pad('record', 7)} ${pad('ratio', 6)} ${pad('time s', 6)}  check`);
  const ratios: number[] = [];
  const named: [string, number][] = [];
  for (const name of INSTANCES) {
    const file = [DATA, MORE_DATA].map((d) => path.join(d, `${name}.json`)).find((f) => fs.existsSync(f));
    if (!file) throw new Error(`no ESICUP instance ${name} in ${DATA} or ${MORE_DATA}`);
    const inst = parseEsicup(fs.readFileSync(file, 'utf8'));
    const t0 = performance.now();
    const sol = await nestEsicupParallel(inst, {
      timeLimitMs: NEST_MS,
      threads: NEST_THREADS,
      race: NEST_RACE,
      seed: NEST_SEED,
      cellsAcross: process.env.NEST_CELLS ? Number(process.env.NEST_CELLS) : undefined,
      compactShare: process.env.NEST_COMPACT ? Number(process.env.NEST_COMPACT) : undefined,
      overlap: process.env.NEST_OVERLAP === 'poles' ? 'poles' : undefined,
    });
    const dt = (performance.now() - t0) / 1000;
    const chk = checkEsicupSolution(inst, sol);
    const density = itemArea(inst) / (inst.strip_height * sol.length);
    const rec = RECORDS[name];
    const ratio = rec ? density / rec : NaN;
    if (chk.ok) {
      ratios.push(ratio);
      named.push([name, ratio]);
    }
    const pieces = inst.items.reduce((a, it) => a + it.demand, 0);
    console.log(
      `${name.padEnd(9)} ${pad(pieces, 6)} ${pad(sol.length.toFixed(3), 9)} ${pad((100 * density).toFixed(2) + '%', 8)} ${pad(rec ? (100 * rec).toFixed(2) + '%' : '-', 7)} ${pad(ratio.toFixed(3), 6)} ${pad(dt.toFixed(1), 6)}  ${chk.ok ? 'ok' : 'INVALID: ' + chk.errors.slice(0, 2).join('; ')}`,
    );
  }
  const mean = ratios.reduce((a, b) => a + b, 0) / Math.max(1, ratios.length);
  const worst = Math.min(...ratios);
  const shared = named.filter(([n]) => ['shapes0', 'albano', 'jakobs1'].includes(n));
  const sharedMean = shared.length ? `; the shared three ${(shared.reduce((a, [, r]) => a + r, 0) / shared.length).toFixed(3)}` : '';
  console.log(`mean ratio ${mean.toFixed(3)}, worst ${worst.toFixed(3)}${sharedMean} (goal: mean >= 0.97, none < 0.93): ${mean >= 0.97 && worst >= 0.93 ? 'met' : 'NOT met'}`);
}

async function artworkDesigns(order: ReturnType<typeof artworkOrders>[number]): Promise<LayoutDesign[]> {
  const designs: LayoutDesign[] = [];
  for (const d of order.designs) {
    // the same measurement inspectDesign makes at upload: trim box and ink mask from alpha
    const { data, info } = await sharp(Buffer.from(d.art.svg)).ensureAlpha().extractChannel(3).raw().toBuffer({ resolveWithObject: true });
    const trim = alphaBoundingBox(data, info.width, info.height)!;
    designs.push({ id: d.id, widthPx: trim.width, heightPx: trim.height, width: d.width, quantity: d.quantity, mask: alphaMask(data, info.width, trim) });
  }
  return designs;
}

async function runArtwork(): Promise<void> {
  const settings = { width: 22, gap: 0.25, margin: 0, dpi: 300, nesting: 'shape' as const };
  const budgetOf = (copies: number) =>
    ART_MS === 'product' ? layoutBudget([{ quantity: copies, mask: true }], { nesting: 'shape' }, { layoutTimeLimitMs: 2000, shapeLayoutTimeLimitMs: 30000 }) : Number(ART_MS);
  const budget = ART_MS === 'product' ? `the product's budget (${SHAPE_LAYOUT_MS_PER_COPY} ms per copy, 2–30 s)` : `${Number(ART_MS) / 1000} s`;
  const seeds = ART_SEEDS.length > 1 ? `, mean of seeds ${ART_SEEDS.join(', ')}` : '';
  console.log(`\n## realistic artwork: 22 in sheet, 0.25 in gap, 300 DPI; ${budget} per order${seeds}, ${ART_THREADS} thread(s) (preview: ${PREVIEW_MS / 1000} s)`);
  console.log(
    `${'order'.padEnd(7)} ${pad('copies', 6)} ${pad('box in', 8)} ${pad('shape in', 8)} ${pad('ratio', 6)} ${pad('time s', 6)} ${pad('preview in', 10)} ${pad('ratio', 6)} ${pad('prev s', 6)} ${pad('cover', 5)} ${pad('bound in', 8)} ${pad('b/box', 5)} ${pad('fill', 5)}  kinds`,
  );
  let sum = 0;
  let sumBound = 0;
  let sumFill = 0;
  let sumPrev = 0;
  let worstPrevTime = 0;
  // ART_FROM skips the first orders (ART_ORDERS up to 12: orders beyond the usual six)
  const orders = artworkOrders(ART_ORDERS).slice(Number(process.env.ART_FROM ?? 0));
  for (const order of orders) {
    const designs = await artworkDesigns(order);
    const copies = designs.reduce((a, d) => a + d.quantity, 0);
    // ink / bounding-box area over all copies: how much rectangles can waste at most
    const boxArea = designs.reduce((a, d) => a + d.quantity * d.width * ((d.width * d.heightPx) / d.widthPx), 0);
    const cover = designs.reduce((a, d) => a + d.quantity * d.width * ((d.width * d.heightPx) / d.widthPx) * maskCoverage(d.mask!), 0) / boxArea;
    let t0 = performance.now();
    // lengths and the ratio are means over the seeds
    const cmp = { shape: { totalLength: 0 }, box: { totalLength: 0 } };
    let ratio = 0;
    for (const seed of ART_SEEDS) {
      const one = compareNesting(designs, settings, { timeLimitMs: budgetOf(copies), cellInches: CELL_IN, seed, threads: ART_THREADS });
      cmp.shape.totalLength += one.shape.totalLength / ART_SEEDS.length;
      cmp.box.totalLength += one.box.totalLength / ART_SEEDS.length;
      ratio += one.shape.totalLength / one.box.totalLength / ART_SEEDS.length;
    }
    const dt = (performance.now() - t0) / 1000 / ART_SEEDS.length;
    t0 = performance.now();
    const prev = compareNesting(designs, settings, { timeLimitMs: PREVIEW_MS, cellInches: CELL_IN, threads: ART_THREADS });
    const dp = (performance.now() - t0) / 1000;
    worstPrevTime = Math.max(worstPrevTime, dp);
    const pratio = prev.shape.totalLength / prev.box.totalLength;
    sum += ratio;
    sumPrev += pratio;
    const kinds = order.designs.map((d) => `${d.art.kind}×${d.quantity}@${d.width}`).join(' ');
    // the area bound of true-shape nesting (grownInkArea): how short a perfect layout could be
    let grown = 0;
    for (const d of order.designs) grown += d.quantity * (await grownInkArea(d.art, d.width, settings.gap / 2));
    const bound = grown / (settings.width + settings.gap) - settings.gap;
    const fill = grown / ((settings.width + settings.gap) * (cmp.shape.totalLength + settings.gap));
    sumBound += bound / cmp.box.totalLength;
    sumFill += fill;
    console.log(
      `${order.name.padEnd(7)} ${pad(copies, 6)} ${pad(cmp.box.totalLength.toFixed(1), 8)} ${pad(cmp.shape.totalLength.toFixed(1), 8)} ${pad(ratio.toFixed(3), 6)} ${pad(dt.toFixed(1), 6)} ${pad(prev.shape.totalLength.toFixed(1), 10)} ${pad(pratio.toFixed(3), 6)} ${pad(dp.toFixed(2), 6)} ${pad((100 * cover).toFixed(0) + '%', 5)} ${pad(bound.toFixed(1), 8)} ${pad((bound / cmp.box.totalLength).toFixed(3), 5)} ${pad((100 * fill).toFixed(0) + '%', 5)}  ${kinds}`,
    );
  }
  const mean = sum / orders.length;
  console.log(
    `mean shape/box ${mean.toFixed(3)} (goals: <= 0.82 at the product's budget, <= 0.85 at half of it); preview mean ${(sumPrev / orders.length).toFixed(3)}, slowest preview ${worstPrevTime.toFixed(2)} s (goal <= 2 s: ${worstPrevTime <= 2 ? 'met' : 'NOT met'})`,
  );
  console.log(
    `area bound / box: mean ${(sumBound / orders.length).toFixed(3)} (no layout can do better); shape layouts fill ${((100 * sumFill) / orders.length).toFixed(1)} % of the film with gap-grown ink on average`,
  );
}

async function runBudgets(): Promise<void> {
  const order = artworkOrders(40).find((o) => {
    const n = o.designs.reduce((a, d) => a + d.quantity, 0);
    return n >= 280 && n <= 320;
  })!;
  const designs = await artworkDesigns(order);
  const copies = designs.reduce((a, d) => a + d.quantity, 0);
  console.log(`\n## ${copies}-copy order (${order.name}): film by time budget, ${ART_THREADS} thread(s)`);
  for (const ms of (process.env.BUDGETS ?? '2000,10000,30000').split(',').map(Number)) {
    const t0 = performance.now();
    const cmp = compareNesting(designs, { width: 22, gap: 0.25, nesting: 'shape' }, { timeLimitMs: ms, threads: ART_THREADS });
    const dt = (performance.now() - t0) / 1000;
    console.log(`budget ${pad(ms / 1000, 3)} s: shape ${cmp.shape.totalLength.toFixed(1)} in, box ${cmp.box.totalLength.toFixed(1)} in, ratio ${(cmp.shape.totalLength / cmp.box.totalLength).toFixed(3)}, wall ${dt.toFixed(1)} s`);
  }
}

async function runSingle(): Promise<void> {
  const ms = Number(process.env.SINGLE_MS ?? 2000);
  console.log(`\n## single-design orders: 22 in sheet, 0.25 in gap, ${ms / 1000} s each`);
  console.log(`${'design'.padEnd(9)} ${pad('size', 4)} ${pad('copies', 6)} ${pad('box in', 7)} ${pad('shape in', 8)} ${pad('ratio', 6)}`);
  const rng = new Rng(5);
  let sum = 0;
  let n = 0;
  for (const kind of KINDS) {
    const art = makeArtwork(kind, rng, 600);
    for (const [width, quantity] of [[3, 30], [4, 50], [2.5, 80]]) {
      const [d] = await artworkDesigns({ name: kind, designs: [{ id: kind, art, width, quantity }] });
      const cmp = compareNesting([d], { width: 22, gap: 0.25, nesting: 'shape' }, { timeLimitMs: ms, threads: ART_THREADS });
      const ratio = cmp.shape.totalLength / cmp.box.totalLength;
      sum += ratio;
      n++;
      console.log(`${kind.padEnd(9)} ${pad(width, 4)} ${pad(quantity, 6)} ${pad(cmp.box.totalLength.toFixed(2), 7)} ${pad(cmp.shape.totalLength.toFixed(2), 8)} ${pad(ratio.toFixed(3), 6)}`);
    }
  }
  console.log(`mean shape/box ${(sum / n).toFixed(3)}`);
}

/** An artwork order's designs with the quantities scaled to `copies` in all (each at least 1). */
function scaled(designs: LayoutDesign[], copies: number): LayoutDesign[] {
  const total = designs.reduce((a, d) => a + d.quantity, 0);
  let left = copies;
  return designs.map((d, i) => {
    const quantity = i === designs.length - 1 ? Math.max(1, left) : Math.max(1, Math.round((copies * d.quantity) / total));
    left -= quantity;
    return { ...d, quantity };
  });
}

async function runConverge(): Promise<void> {
  const settings = { width: 22, gap: 0.25, margin: 0, dpi: 300, nesting: 'shape' as const };
  const copiesTo = process.env.CONVERGE_COPIES ? Number(process.env.CONVERGE_COPIES) : undefined;
  const limits = { layoutTimeLimitMs: 2000, shapeLayoutTimeLimitMs: 30000 };
  const scale = Number(process.env.CONVERGE_SCALE ?? 1);
  // NEST_BUSY=1: every layout also runs with a busy loop in another process (one core taken)
  const busyStates = process.env.NEST_BUSY === '1' ? [false, true] : [false];
  const from = Number(process.env.CONVERGE_FROM ?? 0);
  console.log(
    `\n## convergence: artwork orders ${from + 1}–${ART_ORDERS}${copiesTo ? ` scaled to ${copiesTo} copies` : ''}, the product's budget (${SHAPE_LAYOUT_MS_PER_COPY} ms per copy, 2–30 s), ${ART_THREADS} thread(s), seeds ${ART_SEEDS.join(', ')}; "to budget" = converge: false${scale !== 1 ? `; converging layouts get ${scale} of the budget` : ''}${busyStates.length > 1 ? '; each also with one core busy (a busy loop in another process)' : ''}`,
  );
  console.log(`${'order'.padEnd(7)} ${pad('copies', 6)} ${pad('budget s', 8)} ${pad('to budget in', 12)} ${pad('s', 5)} ${pad('converged in', 12)} ${pad('s', 5)} ${pad('film', 7)} ${pad('time', 6)}`);
  const key = (busy: boolean, converge: boolean) => `${busy ? 'busy' : 'quiet'}-${converge ? 'on' : 'off'}`;
  const sum: Record<string, { film: number; ms: number; early: number }> = {};
  let runs = 0;
  const orders = artworkOrders(ART_ORDERS).slice(from);
  for (const order of orders) {
    let designs = await artworkDesigns(order);
    if (copiesTo) designs = scaled(designs, copiesTo);
    const copies = designs.reduce((a, d) => a + d.quantity, 0);
    const budget = layoutBudget([{ quantity: copies, mask: true }], { nesting: 'shape' }, limits);
    const row: Record<string, { film: number; ms: number; early: number }> = {};
    const each: string[] = [];
    for (const [k, seed] of ART_SEEDS.entries())
      for (const busy of k % 2 ? [...busyStates].reverse() : busyStates) {
        const loop = busy ? spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }) : undefined;
        try {
          for (const converge of k % 2 ? [true, false] : [false, true]) {
            const t0 = performance.now();
            const r = compareNesting(designs, settings, { timeLimitMs: converge ? budget * scale : budget, cellInches: CELL_IN, seed, threads: ART_THREADS, converge });
            const ms = performance.now() - t0;
            const cell = (row[key(busy, converge)] ??= { film: 0, ms: 0, early: 0 });
            cell.film += r.shape.totalLength / ART_SEEDS.length;
            cell.ms += ms / ART_SEEDS.length;
            cell.early += r.shape.search?.converged ? 1 : 0;
            each.push(`s${seed}${busy ? ' busy' : ''} ${converge ? 'conv' : 'full'} ${r.shape.totalLength.toFixed(2)} in ${(ms / 1000).toFixed(1)} s`);
          }
        } finally {
          loop?.kill();
        }
      }
    for (const [k, v] of Object.entries(row)) {
      const t = (sum[k] ??= { film: 0, ms: 0, early: 0 });
      t.film += v.film;
      t.ms += v.ms;
      t.early += v.early;
    }
    runs++;
    for (const busy of busyStates) {
      const off = row[key(busy, false)];
      const on = row[key(busy, true)];
      console.log(
        `${(order.name + (busy ? '*' : '')).padEnd(7)} ${pad(copies, 6)} ${pad((budget / 1000).toFixed(1), 8)} ${pad(off.film.toFixed(2), 12)} ${pad((off.ms / 1000).toFixed(1), 5)} ${pad(on.film.toFixed(2), 12)} ${pad((on.ms / 1000).toFixed(1), 5)} ${pad(((100 * (on.film - off.film)) / off.film).toFixed(2) + '%', 7)} ${pad((on.ms / off.ms).toFixed(2) + 'x', 6)}`,
      );
    }
    console.log(`        (${each.join('; ')})`);
  }
  for (const busy of busyStates) {
    const off = sum[key(busy, false)];
    const on = sum[key(busy, true)];
    console.log(
      `${busy ? 'one core busy' : 'no busy loop'}: mean film to budget ${(off.film / runs).toFixed(2)} in, converged ${(on.film / runs).toFixed(2)} in (${((100 * (on.film - off.film)) / off.film).toFixed(2)} %); mean time ${(off.ms / runs / 1000).toFixed(1)} s → ${(on.ms / runs / 1000).toFixed(1)} s (${(on.ms / off.ms).toFixed(2)}x); converged early in ${on.early} of ${runs * ART_SEEDS.length} layouts`,
    );
  }
  if (busyStates.length > 1) {
    const q = sum[key(false, false)];
    const b = sum[key(true, false)];
    const qc = sum[key(false, true)];
    const bc = sum[key(true, true)];
    console.log(`one core busy against none: film to budget ${((100 * (b.film - q.film)) / q.film).toFixed(2)} %, converged ${((100 * (bc.film - qc.film)) / qc.film).toFixed(2)} %; converged time ${(bc.ms / qc.ms).toFixed(2)}x`);
  }
}

/**
 * Part 6, `pinned`: the seller pins 10 copies of a laid-out order (spread over the sheet) and
 * re-nests the rest around them at the preview budget, against the unpinned preview of the
 * same seed (laid out just before, so both see the same load).
 *
 * The pins are reproducible: for each pin set (PIN_SEEDS, default 1,2,3) the order is laid
 * out once by a *counted* search (PIN_EVALUATIONS fills and PIN_MOVES compaction moves, seed
 * = the pin set's; no clock in it, so the same pins every run), and copies k·n/10 of it are
 * pinned where it put them. Each pin set is re-nested with every preview seed (ART_SEEDS);
 * a row is one order and pin set, the mean over the preview seeds, the time the slowest.
 *
 * Scenarios (PINNED_START=0 leaves the last two out):
 * - "pinned": the re-nest as the API made it before it passed the current layout: only the
 *   pinned copies given (`fixed`).
 * - "moved": the seller's current layout is the unpinned preview (what the editor opens
 *   with), and the 10 pins stand where the counted layout put them, so elsewhere than the
 *   preview put those copies: the engine gets the preview's other copies as its starting
 *   layout (`start`) and repairs what collides with the pins. The start is not the answer.
 * - "kept": the 10 pins are copies of the preview itself, pinned where it put them (copies
 *   k·n/10 + the pin seed), with the preview as the start: the seller pinned without moving.
 *   The start is the answer here (the loss is at most 0 by construction), so it is reported
 *   beside "moved", not instead of it.
 * PINNED_COPIES rescales every order to that many copies, PINNED_FROM skips the first orders
 * (ART_ORDERS up to 12), PINNED_FULL=1 adds the product budget (pins from the counted layout,
 * against it, no start).
 */
async function runPinned(): Promise<void> {
  const settings = { width: 22, gap: 0.25, margin: 0, dpi: 300, nesting: 'shape' as const };
  const product = (copies: number) => layoutBudget([{ quantity: copies, mask: true }], { nesting: 'shape' }, { layoutTimeLimitMs: 2000, shapeLayoutTimeLimitMs: 30000 });
  const copiesTo = process.env.PINNED_COPIES ? Number(process.env.PINNED_COPIES) : undefined;
  const full = process.env.PINNED_FULL === '1';
  const withStart = process.env.PINNED_START !== '0';
  const pinSeeds = (process.env.PIN_SEEDS ?? '1,2,3').split(',').map(Number);
  const pinEvaluations = Number(process.env.PIN_EVALUATIONS ?? 12);
  const pinMoves = Number(process.env.PIN_MOVES ?? 3000);
  console.log(
    `\n## pinned: 10 copies pinned, the rest re-nested around them (${ART_THREADS} thread(s)); preview ${PREVIEW_MS / 1000} s against the unpinned preview, preview seeds ${ART_SEEDS.join(', ')}; pins from counted layouts (${pinEvaluations} fills, ${pinMoves} moves), pin seeds ${pinSeeds.join(', ')}${copiesTo ? `; orders scaled to ${copiesTo} copies` : ''}`,
  );
  console.log(
    `${'order'.padEnd(7)} ${pad('copies', 6)} ${pad('pins', 4)} ${pad('counted', 8)} ${pad('prev in', 8)} ${pad('pinned', 8)} ${pad('loss %', 6)} ${pad('s', 4)}` +
      (withStart ? ` ${pad('moved', 8)} ${pad('loss %', 6)} ${pad('s', 4)} ${pad('kept', 8)} ${pad('loss %', 6)} ${pad('s', 4)}` : '') +
      (full ? ` ${pad('budget s', 8)} ${pad('pinned', 8)} ${pad('loss %', 6)} ${pad('time s', 6)}` : ''),
  );
  type Fixed = { designId: string; copy: number; x: number; y: number; rotation?: 0 | 90 | 180 | 270 };
  const asFixed = (p: { designId: string; copy: number; x: number; y: number; rotation?: 0 | 90 | 180 | 270 }): Fixed => ({ designId: p.designId, copy: p.copy, x: p.x, y: p.y, rotation: p.rotation });
  const key = (p: { designId: string; copy: number }) => `${p.designId}#${p.copy}`;
  const losses: Record<string, number[]> = { pinned: [], moved: [], kept: [] };
  for (const order of artworkOrders(ART_ORDERS).slice(Number(process.env.PINNED_FROM ?? 0))) {
    let designs = await artworkDesigns(order);
    if (copiesTo) designs = scaled(designs, copiesTo);
    const copies = designs.reduce((a, d) => a + d.quantity, 0);
    // the pin sets: counted layouts, the same every run
    const pinSets = pinSeeds.map((seed) => {
      const counted = layoutSheets(designs, settings, { timeLimitMs: 600_000, maxEvaluations: pinEvaluations, compactMoves: pinMoves, cellInches: CELL_IN, seed });
      const all = counted.sheets[0].placements;
      return { seed, counted, fixed: Array.from({ length: 10 }, (_, k) => asFixed(all[Math.floor((k * all.length) / 10)])) };
    });
    // the unpinned previews (the layout the seller sees), one per preview seed, shared by the pin sets
    const previews = ART_SEEDS.map((seed) => ({ seed, layout: layoutSheets(designs, settings, { timeLimitMs: PREVIEW_MS, cellInches: CELL_IN, threads: ART_THREADS, seed }) }));
    for (const pins of pinSets) {
      const sum = { unpinned: 0, pinned: 0, moved: 0, kept: 0 };
      const slow = { pinned: 0, moved: 0, kept: 0 };
      const timed = (what: keyof typeof slow, run: () => number) => {
        const t0 = performance.now();
        sum[what] += run() / ART_SEEDS.length;
        slow[what] = Math.max(slow[what], (performance.now() - t0) / 1000);
      };
      for (const { seed, layout: prev } of previews) {
        sum.unpinned += prev.totalLength / ART_SEEDS.length;
        const base = { timeLimitMs: PREVIEW_MS, cellInches: CELL_IN, threads: ART_THREADS, seed };
        timed('pinned', () => layoutSheets(designs, settings, { ...base, fixed: pins.fixed }).totalLength);
        if (!withStart) continue;
        const shown = prev.sheets.flatMap((s) => s.placements.map((p) => ({ ...asFixed(p), sheet: s.index })));
        const movedKeys = new Set(pins.fixed.map(key));
        timed('moved', () => layoutSheets(designs, settings, { ...base, fixed: pins.fixed, start: shown.filter((p) => !movedKeys.has(key(p))) } as any).totalLength);
        const keptPins = Array.from({ length: 10 }, (_, k) => shown[(Math.floor((k * shown.length) / 10) + pins.seed) % shown.length]);
        const keptKeys = new Set(keptPins.map(key));
        timed('kept', () => layoutSheets(designs, settings, { ...base, fixed: keptPins, start: shown.filter((p) => !keptKeys.has(key(p))) } as any).totalLength);
      }
      const loss = (v: number) => (100 * (v - sum.unpinned)) / sum.unpinned;
      losses.pinned.push(loss(sum.pinned));
      let line = `${order.name.padEnd(7)} ${pad(String(copies), 6)} ${pad(pins.seed, 4)} ${pad(pins.counted.totalLength.toFixed(2), 8)} ${pad(sum.unpinned.toFixed(2), 8)} ${pad(sum.pinned.toFixed(2), 8)} ${pad(loss(sum.pinned).toFixed(2), 6)} ${pad(slow.pinned.toFixed(2), 4)}`;
      if (withStart) {
        losses.moved.push(loss(sum.moved));
        losses.kept.push(loss(sum.kept));
        line += ` ${pad(sum.moved.toFixed(2), 8)} ${pad(loss(sum.moved).toFixed(2), 6)} ${pad(slow.moved.toFixed(2), 4)} ${pad(sum.kept.toFixed(2), 8)} ${pad(loss(sum.kept).toFixed(2), 6)} ${pad(slow.kept.toFixed(2), 4)}`;
      }
      if (full) {
        const t0 = performance.now();
        const res = layoutSheets(designs, settings, { timeLimitMs: product(copies), cellInches: CELL_IN, threads: ART_THREADS, fixed: pins.fixed });
        const s = (performance.now() - t0) / 1000;
        line += ` ${pad((product(copies) / 1000).toFixed(1), 8)} ${pad(res.totalLength.toFixed(2), 8)} ${pad(((100 * (res.totalLength - pins.counted.totalLength)) / pins.counted.totalLength).toFixed(2), 6)} ${pad(s.toFixed(1), 6)}`;
      }
      console.log(line);
    }
  }
  for (const [what, ls] of Object.entries(losses)) {
    if (!ls.length) continue;
    const over = ls.filter((l) => l > 3).length;
    console.log(`${what}: mean loss ${(ls.reduce((a, b) => a + b, 0) / ls.length).toFixed(2)} %, worst ${Math.max(...ls).toFixed(2)} %, ${over} of ${ls.length} rows over 3 %`);
  }
}

async function main(): Promise<void> {
  const parts = (process.env.NEST_PARTS ?? 'esicup,artwork,budgets,single').split(',');
  if (parts.includes('esicup')) await runEsicup();
  if (parts.includes('artwork')) await runArtwork();
  if (parts.includes('budgets')) await runBudgets();
  if (parts.includes('single')) await runSingle();
  if (parts.includes('converge')) await runConverge();
  if (parts.includes('pinned')) await runPinned();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
