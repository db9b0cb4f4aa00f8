/**
 * Seeded generator of realistic irregular DTF artwork: rings, stars, hearts, crescents,
 * arrows, text-like blobs and photos in rounded masks, as SVG with transparency (rasterised
 * by sharp into PNGs with anti-aliased alpha edges, as uploads look).
 */
import sharp from 'sharp';
import { Rng } from '../src/gangsheet/pack/rng';
import { alphaBoundingBox } from '../src/gangsheet/trim';

export const KINDS = ['ring', 'star', 'heart', 'crescent', 'arrow', 'text', 'photo', 'badge'] as const;
export type Kind = (typeof KINDS)[number];

export interface Artwork {
  kind: Kind;
  /** Canvas size in px; the art fills it up to a few px of transparent border. */
  width: number;
  height: number;
  svg: string;
}

const col = (rng: Rng) => `hsl(${rng.int(360)},${50 + rng.int(40)}%,${30 + rng.int(40)}%)`;

function star(cx: number, cy: number, ro: number, ri: number, n: number, rot: number): string {
  const pts: string[] = [];
  for (let i = 0; i < 2 * n; i++) {
    const r = i % 2 ? ri : ro;
    const a = rot + (i * Math.PI) / n - Math.PI / 2;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(' ');
}

/** One design of the given kind, `size` px on its longer side. */
export function makeArtwork(kind: Kind, rng: Rng, size = 1200): Artwork {
  const c = col(rng);
  const c2 = col(rng);
  const w = size;
  let h = size;
  let body = '';
  switch (kind) {
    case 'ring': {
      const ro = size / 2 - 4;
      const ri = ro * (0.45 + rng.next() * 0.25);
      body = `<path fill-rule="evenodd" fill="${c}" d="M ${size / 2 - ro} ${size / 2} a ${ro} ${ro} 0 1 0 ${2 * ro} 0 a ${ro} ${ro} 0 1 0 ${-2 * ro} 0 Z M ${size / 2 - ri} ${size / 2} a ${ri} ${ri} 0 1 0 ${2 * ri} 0 a ${ri} ${ri} 0 1 0 ${-2 * ri} 0 Z"/>`;
      break;
    }
    case 'star': {
      const n = 5 + rng.int(3);
      body = `<polygon fill="${c}" points="${star(size / 2, size / 2 + size * 0.04, size / 2 - 4, size * (0.2 + rng.next() * 0.08), n, 0)}"/>`;
      break;
    }
    case 'heart': {
      const s = size / 100;
      body = `<path fill="${c}" transform="scale(${s})" d="M50 92 C 20 70 2 52 2 30 C 2 14 14 3 28 3 C 38 3 46 9 50 17 C 54 9 62 3 72 3 C 86 3 98 14 98 30 C 98 52 80 70 50 92 Z"/>`;
      break;
    }
    case 'crescent': {
      const r = size / 2 - 4;
      const off = r * (0.35 + rng.next() * 0.25);
      body = `<mask id="m"><rect width="${size}" height="${size}" fill="white"/><circle cx="${size / 2 + off}" cy="${size / 2 - off * 0.3}" r="${r * 0.9}" fill="black"/></mask><circle mask="url(#m)" cx="${size / 2}" cy="${size / 2}" r="${r}" fill="${c}"/>`;
      break;
    }
    case 'arrow': {
      h = Math.round(size * (0.35 + rng.next() * 0.2));
      const t = h * 0.32;
      body = `<polygon fill="${c}" points="4,${h / 2 - t / 2} ${w * 0.62},${h / 2 - t / 2} ${w * 0.62},4 ${w - 4},${h / 2} ${w * 0.62},${h - 4} ${w * 0.62},${h / 2 + t / 2} 4,${h / 2 + t / 2}"/>`;
      break;
    }
    case 'text': {
      // a word of rounded letter blobs of varying height, on a slight arc
      const letters = 4 + rng.int(5);
      h = Math.round(size * (0.3 + rng.next() * 0.15));
      const lw = (w - 8) / letters;
      for (let i = 0; i < letters; i++) {
        const lh = h * (0.55 + rng.next() * 0.4);
        const y = (h - lh) / 2 + Math.sin((i / letters) * Math.PI) * -h * 0.05 + h * 0.02;
        body += `<rect x="${(4 + i * lw + lw * 0.08).toFixed(1)}" y="${Math.max(3, y).toFixed(1)}" width="${(lw * 0.84).toFixed(1)}" height="${Math.min(h - 6, lh).toFixed(1)}" rx="${(lw * 0.3).toFixed(1)}" fill="${i % 2 ? c : c2}"/>`;
      }
      break;
    }
    case 'photo': {
      h = Math.round(size * (0.65 + rng.next() * 0.35));
      const r = Math.min(w, h) * (0.12 + rng.next() * 0.2);
      body = `<defs><linearGradient id="g"><stop offset="0" stop-color="${c}"/><stop offset="1" stop-color="${c2}"/></linearGradient></defs><rect x="4" y="4" width="${w - 8}" height="${h - 8}" rx="${r}" fill="url(#g)"/>`;
      break;
    }
    case 'badge': {
      body = `<polygon fill="${c}" points="${star(size / 2, size / 2, size / 2 - 4, size / 2 - size * 0.07, 16, 0)}"/><circle cx="${size / 2}" cy="${size / 2}" r="${size * 0.3}" fill="${c2}"/>`;
      break;
    }
  }
  return { kind, width: w, height: h, svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body}</svg>` };
}

/** PNG bytes of an artwork (anti-aliased alpha). */
export function artworkPng(a: Artwork): Promise<Buffer> {
  return sharp(Buffer.from(a.svg)).png().toBuffer();
}

export interface ArtworkOrderDesign {
  id: string;
  art: Artwork;
  /** Printed width, inches. */
  width: number;
  quantity: number;
}

/**
 * Orders like a shop's irregular ones: 3–8 designs of 1.5–7 in, 150–400 copies in all
 * (deterministic for a seed).
 */
export function artworkOrders(count: number, seed = 14): { name: string; designs: ArtworkOrderDesign[] }[] {
  const rng = new Rng(seed);
  const orders = [];
  for (let o = 0; o < count; o++) {
    const kinds = 3 + rng.int(6);
    const total = 150 + rng.int(251);
    const weights = Array.from({ length: kinds }, () => 0.2 + rng.next());
    const sum = weights.reduce((a, b) => a + b, 0);
    const designs: ArtworkOrderDesign[] = [];
    let left = total;
    for (let k = 0; k < kinds; k++) {
      const kind = KINDS[rng.int(KINDS.length)];
      const quantity = k === kinds - 1 ? Math.max(1, left) : Math.max(1, Math.round((total * weights[k]) / sum));
      left -= quantity;
      designs.push({ id: `a${o}d${k}`, art: makeArtwork(kind, rng), width: Math.round((1.5 + rng.next() * 5.5) * 4) / 4, quantity });
    }
    orders.push({ name: `art-${o + 1}`, designs });
  }
  return orders;
}

/**
 * Area in square inches of an artwork's ink (alpha > 2) printed `width` inches wide and grown
 * by `radius` inches, measured on a raster of `dpi` pixels per inch. Copies whose ink keeps a
 * gap g have disjoint inks grown by g/2, all within the film grown by g/2 at every edge, so
 * no layout of width W can be shorter than (Σ grown areas) / (W + g) − g: the area bound of
 * true-shape nesting (holes count as free, so it is not always reachable).
 */
export async function grownInkArea(a: Artwork, width: number, radius: number, dpi = 100): Promise<number> {
  const { data, info } = await sharp(Buffer.from(a.svg)).ensureAlpha().extractChannel(3).raw().toBuffer({ resolveWithObject: true });
  // the trim box, as the upload measures it
  const trim = alphaBoundingBox(data, info.width, info.height)!;
  const w = Math.max(1, Math.round(width * dpi));
  const h = Math.max(1, Math.round((width * dpi * trim.height) / trim.width));
  const alpha = await sharp(Buffer.from(a.svg))
    .extract(trim)
    .resize(w, h, { fit: 'fill' })
    .ensureAlpha()
    .extractChannel(3)
    .raw()
    .toBuffer();
  const r = radius * dpi;
  const pad = Math.ceil(r);
  const W = w + 2 * pad;
  const grown = new Uint8Array(W * (h + 2 * pad));
  const disk: number[] = [];
  for (let dy = -pad; dy <= pad; dy++) for (let dx = -pad; dx <= pad; dx++) if (dx * dx + dy * dy <= r * r) disk.push(dy * W + dx);
  const ink = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && alpha[y * w + x] > 2;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (!ink(x, y)) continue;
      const at = (y + pad) * W + x + pad;
      // inside pixels grow nothing their neighbours do not
      if (ink(x - 1, y) && ink(x + 1, y) && ink(x, y - 1) && ink(x, y + 1)) grown[at] = 1;
      else for (const o of disk) grown[at + o] = 1;
    }
  let n = 0;
  for (const v of grown) n += v;
  return n / (dpi * dpi);
}
