import sharp from 'sharp';
import { artworkOrders } from './artwork';
import { alphaMask } from '../src/gangsheet/shape/design-mask';
import { alphaBoundingBox } from '../src/gangsheet/trim';
import { layoutSheets } from '../src/gangsheet/pack/layout';
(async () => {
  const t = +(process.argv[2] ?? 2000);
  for (const order of artworkOrders(+(process.argv[3] ?? 3))) {
    const designs = [];
    for (const d of order.designs) {
      const { data, info } = await sharp(Buffer.from(d.art.svg)).ensureAlpha().extractChannel(3).raw().toBuffer({ resolveWithObject: true });
      const trim = alphaBoundingBox(data, info.width, info.height)!;
      designs.push({ id: d.id, widthPx: trim.width, heightPx: trim.height, width: d.width, quantity: d.quantity, mask: alphaMask(data, info.width, trim) });
    }
    const box = layoutSheets(designs, { width: 22, gap: 0.25 }, { timeLimitMs: t });
    const t0 = performance.now();
    const shape = layoutSheets(designs, { width: 22, gap: 0.25, nesting: 'shape' }, { timeLimitMs: t, cellInches: +(process.argv[4] ?? 0.04) });
    const dt = performance.now() - t0;
    console.log(order.name, order.designs.map(d => d.art.kind + 'x' + d.quantity).join(','), 'box', box.totalLength.toFixed(1), 'shape', shape.totalLength.toFixed(1), 'ratio', (shape.totalLength / box.totalLength).toFixed(3), (dt/1000).toFixed(1)+'s');
  }
})();
