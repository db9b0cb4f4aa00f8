/**
 * `npm run bench:labels`: film that order labels cost. A batch-like mix (realistic artwork from
 * bench/artwork.ts; many order lines of 1–4 copies, each line its own design with its own
 * labels "#<order> · i/n", as batches lay them out) is laid out on a 22 in sheet with a
 * 0.25 in gap, with and without the labels' reserved space, as rectangles ("box") and by true
 * shape ("shape"). Prints the film length of each, the ratio (with / without) and the film the
 * labels cost.
 *
 * Env: LABEL_MS (layout budget per run, default 5000), LABEL_SETS (mixes, default 2),
 * LABEL_LINES (order lines per mix, default 80).
 */
import sharp from 'sharp';
import { LayoutDesign, layoutSheets, Nesting } from '../src/gangsheet/pack/layout';
import { labelSpace, orderLabelText } from '../src/gangsheet/render/order-labels';
import { alphaMask } from '../src/gangsheet/shape/design-mask';
import { alphaBoundingBox } from '../src/gangsheet/trim';
import { Rng } from '../src/gangsheet/pack/rng';
import { KINDS, makeArtwork } from './artwork';

const MS = Number(process.env.LABEL_MS ?? 5000);
const SETS = Number(process.env.LABEL_SETS ?? 2);
const LINES = Number(process.env.LABEL_LINES ?? 80);

const pad = (v: string | number, n: number) => String(v).padStart(n);

/** A batch: `LINES` order lines over 6 artworks (3–10 in wide), 1–4 copies each; unlabelled and labelled. */
async function batch(seed: number): Promise<{ plain: LayoutDesign[]; labelled: LayoutDesign[] }> {
  const rng = new Rng(seed);
  const arts = [];
  for (let k = 0; k < 6; k++) {
    const art = makeArtwork(KINDS[rng.int(KINDS.length)], rng, 600);
    const { data, info } = await sharp(Buffer.from(art.svg)).ensureAlpha().extractChannel(3).raw().toBuffer({ resolveWithObject: true });
    const trim = alphaBoundingBox(data, info.width, info.height)!;
    arts.push({ trim, mask: alphaMask(data, info.width, trim), width: Math.round((3 + rng.next() * 7) * 4) / 4 });
  }
  const plain: LayoutDesign[] = [];
  const labelled: LayoutDesign[] = [];
  for (let i = 0; i < LINES; i++) {
    const a = arts[rng.int(arts.length)];
    const quantity = 1 + rng.int(4);
    const d: LayoutDesign = { id: `l${i}`, widthPx: a.trim.width, heightPx: a.trim.height, width: a.width, quantity, mask: a.mask };
    plain.push(d);
    const texts = Array.from({ length: quantity }, (_, c) => orderLabelText(String(5000 + i), c, quantity));
    labelled.push({ ...d, label: labelSpace(texts) });
  }
  return { plain, labelled };
}

async function main(): Promise<void> {
  const settings = { width: 22, maxLength: Infinity, gap: 0.25, margin: 0.25, dpi: 300, rotate: true };
  console.log(`## order labels: 22 in sheet, 0.25 in gap, ${LINES} order lines of 1–4 copies per mix, ${MS / 1000} s per layout`);
  console.log(`${'mix'.padEnd(5)} ${pad('copies', 6)} ${'nesting'.padEnd(7)} ${pad('plain in', 9)} ${pad('labels in', 9)} ${pad('ratio', 6)} ${pad('cost in', 8)}`);
  const totals: Record<Nesting, { plain: number; labelled: number }> = { box: { plain: 0, labelled: 0 }, shape: { plain: 0, labelled: 0 } };
  for (let s = 0; s < SETS; s++) {
    const { plain, labelled } = await batch(31 + s);
    const copies = plain.reduce((a, d) => a + d.quantity, 0);
    for (const nesting of ['box', 'shape'] as Nesting[]) {
      const a = layoutSheets(plain, { ...settings, nesting }, { timeLimitMs: MS }).totalLength;
      const b = layoutSheets(labelled, { ...settings, nesting }, { timeLimitMs: MS }).totalLength;
      totals[nesting].plain += a;
      totals[nesting].labelled += b;
      console.log(`${String(s + 1).padEnd(5)} ${pad(copies, 6)} ${nesting.padEnd(7)} ${pad(a.toFixed(1), 9)} ${pad(b.toFixed(1), 9)} ${pad((b / a).toFixed(3), 6)} ${pad((b - a).toFixed(1), 8)}`);
    }
  }
  for (const nesting of ['box', 'shape'] as Nesting[]) {
    const t = totals[nesting];
    console.log(`all   ${pad('', 6)} ${nesting.padEnd(7)} ${pad(t.plain.toFixed(1), 9)} ${pad(t.labelled.toFixed(1), 9)} ${pad((t.labelled / t.plain).toFixed(3), 6)} ${pad((t.labelled - t.plain).toFixed(1), 8)}`);
  }
}

void main();
