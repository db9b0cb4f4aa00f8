/**
 * Render benchmark: the same layout rendered by our banded renderer and by a naive single
 * `sharp().composite([...all copies])`, each in its own child process (so peak RSS is
 * that renderer's alone), then both PNGs decoded and their raw pixels hashed.
 *
 *   npm run bench:render                      # 22 x ~200 in at 300 DPI, ~1000 copies
 *   RENDER_LENGTH=40 npm run bench:render     # smaller sheet
 */
import { spawnSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Writable } from 'stream';
import sharp from 'sharp';
import { layoutSheets, LayoutResult } from '../src/gangsheet/pack/layout';
import { Rng } from '../src/gangsheet/pack/rng';
import { renderSheets } from '../src/gangsheet/render/render-sheet';
import { DesignInfo, inspectDesign } from '../src/gangsheet/trim';

const DPI = 300;
const LENGTH = Number(process.env.RENDER_LENGTH ?? 200);
const WORK = process.env.RENDER_WORK ?? path.join(os.tmpdir(), 'gangsheet-render-bench');

interface Plan {
  root: string;
  designs: { id: string; path: string; info: DesignInfo }[];
  layout: LayoutResult;
}

/** Synthetic artwork: soft-edged shapes with gradients and partial transparency. */
async function makeDesigns(root: string, count: number): Promise<{ id: string; file: string }[]> {
  const rng = new Rng(7);
  const out = [];
  for (let i = 0; i < count; i++) {
    const w = 600 + rng.int(900);
    const h = Math.round(w * (0.5 + rng.next()));
    const hue = rng.int(360);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
      <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="hsl(${hue},80%,50%)"/><stop offset="1" stop-color="hsl(${(hue + 120) % 360},70%,40%)" stop-opacity="0.6"/>
      </linearGradient></defs>
      <ellipse cx="${w / 2}" cy="${h / 2}" rx="${w * 0.45}" ry="${h * 0.4}" fill="url(#g)"/>
      <rect x="${w * 0.2}" y="${h * 0.3}" width="${w * 0.6}" height="${h * 0.25}" fill="hsl(${(hue + 200) % 360},60%,60%)" fill-opacity="0.85"/>
      <text x="${w * 0.25}" y="${h * 0.7}" font-size="${w / 8}" fill="#222">DESIGN ${i}</text></svg>`;
    const file = `d${i}.png`;
    await sharp(Buffer.from(svg)).png().toFile(path.join(root, file));
    out.push({ id: `d${i}`, file });
  }
  return out;
}

async function plan(): Promise<Plan> {
  const root = path.join(WORK, 'root');
  fs.rmSync(WORK, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  const files = await makeDesigns(root, 12);
  const designs = [];
  for (const f of files) designs.push({ id: f.id, path: f.file, info: await inspectDesign(f.file, { root }) });
  // about 1000 copies of 1.5–3 in designs fill 22 x 200 in; scale the count with LENGTH
  const rng = new Rng(11);
  const total = Math.round((1000 * LENGTH) / 200);
  const widths = designs.map(() => 1.5 + rng.int(7) * 0.25);
  const layout = layoutSheets(
    designs.map((d, i) => ({
      id: d.id,
      widthPx: d.info.trim.width,
      heightPx: d.info.trim.height,
      width: widths[i],
      quantity: Math.floor(total / designs.length) + (i < total % designs.length ? 1 : 0),
    })),
    { width: 22, gap: 0.125, margin: 0.25, dpi: DPI, rotate: true },
    { timeLimitMs: 1500 },
  );
  const p: Plan = { root, designs, layout };
  fs.writeFileSync(path.join(WORK, 'plan.json'), JSON.stringify(p));
  return p;
}

async function childOurs(): Promise<object> {
  const p: Plan = JSON.parse(fs.readFileSync(path.join(WORK, 'plan.json'), 'utf8'));
  const t0 = performance.now();
  const [r] = await renderSheets({
    sheets: p.layout.sheets,
    designs: p.designs.map((d) => ({ id: d.id, path: d.path, ...d.info })),
    dpi: DPI,
    root: p.root,
    output: () => ({ png: path.join(WORK, 'ours.png'), preview: path.join(WORK, 'ours.webp') }),
    compressionLevel: process.env.RENDER_LEVEL ? Number(process.env.RENDER_LEVEL) : undefined,
  });
  return { seconds: (performance.now() - t0) / 1000, bytes: r.bytes, maxRssMb: process.resourceUsage().maxRSS / 1024 };
}

function rotateClockwise(src: Buffer, w: number, h: number): Buffer {
  const out = Buffer.alloc(src.length);
  const s = new Uint32Array(src.buffer, src.byteOffset, w * h);
  const d = new Uint32Array(out.buffer, out.byteOffset, w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) d[x * h + (h - 1 - y)] = s[y * w + x];
  return out;
}

/** The naive way: resample each (design, size) the same way, then one big composite. */
async function childNaive(): Promise<object> {
  sharp.cache(false);
  const p: Plan = JSON.parse(fs.readFileSync(path.join(WORK, 'plan.json'), 'utf8'));
  const sheet = p.layout.sheets[0];
  const t0 = performance.now();
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
    .toFile(path.join(WORK, 'naive.png'));
  return { seconds: (performance.now() - t0) / 1000, bytes: fs.statSync(path.join(WORK, 'naive.png')).size, maxRssMb: process.resourceUsage().maxRSS / 1024 };
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

function runChild(mode: string): any {
  const r = spawnSync(process.execPath, [require.resolve('ts-node/dist/bin'), '--transpile-only', __filename, mode], {
    encoding: 'utf8',
    env: { ...process.env, RENDER_WORK: WORK },
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0 || !r.stdout.trim()) return { error: (r.stderr || r.stdout || `exit ${r.status} ${r.error ?? ''}`).split('\n').slice(0, 5).join(' ') };
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode === 'child-ours' || mode === 'child-naive') {
    const res = mode === 'child-ours' ? await childOurs() : await childNaive();
    process.stdout.write(JSON.stringify(res) + '\n');
    return;
  }
  const p = await plan();
  const s = p.layout.sheets[0];
  console.log(`sheet ${s.widthPx} x ${s.lengthPx} px (22 x ${s.length.toFixed(1)} in at ${DPI} DPI), ${s.placements.length} copies of ${p.designs.length} designs, ${p.layout.sheets.length} sheet(s)`);
  const ours = runChild('child-ours');
  console.log(`ours : ${JSON.stringify(ours)}`);
  const naive = runChild('child-naive');
  console.log(`naive: ${JSON.stringify(naive)}`);
  if (ours.error || naive.error) {
    console.log('a renderer failed; no comparison');
    process.exitCode = 1;
    return;
  }
  const [ho, hn] = [await rawHash(path.join(WORK, 'ours.png')), await rawHash(path.join(WORK, 'naive.png'))];
  const meta = await sharp(path.join(WORK, 'ours.png'), { limitInputPixels: false }).metadata();
  console.log(`pixels identical: ${ho === hn ? 'yes' : 'NO'} (sha256 of decoded RGBA ${ho.slice(0, 16)}… vs ${hn.slice(0, 16)}…)`);
  console.log(`ours: ${meta.width}x${meta.height} ${meta.channels} ch, ${meta.space}, density ${meta.density}`);
  console.log(`speed: ours ${ours.seconds.toFixed(2)} s vs naive ${naive.seconds.toFixed(2)} s -> ${(naive.seconds / ours.seconds).toFixed(2)}x faster`);
  console.log(`peak RSS: ours ${ours.maxRssMb.toFixed(0)} MB (whole child process incl. ts-node), naive ${naive.maxRssMb.toFixed(0)} MB`);
  console.log(`file size: ours ${(ours.bytes / 1e6).toFixed(1)} MB, naive ${(naive.bytes / 1e6).toFixed(1)} MB`);
  if (ho !== hn) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
