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
export function generateOrders(count: number, seed = 2024): Order[] {
  const rng = new Rng(seed);
  const orders: Order[] = [];
  for (let o = 0; o < count; o++) {
    const kinds = 2 + rng.int(11);
    const designs: LayoutDesign[] = [];
    for (let k = 0; k < kinds; k++) {
      const width = Math.round((2 + rng.next() * 10) * 4) / 4;
      const aspect = 0.35 + rng.next() * 1.4; // height / width
      const widthPx = 1000 + rng.int(3000);
      const quantity = Math.max(1, Math.min(200, Math.floor(Math.exp(rng.next() * Math.log(201)))));
      designs.push({ id: `o${o}d${k}`, widthPx, heightPx: Math.round(widthPx * aspect), width, quantity });
    }
    orders.push({ name: `order-${o + 1}`, designs });
  }
  return orders;
}
