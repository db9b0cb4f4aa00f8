/** Seeded generator of realistic gang-sheet orders (deterministic for a given seed). */
import { LayoutDesign } from '../src/gangsheet/pack/layout';
import { Rng } from '../src/gangsheet/pack/rng';

export interface Order {
  name: string;
  designs: LayoutDesign[];
}

/**
 * Mixes of 2–12 in designs (printed width), aspect ratios from wide banners to tall
 * prints, quantities 1–200 skewed towards small runs (log-uniform), like a shop's day.
 */
export function generateOrders(count: number, seed = 2024, mix: OrderMix = 'day'): Order[] {
  const rng = new Rng(seed);
  const m = MIXES[mix];
  const orders: Order[] = [];
  for (let o = 0; o < count; o++) {
    const kinds = m.kinds[0] + rng.int(m.kinds[1] - m.kinds[0] + 1);
    const designs: LayoutDesign[] = [];
    for (let k = 0; k < kinds; k++) {
      const width = Math.round((m.width[0] + rng.next() * (m.width[1] - m.width[0])) * 4) / 4;
      const aspect = m.aspect[0] + rng.next() * (m.aspect[1] - m.aspect[0]); // height / width
      const widthPx = 1000 + rng.int(3000);
      const [lo, hi] = m.quantity;
      const quantity = Math.max(lo, Math.min(hi, Math.floor(lo * Math.exp(rng.next() * Math.log((hi + 1) / lo)))));
      designs.push({ id: `o${o}d${k}`, widthPx, heightPx: Math.round(widthPx * aspect), width, quantity });
    }
    orders.push({ name: `${mix === 'day' ? 'order' : mix}-${o + 1}`, designs });
  }
  return orders;
}

/**
 * Other kinds of order than a shop's mixed day (`day`, the mix above), for checking figures
 * on orders the engine was not tuned on: `oneoffs` many designs in runs of 1–8 (a day of
 * single Etsy orders), `team` a few designs in runs of 40–300 (team and event orders),
 * `logos` near-square 1.5–5 in pieces, `wide` pieces from 1 in up to nearly the sheet's
 * width (back prints among pocket logos). Ranges: [min, max]; quantities log-uniform.
 */
const MIXES = {
  day: { kinds: [2, 12], width: [2, 12], aspect: [0.35, 1.75], quantity: [1, 200] },
  oneoffs: { kinds: [15, 40], width: [2, 11], aspect: [0.5, 1.6], quantity: [1, 8] },
  team: { kinds: [2, 5], width: [3, 12], aspect: [0.4, 1.4], quantity: [40, 300] },
  logos: { kinds: [3, 10], width: [1.5, 5], aspect: [0.8, 1.25], quantity: [5, 150] },
  wide: { kinds: [3, 9], width: [1, 20], aspect: [0.3, 1.5], quantity: [1, 60] },
} satisfies Record<string, { kinds: [number, number]; width: [number, number]; aspect: [number, number]; quantity: [number, number] }>;
export type OrderMix = keyof typeof MIXES;
export const ORDER_MIXES = Object.keys(MIXES) as OrderMix[];
