import { etsyReceipt } from '../../../test/fakes/etsy.fake';
import { wooOrder } from '../../../test/fakes/woocommerce.fake';
import { mapEtsyReceipt } from './etsy.client';
import { retryAfterMs } from './shop-client';
import { designUrlOf, mapWooOrder, normalizeBaseUrl, sizeOf } from './woocommerce.client';

describe('shop order mapping', () => {
  it('WooCommerce: GMT dates, string totals, numeric prices, pa_size display value, the add-on upload URL', () => {
    const o = mapWooOrder(wooOrder({ id: 7, created: new Date('2026-01-05T14:03:11Z'), items: [{ id: 70, name: 'Photo Print - A3', sku: 'PHOTO-A3', size: 'A3', quantity: 2, price: 16.805, upload: 'https://shop.example.com/wp-content/uploads/product_addons_uploads/3f2a/holiday.jpg' }] }));
    expect(o).toMatchObject({ externalId: '7', number: '7', shopStatus: 'processing', currency: 'EUR', createdAt: new Date('2026-01-05T14:03:11Z') });
    expect(o.items[0]).toMatchObject({ externalId: '70', sku: 'PHOTO-A3', size: 'A3', quantity: 2, price: 16.81, designUrl: 'https://shop.example.com/wp-content/uploads/product_addons_uploads/3f2a/holiday.jpg' });
    expect(o.items[0].attributes.map((a) => a.name)).toEqual(['Size', 'Upload your photo']); // _reduced_stock is internal
  });

  it('WooCommerce: the shipping lines\' method title and id; the public order meta as tags', () => {
    const o = mapWooOrder(wooOrder({ id: 8, shipping: { title: 'Express', id: 'flexible_shipping_3' }, meta: [{ key: 'order_tag', value: 'Rush' }, { key: '_internal', value: 'x' }, { key: 'data', value: { a: 1 } }] }));
    expect(o.shippingMethods).toEqual(['Express', 'flexible_shipping_3']);
    expect(o.tags).toEqual(['order_tag', 'Rush', 'data']);
    expect(mapWooOrder({ ...wooOrder({ id: 9 }), shipping_lines: undefined }).shippingMethods).toEqual([]);
  });

  it('WooCommerce: other plugins nest the URL; internal keys are ignored; custom size attribute', () => {
    expect(designUrlOf([{ key: '_wcpa', value: 'https://x.example/internal.png' }, { key: 'ppom', value: { files: [{ url: 'https://x.example/a.png' }] } }])).toBe('https://x.example/a.png');
    expect(designUrlOf([{ key: 'note', value: 'no link here' }])).toBeNull();
    expect(sizeOf([{ key: 'size', value: 'M Test' }])).toBe('M Test');
    expect(normalizeBaseUrl('https://Shop.Example.com/store/')).toBe('https://shop.example.com/store');
  });

  it('Etsy: Money as amount/divisor, null buyer e-mail, Size variation, a link in the personalization text', () => {
    const o = mapEtsyReceipt(etsyReceipt(3412345678, { created: new Date('2026-01-01T00:00:00Z'), personalization: 'Please use my file https://drive.example.com/d/abc123/design.png thanks', size: 'A4' }));
    expect(o).toMatchObject({ externalId: '3412345678', shopStatus: 'paid', totalAmount: 32.98, currency: 'GBP', createdAt: new Date('2026-01-01T00:00:00Z') });
    expect(o.buyerInfo).toEqual({ name: 'Jane Buyer', email: null, phone: null, address: '12 Rose Lane, Leeds, West Yorkshire, LS1 4AB', country: 'GB' });
    expect(o.items[0]).toMatchObject({ externalId: '34123456781', sku: 'STARMAP-A3', size: 'A4', quantity: 2, price: 14.99, designUrl: 'https://drive.example.com/d/abc123/design.png' });
    expect(mapEtsyReceipt(etsyReceipt(1, { personalization: 'Anna & Tom, 14.02.2020' })).items[0].designUrl).toBeNull();
    // the transactions' shipping method and upgrade; no tags
    expect(mapEtsyReceipt(etsyReceipt(2, { shippingMethod: 'Royal Mail', shippingUpgrade: 'Express' }))).toMatchObject({ shippingMethods: ['Royal Mail', 'Express'], tags: [] });
  });

  it('Retry-After in seconds or as an HTTP date', () => {
    const res = (v?: string) => ({ status: 429, headers: v ? { 'retry-after': v } : {}, body: Buffer.alloc(0), bytes: 0, url: '' });
    expect(retryAfterMs(res('2'))).toBe(2000);
    expect(retryAfterMs(res())).toBeNull();
    const at = retryAfterMs(res(new Date(Date.now() + 5000).toUTCString()))!;
    expect(at).toBeGreaterThan(3000);
    expect(at).toBeLessThanOrEqual(5000);
  });
});
