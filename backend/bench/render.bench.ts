/**
 * Render benchmark on realistic artwork: 20 designs (flat vector-style art and photo-like
 * art in rounded transparent masks), 680 copies over sheets of 22 x 200 in at 300 DPI.
 * Each renderer runs in its own child process (so peak RSS is that renderer's alone):
 *   ours  - renderSheets, PNG (default filter and level)
 *   old   - renderSheets with the previous encoding (filter 0, zlib 6), for before/after
 *   naive - one sharp().composite() per sheet of the same placements (sharp's PNG defaults)
 *   pdf   - renderSheets, PDF only
 *   s3    - ours, the sheets streamed into a bucket of an S3-compatible server (the app's
 *           S3 driver with its default settings, or STORAGE_S3_* from the environment, and
 *           the upload batch), for the storage drivers' side-by-side figure
 *   s3signed, s3unsigned - s3 with STORAGE_S3_SIGN_PAYLOADS=true / false (payload SHA-256
 *           signed or UNSIGNED-PAYLOAD, whatever the endpoint's scheme)
 *   s3wait - s3 with each file's upload completed before the next file starts (the baseline
 *           of the upload batch)
 *   s3sdk - s3 with the writes sent through the AWS SDK's S3 client (as without static keys)
 *           instead of the driver's signed requests (SignedUploads), which never load the SDK
 *   s3@5x1 (any s3 mode) - with parts of 5 MB, one in flight (STORAGE_S3_PART_SIZE_MB and
 *           STORAGE_S3_QUEUE_SIZE for that child), to compare part sizes in one run
 * then every PNG is decoded and the raw RGBA hashed (ours vs naive, sheet by sheet).
 *
 *   npm run bench:render                               # full scale
 *   RENDER_LENGTH=50 npm run bench:render              # sheets of 22 x 50 in, copies scaled down alike
 *   RENDER_LARGE=1 npm run bench:render                # every design 9-11 in wide (memory check)
 *   RENDER_MODES=ours,pdf RENDER_FILTER=adaptive RENDER_LEVEL=4 npm run bench:render
 *   RENDER_MODES=ours,s3,ours,s3 npm run bench:render  # local folder vs bucket, in turns; `s3*` need
 *       the S3_TEST_* environment that test/ceph/ceph-rgw.sh start prints
 *   RENDER_MODES=ours,s3,s3:y16 npm run bench:render   # `:y16`: that renderer with V8's young generation up
 *       to 2 x 16 MB (V8's default) instead of the CPU workers' 2 x 8 MB (cpuWorkerEnv)
 *   RENDER_MEMTRACE=/tmp/trace npm run bench:render     # each renderer also writes its memory every
 *       20 ms (ms, then MB of rss, heapTotal, heapUsed, external, arrayBuffers) to /tmp/trace-<mode>-<pid>.json
 * Peak RSS is the kernel's high-water mark of each child (VmHWM), read the same way on every
 * mode; it varies by 10-20 MB between runs of one mode, so name a mode several times and
 * compare the medians the summary prints.
 */
import { spawnSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Writable } from 'stream';
import * as v8 from 'v8';
import * as zlib from 'zlib';
import sharp from 'sharp';
import { layoutSheets, LayoutResult } from '../src/gangsheet/pack/layout';
import { Rng } from '../src/gangsheet/pack/rng';
import { PngFilter } from '../src/gangsheet/render/png-writer';
import { renderSheets } from '../src/gangsheet/render/render-sheet';
import { DesignInfo, inspectDesign } from '../src/gangsheet/trim';
import { cpuWorkerEnv, loadConfig } from '../src/config/configuration';
import type { S3ObjectStore } from '../src/storage/s3-object-store';
import { storeSink, UploadBatch } from '../src/storage/store-sink';
import { peakRssMb, procCpuSeconds } from './proc-memory';

