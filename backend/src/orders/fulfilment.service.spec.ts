import { fulfilmentOf, noteRef, wooNote } from './fulfilment.service';

describe('fulfilment', () => {
  it('the WooCommerce note says who marked it, the carrier and tracking when given, and carries the reference a retry looks for', () => {
    const id = '0f8c2a1e-1111-4222-8333-944445555666';
    expect(wooNote({ source: 'manual', carrier: 'DHL', tracking_number: 'JD01' }, id)).toBe(`Marked shipped in GangSheet Studio. Shipped with DHL, tracking number JD01. ${noteRef(id)}`);
    expect(wooNote({ source: 'batch', carrier: null, tracking_number: null }, id)).toBe(`Printed and marked fulfilled by GangSheet Studio. ${noteRef(id)}`);
    expect(wooNote({ source: 'manual', carrier: 'Royal Mail', tracking_number: null }, id)).toContain('Shipped with Royal Mail.');
  });

  it('an order never requested reads as none', () => {
    expect(fulfilmentOf({})).toEqual({ status: 'none', source: null, carrier: null, trackingNumber: null, error: null, requestedAt: null, fulfilledAt: null });
    const at = new Date();
    expect(fulfilmentOf({ f_status: 'failed', f_source: 'batch', f_error: 'WooCommerce refused: x', f_requested_at: at })).toMatchObject({ status: 'failed', source: 'batch', error: 'WooCommerce refused: x', requestedAt: at });
  });
});
