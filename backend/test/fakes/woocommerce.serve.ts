/**
 * Runs the fake WooCommerce store on its own (port 0) with a few orders and their design
 * files, for the browser test and for trying the Integration Orders screens by hand:
 *   cd backend && npx ts-node --transpile-only test/fakes/woocommerce.serve.ts
 * Prints one JSON line: { baseUrl, consumerKey, consumerSecret }. The app needs
 * SHOPS_ALLOW_PRIVATE_URLS=true to reach it.
 */
import sharp from 'sharp';
import { FakeWooCommerce, wooOrder } from './woocommerce.fake';

async function main() {
  const woo = await new FakeWooCommerce().start();
  const art = async (color: string) =>
    sharp({ create: { width: 600, height: 400, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: await sharp({ create: { width: 420, height: 260, channels: 4, background: color } }).png().toBuffer(), left: 90, top: 70 }])
      .png()
      .toBuffer();
  woo.files.set('/wp-content/uploads/product_addons_uploads/7f3a/sunset.png', { type: 'image/png', body: await art('#f97316') });
  woo.files.set('/wp-content/uploads/product_addons_uploads/7f3a/wave.png', { type: 'image/png', body: await art('#0ea5e9') });
  const up = (f: string) => `${woo.baseUrl}/wp-content/uploads/product_addons_uploads/7f3a/${f}`;
  const day = 86_400_000;
  woo.orders = [
    wooOrder({ id: 1057, created: new Date(Date.now() - 2 * day), items: [
      { id: 311, name: 'Custom Tee Print - A3', sku: 'TEE-A3', size: 'A3', quantity: 2, price: 16.8, upload: up('sunset.png') },
      { id: 312, name: 'Custom Tee Print - A3 (back)', sku: 'TEE-A3-B', size: 'A3', quantity: 1, price: 12, upload: up('wave.png') },
    ] }),
    // already completed in the shop, not printed here yet
    wooOrder({ id: 1058, status: 'completed', created: new Date(Date.now() - day), buyer: { first: 'Sam', last: 'Okafor', email: 'sam@example.com', country: 'GB' }, items: [
      { id: 321, name: 'Logo Transfer - Pocket', sku: 'LOGO-POCKET', size: 'Pocket', quantity: 6, price: 4.5 },
    ] }),
  ];
  process.stdout.write(JSON.stringify({ baseUrl: woo.baseUrl, consumerKey: woo.consumerKey, consumerSecret: woo.consumerSecret }) + '\n');
  process.on('SIGTERM', () => void woo.stop().then(() => process.exit(0)));
}

void main();