const DPI = 300;
const LENGTH = Number(process.env.RENDER_LENGTH ?? 200);
const LARGE = process.env.RENDER_LARGE === '1';
const COPIES = Math.round((680 * LENGTH) / 200);
const MODES = (process.env.RENDER_MODES ?? 'ours,old,naive,pdf').split(',');
const WORK = process.env.RENDER_WORK ?? path.join(os.tmpdir(), 'gangsheet-render-bench');

interface Plan {
  root: string;
  designs: { id: string; path: string; info: DesignInfo }[];
  layout: LayoutResult;
}

/** Printed width (in) of design i: a few large designs and many small ones, or all large. */
function printWidth(i: number): number {
  return LARGE || i % 5 === 0 ? 9 + (i % 5) * 0.5 + (i % 3) * 0.25 : 3.5 + (i % 5) * 0.5;
}

/**
 * Realistic artwork at 300 DPI of its printed width: even designs are flat vector-style
 * (solid shapes and text, anti-aliased edges), odd ones photo-like (smooth noise over a
 * gradient, fine grain) inside a rounded transparent mask with a soft edge.
 */
async function makeDesigns(root: string, count: number): Promise<{ id: string; file: string }[]> {
  const rng = new Rng(7);
  const out = [];
  for (let i = 0; i < count; i++) {
    const w = Math.round(printWidth(i) * DPI);
    const h = Math.round(w * (0.6 + rng.next() * 0.5));
    const hue = rng.int(360);
    const file = `d${i}.png`;
    out.push({ id: `d${i}`, file });
    if (fs.existsSync(path.join(root, file))) continue;
    if (i % 2 === 0) {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
        <rect x="${w * 0.02}" y="${h * 0.02}" width="${w * 0.96}" height="${h * 0.96}" rx="${w * 0.08}" fill="hsl(${hue},75%,55%)"/>
        <circle cx="${w * 0.3}" cy="${h * 0.45}" r="${h * 0.28}" fill="hsl(${(hue + 150) % 360},70%,35%)"/>
        <polygon points="${w * 0.55},${h * 0.8} ${w * 0.75},${h * 0.15} ${w * 0.95},${h * 0.8}" fill="#fff"/>
        <text x="${w * 0.08}" y="${h * 0.92}" font-family="sans-serif" font-weight="bold" font-size="${h / 7}" fill="#111">DESIGN ${i}</text></svg>`;
      await sharp(Buffer.from(svg)).png().toFile(path.join(root, file));
    } else {
      const texture = await sharp({ create: { width: Math.ceil(w / 8), height: Math.ceil(h / 8), channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
        .blur(1.5)
        .resize(w, h, { kernel: 'cubic' })
        .png()
        .toBuffer();
      const grain = await sharp({ create: { width: w, height: h, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 6 } } }).png().toBuffer();
      const tint = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="hsl(${hue},70%,45%)"/><stop offset="1" stop-color="hsl(${(hue + 90) % 360},60%,60%)"/></linearGradient></defs>
        <rect width="${w}" height="${h}" fill="url(#g)"/></svg>`);
      const mask = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><filter id="f"><feGaussianBlur stdDeviation="${w / 300}"/></filter></defs>
        <rect x="${w * 0.03}" y="${h * 0.03}" width="${w * 0.94}" height="${h * 0.94}" rx="${w * 0.1}" fill="#fff" filter="url(#f)"/></svg>`);
      const photo = await sharp(tint)
        .composite([
          { input: texture, blend: 'soft-light' },
          { input: grain, blend: 'overlay' },
        ])
        .png()
        .toBuffer();
      await sharp(photo).ensureAlpha().composite([{ input: mask, blend: 'dest-in' }]).png().toFile(path.join(root, file));
    }
  }
  return out;
}

async function plan(): Promise<Plan> {
  const root = path.join(WORK, `root-${LARGE ? 'large' : 'mixed'}`);
  for (const f of fs.existsSync(WORK) ? fs.readdirSync(WORK) : []) if (!f.startsWith('root-')) fs.rmSync(path.join(WORK, f), { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  const files = await makeDesigns(root, 20);
  const designs = [];
  for (const f of files) designs.push({ id: f.id, path: f.file, info: await inspectDesign(f.file, { root }) });
  const layout = layoutSheets(
    designs.map((d, i) => ({
      id: d.id,
      widthPx: d.info.trim.width,
      heightPx: d.info.trim.height,
      width: printWidth(i),
      quantity: Math.floor(COPIES / designs.length) + (i < COPIES % designs.length ? 1 : 0),
    })),
    { width: 22, maxLength: LENGTH, gap: 0.125, margin: 0.25, dpi: DPI, rotate: true },
    { timeLimitMs: 3000 },
  );
  const p: Plan = { root, designs, layout };
  fs.writeFileSync(path.join(WORK, 'plan.json'), JSON.stringify(p));
  return p;
}

const sheetFile = (kind: string, i: number, ext = 'png') => path.join(WORK, `${kind}-${i}.${ext}`);

/**
 * The bench's bucket on the S3-compatible server of S3_TEST_* (a fresh key prefix per run),
 * with the app's driver settings: its defaults, or STORAGE_S3_* from the environment;
 * `signPayloads` overrides STORAGE_S3_SIGN_PAYLOADS (modes s3signed, s3unsigned).
 */
async function benchBucket(signPayloads?: 'true' | 'false', uploads?: 'sdk'): Promise<S3ObjectStore> {
  // loaded here only: a renderer on the local folder never loads the S3 driver, as in the app's
  // workers (and the driver loads the AWS SDK only for what its writes do not need)
  const { S3ObjectStore } = await import('../src/storage/s3-object-store');
  const endpoint = process.env.S3_TEST_ENDPOINT;
  const accessKeyId = process.env.S3_TEST_ACCESS_KEY_ID;
  const secretAccessKey = process.env.S3_TEST_SECRET_ACCESS_KEY;
  if (!endpoint || !accessKeyId || !secretAccessKey) throw new Error('mode s3 needs S3_TEST_ENDPOINT/ACCESS_KEY_ID/SECRET_ACCESS_KEY (eval "$(bash test/ceph/ceph-rgw.sh start)")');
  const { storage } = loadConfig({
    ...process.env,
    DATA_DIR: WORK,
    STORAGE_DRIVER: 's3',
    STORAGE_S3_BUCKET: 'gangsheet-bench',
    STORAGE_S3_ENDPOINT: endpoint,
    STORAGE_S3_REGION: process.env.S3_TEST_REGION ?? 'us-east-1',
    STORAGE_S3_ACCESS_KEY_ID: accessKeyId,
    STORAGE_S3_SECRET_ACCESS_KEY: secretAccessKey,
    STORAGE_S3_PREFIX: `render-${process.pid}/`,
    ...(signPayloads ? { STORAGE_S3_SIGN_PAYLOADS: signPayloads } : {}),
  });
  return new S3ObjectStore({ ...storage.s3!, ...(uploads ? { uploads } : {}) });
}

/** The bench's bucket exists (made by the parent, so no renderer loads the SDK for it). */
async function createBenchBucket(): Promise<void> {
  const { S3Client, CreateBucketCommand } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint: process.env.S3_TEST_ENDPOINT,
    region: process.env.S3_TEST_REGION ?? 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: process.env.S3_TEST_ACCESS_KEY_ID ?? '', secretAccessKey: process.env.S3_TEST_SECRET_ACCESS_KEY ?? '' },
  });
  await client.send(new CreateBucketCommand({ Bucket: 'gangsheet-bench' })).catch((e) => {
    if (e.name !== 'BucketAlreadyOwnedByYou' && e.name !== 'BucketAlreadyExists') throw e;
  });
  client.destroy();
}

type RenderKind = 'ours' | 'old' | 'pdf' | 's3' | 's3signed' | 's3unsigned' | 's3wait' | 's3sdk';

/** renderSheets for every sheet: PNG (ours, the old encoding, or ours into a bucket) or PDF. */
async function childRender(mode: string): Promise<object> {
  // `s3@5x1`: mode s3 with 5 MB parts, one in flight (STORAGE_S3_PART_SIZE_MB, _QUEUE_SIZE), so
  // part sizes can take turns with the defaults in one run
  const [kind, tune] = mode.split('@') as [RenderKind, string | undefined];
  const m = tune ? /^(\d+)x(\d+)$/.exec(tune) : null;
  if (tune && !m) throw new Error(`mode ${mode}: the tuning is <part MB>x<parts in flight>`);
  if (m) Object.assign(process.env, { STORAGE_S3_PART_SIZE_MB: m[1], STORAGE_S3_QUEUE_SIZE: m[2] });
  const p: Plan = JSON.parse(fs.readFileSync(path.join(WORK, 'plan.json'), 'utf8'));
  const store = kind.startsWith('s3')
    ? await benchBucket(kind === 's3signed' ? 'true' : kind === 's3unsigned' ? 'false' : undefined, kind === 's3sdk' ? 'sdk' : undefined)
    : undefined;
  const batch = store && kind !== 's3wait' ? new UploadBatch(store) : undefined;
  const t0 = performance.now();
  const trace: number[][] = [];
  const memTimer = process.env.RENDER_MEMTRACE ? setInterval(() => {
    const m = process.memoryUsage();
    trace.push([Math.round(performance.now() - t0), ...[m.rss, m.heapTotal, m.heapUsed, m.external, m.arrayBuffers].map((b) => Math.round(b / 1e5) / 10)]);
  }, 20) : undefined;
  let prepared = 0;
  const res = await renderSheets({
    open: batch ? async (key, contentType) => batch.sink(key, contentType) : store ? async (key, contentType) => storeSink(store, key, contentType) : undefined,
    onProgress: (e) => {
      if (e.stage !== 'prepare' && !prepared) prepared = performance.now();
    },
    sheets: p.layout.sheets,
    designs: p.designs.map((d) => ({ id: d.id, path: d.path, ...d.info })),
    dpi: DPI,
    root: p.root,
    output: (i) => (kind === 'pdf' ? { pdf: sheetFile(kind, i, 'pdf') } : store ? { png: `sheet-${i}.png` } : { png: sheetFile(kind, i) }),
    ...(kind === 'old'
      ? { pngFilter: 'none' as const, compressionLevel: 6, pngStrategy: zlib.constants.Z_DEFAULT_STRATEGY }
      : {
          pngFilter: process.env.RENDER_FILTER as PngFilter | undefined,
          compressionLevel: process.env.RENDER_LEVEL ? Number(process.env.RENDER_LEVEL) : undefined,
          pngStrategy: process.env.RENDER_STRATEGY ? Number(process.env.RENDER_STRATEGY) : undefined,
        }),
  });
  await batch?.settle();
  const seconds = (performance.now() - t0) / 1000;
  if (memTimer) {
    clearInterval(memTimer);
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((sp) => [sp.space_name, Math.round(sp.space_size / 1e5) / 10]));
    fs.writeFileSync(`${process.env.RENDER_MEMTRACE}-${mode}-${process.pid}.json`, JSON.stringify({ trace, spaces }));
  }
  // the peak of the render itself: what follows (checking the bucket) may load the AWS SDK
  const maxRssMb = peakRssMb();
  let stored: number | undefined;
  if (store) {
    stored = 0;
    for (const r of res) stored += (await store.head(r.path))?.size ?? 0;
    await store.deletePrefix('sheet-');
    store.close();
  }
  return {
    seconds,
    prepareSeconds: (prepared - t0) / 1000,
    bytes: res.reduce((a, r) => a + r.bytes, 0),
    ...(stored === undefined ? {} : { storedBytes: stored }),
    cpuSeconds: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
    maxRssMb,
  };
}

function rotateClockwise(src: Buffer, w: number, h: number): Buffer {
  const out = Buffer.alloc(src.length);
  const s = new Uint32Array(src.buffer, src.byteOffset, w * h);
  const d = new Uint32Array(out.buffer, out.byteOffset, w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) d[x * h + (h - 1 - y)] = s[y * w + x];
  return out;
}

async function childNaive(): Promise<object> {
  sharp.cache(false);
  const p: Plan = JSON.parse(fs.readFileSync(path.join(WORK, 'plan.json'), 'utf8'));
  const t0 = performance.now();
  let bytes = 0;
  for (const sheet of p.layout.sheets) bytes += await naiveSheet(p, sheet);
  return { seconds: (performance.now() - t0) / 1000, bytes, maxRssMb: peakRssMb() };
}

/** One sheet the naive way: resample each (design, size) like we do, then one composite. */
async function naiveSheet(p: Plan, sheet: LayoutResult['sheets'][number]): Promise<number> {
  const byId = new Map(p.designs.map((d) => [d.id, d]));
  const rasters = new Map<string, Buffer>();
  const overlays: NonNullable<Parameters<ReturnType<typeof sharp>['composite']>[0]> = [];
  for (const c of sheet.placements) {
    const [w, h] = c.rotated ? [c.px.height, c.px.width] : [c.px.width, c.px.height];
    const key = `${c.designId}|${w}x${h}|${c.rotated ? 90 : 0}`;
    let buf = rasters.get(key);
    if (!buf) {
      const d = byId.get(c.designId)!;
      const t = d.info.trim;
      let img = sharp(path.join(p.root, d.path)).autoOrient();
      if (!(t.left === 0 && t.top === 0 && t.width === d.info.widthPx && t.height === d.info.heightPx)) img = img.extract(t);
      const up = await img.resize(w, h, { fit: 'fill', kernel: 'lanczos3' }).toColourspace('srgb').ensureAlpha().raw().toBuffer();
      buf = c.rotated ? rotateClockwise(up, w, h) : up;
      rasters.set(key, buf);
    }
    overlays.push({ input: buf, raw: { width: c.px.width, height: c.px.height, channels: 4 }, left: c.px.x, top: c.px.y });
  }
  await sharp({ create: { width: sheet.widthPx, height: sheet.lengthPx, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } }, limitInputPixels: false })
    .composite(overlays)
    .png({ compressionLevel: 6 })
    .withMetadata({ density: DPI })
    .toFile(sheetFile('naive', sheet.index));
  return fs.statSync(sheetFile('naive', sheet.index)).size;
}

async function rawHash(file: string): Promise<string> {
  const h = crypto.createHash('sha256');
  const sink = new Writable({
    write(chunk, _e, cb) {
      h.update(chunk);
      cb();
    },
  });
  await new Promise<void>((resolve, reject) => {
    sharp(file, { limitInputPixels: false, sequentialRead: true }).ensureAlpha().raw().pipe(sink).on('finish', resolve).on('error', reject);
  });
  return h.digest('hex');
}

/**
 * This bench compiled to JavaScript, as the app runs in production: under ts-node a child
 * would carry the TypeScript compiler (~90 MB) in its peak RSS. Compiled next to the sources
 * so the build finds node_modules.
 */
function compileSelf(): string {
  const out = path.join(__dirname, '..', '.bench-build');
  fs.rmSync(out, { recursive: true, force: true });
  const r = spawnSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), __filename, '--outDir', out, '--rootDir', path.join(__dirname, '..'), '--module', 'commonjs', '--target', 'es2022',
      '--esModuleInterop', '--skipLibCheck', '--experimentalDecorators', '--emitDecoratorMetadata', '--noCheck'],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`could not compile the bench: ${r.stdout}${r.stderr}`);
  return path.join(out, 'bench', 'render.bench.js');
}

let compiled: string | undefined;

/**
 * Runs one renderer in its own process, compiled, with the environment the app's CPU workers
 * get (cpuWorkerEnv: two malloc arenas), so time and peak RSS are what a print job sees.
 */
function runChild(mode: string): any {
  compiled ??= compileSelf();
  // `s3:y16` (any mode): V8's young generation as large as its own default allows (2 x 16 MB)
  // instead of the CPU workers' 2 x 8 MB, to compare the two in one run
  const [kind, young] = mode.split(':y');
  const env = cpuWorkerEnv({ ...process.env, ...(young ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-semi-space-size=${Number(young)}` } : {}) });
  const r = spawnSync(process.execPath, [compiled, kind], {
    encoding: 'utf8',
    env: { ...env, RENDER_WORK: WORK },
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0 || !r.stdout.trim()) return { error: (r.stderr || r.stdout || `exit ${r.status} ${r.error ?? ''}`).split('\n').slice(0, 5).join(' ') };
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode?.startsWith('child-')) {
    const kind = mode.slice(6);
    const res = kind === 'naive' ? await childNaive() : await childRender(kind);
    process.stdout.write(JSON.stringify(res) + '\n');
    return;
  }
  const p = await plan();
  const sheets = p.layout.sheets;
  const copies = sheets.reduce((a, s) => a + s.placements.length, 0);
  console.log(
    `${sheets.length} sheet(s) of 22 x ${sheets.map((s) => s.length.toFixed(1)).join(' / ')} in at ${DPI} DPI, ${copies} copies of ${p.designs.length} designs ` +
      `(${LARGE ? 'all 9-11 in wide' : 'mixed 3.5-11 in'}), load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
  );
  if (MODES.some((m) => m.startsWith('s3')) && process.env.S3_TEST_ENDPOINT) await createBenchBucket();
  const results: Record<string, any> = {};
  // a mode named twice runs twice (in the order given, so two modes can take turns)
  const runs: Record<string, any[]> = {};
  // the S3 server's own daemons, when they run on this machine (test/ceph/ceph-rgw.sh writes
  // their pid files): the CPU they take from the renderer on the same cores
  const cephDir = process.env.CEPH_DIR ?? '/tmp/gangsheet-ceph';
  const gateway = ['rgw', 'osd', 'mon'].map((d) => Number(fs.existsSync(`${cephDir}/${d}.pid`) ? fs.readFileSync(`${cephDir}/${d}.pid`, 'utf8') : NaN)).filter((pid) => procCpuSeconds(pid) !== null);
  const gatewayCpu = () => gateway.reduce((a, pid) => a + (procCpuSeconds(pid) ?? 0), 0);
  for (const m of MODES) {
    const before = gatewayCpu();
    results[m] = runChild(`child-${m}`);
    if (gateway.length && !results[m].error) results[m].serverCpuSeconds = +(gatewayCpu() - before).toFixed(1);
    (runs[m] ??= []).push(results[m]);
    console.log(`${m.padEnd(5)}: ${JSON.stringify(results[m])}`);
  }
  if (Object.values(runs).flat().some((r) => r.error)) {
    console.log('a renderer failed; no comparison');
    process.exitCode = 1;
    return;
  }
  const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
  const { ours, naive, old, pdf, s3, s3wait } = results;
  if (ours && naive) {
    let same = true;
    for (const s of sheets) same = same && (await rawHash(sheetFile('ours', s.index))) === (await rawHash(sheetFile('naive', s.index)));
    console.log(`PNG decoded RGBA identical to naive, every sheet: ${same ? 'yes' : 'NO'}`);
    if (!same) process.exitCode = 1;
    console.log(`PNG ours vs naive: ${(naive.seconds / ours.seconds).toFixed(2)}x faster (${ours.seconds.toFixed(1)} s vs ${naive.seconds.toFixed(1)} s), ` +
      `${(ours.bytes / naive.bytes).toFixed(3)}x the bytes (${mb(ours.bytes)} vs ${mb(naive.bytes)}), peak RSS ${ours.maxRssMb.toFixed(0)} vs ${naive.maxRssMb.toFixed(0)} MB`);
  }
  if (ours && old)
    console.log(`PNG ours vs old encoding (filter 0, zlib 6): ${(old.seconds / ours.seconds).toFixed(2)}x faster, ${(ours.bytes / old.bytes).toFixed(3)}x the bytes (${mb(old.bytes)})`);
  if (pdf)
    console.log(`PDF: ${pdf.seconds.toFixed(1)} s, ${mb(pdf.bytes)}${ours ? ` = ${(pdf.bytes / ours.bytes).toFixed(4)}x our PNG bytes` : ''}, peak RSS ${pdf.maxRssMb.toFixed(0)} MB`);
  const mean = (m: string, f: (r: any) => number) => runs[m].reduce((a, r) => a + f(r), 0) / runs[m].length;
  const median = (xs: number[]) => {
    const v = [...xs].sort((a, b) => a - b);
    return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  };
  if (ours) {
    const buckets = Object.keys(runs).filter((k) => k.startsWith('s3') && k !== 's3wait');
    if (buckets.length || runs.ours.length > 1) {
      // every run, then the medians: one run's peak is not enough to tell two modes apart
      console.log('mode        | seconds per run        | renderer CPU s per run | peak RSS MB per run    | median s | median CPU s | median peak MB | time vs local');
      for (const m of ['ours', ...Object.keys(runs).filter((k) => k.startsWith('ours:')), ...buckets]) {
        const list = (f: (r: any) => number, d: number) => runs[m].map((r) => f(r).toFixed(d)).join(' / ').padEnd(22);
        const med = (f: (r: any) => number) => median(runs[m].map(f));
        console.log(
          `${m.padEnd(11)} | ${list((r) => r.seconds, 2)} | ${list((r) => r.cpuSeconds, 1)} | ${list((r) => r.maxRssMb, 0)} | ${med((r) => r.seconds).toFixed(2).padStart(8)} | ` +
            `${med((r) => r.cpuSeconds).toFixed(1).padStart(12)} | ${med((r) => r.maxRssMb).toFixed(0).padStart(14)} | ${(med((r) => r.seconds) / median(runs.ours.map((r) => r.seconds))).toFixed(2)}x`,
        );
      }
    }
    for (const m of buckets) {
      const peak = (k: string) => median(runs[k].map((r) => r.maxRssMb));
      console.log(`PNG into the bucket (${m}) vs the local folder: ${(mean(m, (r) => r.seconds) / mean('ours', (r) => r.seconds)).toFixed(2)}x the time ` +
        `(${mean(m, (r) => r.seconds).toFixed(2)} s vs ${mean('ours', (r) => r.seconds).toFixed(2)} s, mean of ${runs[m].length} and ${runs.ours.length} runs), ` +
        `renderer CPU ${mean(m, (r) => r.cpuSeconds).toFixed(1)} vs ${mean('ours', (r) => r.cpuSeconds).toFixed(1)} s, gateway CPU ${mean(m, (r) => r.serverCpuSeconds ?? 0).toFixed(1)} s, ` +
        `median peak RSS ${peak(m).toFixed(0)} vs ${peak('ours').toFixed(0)} MB (${(peak(m) - peak('ours')).toFixed(0)} MB)`);
      for (const r of runs[m]) if (r.storedBytes !== r.bytes) {
        console.log(`${m}: stored ${mb(r.storedBytes)} of ${mb(r.bytes)} written`);
        process.exitCode = 1;
      }
    }
  }
  if (s3 && s3wait) {
    const total = (m: string) => runs[m].reduce((a, r) => a + r.seconds, 0) / runs[m].length;
    console.log(`upload batch vs each upload awaited: ${(total('s3') / total('s3wait')).toFixed(2)}x the time (${total('s3').toFixed(1)} s vs ${total('s3wait').toFixed(1)} s)`);
    if (s3wait.storedBytes !== s3wait.bytes) process.exitCode = 1;
  }
  console.log(`peak RSS is the whole child process (compiled JavaScript, as in production); load at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
