import { DEFAULT_RULES, isRush, latestCutoff, nextCutoff, ProductionRules, rushTerms, takeBatch, zonedInstant } from './production-rules';

describe('production rules', () => {
  it('cut-offs are wall-clock times in the seller time zone, across a daylight-saving change', () => {
    expect(zonedInstant(2026, 7, 1, 14, 0, 'Europe/Vienna').toISOString()).toBe('2026-07-01T12:00:00.000Z');
    expect(zonedInstant(2026, 1, 15, 14, 0, 'Europe/Vienna').toISOString()).toBe('2026-01-15T13:00:00.000Z');
    expect(zonedInstant(2026, 3, 29, 9, 0, 'Europe/Vienna').toISOString()).toBe('2026-03-29T07:00:00.000Z');
    const now = new Date('2026-07-01T12:30:00Z'); // 14:30 in Vienna
    expect(latestCutoff(now, ['09:00', '14:00'], 'Europe/Vienna')!.toISOString()).toBe('2026-07-01T12:00:00.000Z');
    expect(nextCutoff(now, ['09:00', '14:00'], 'Europe/Vienna')!.toISOString()).toBe('2026-07-02T07:00:00.000Z');
    expect(latestCutoff(new Date('2026-07-01T06:00:00Z'), ['14:00'], 'Europe/Vienna')!.toISOString()).toBe('2026-06-30T12:00:00.000Z');
    expect(latestCutoff(now, [], 'UTC')).toBeNull();
  });

  it('a batch takes whole orders in the given order up to the copy limit; a large order goes alone', () => {
    const rows = [
      { id: 'a1', order_id: 'A', quantity: 3 },
      { id: 'b1', order_id: 'B', quantity: 5 },
      { id: 'a2', order_id: 'A', quantity: 1 },
      { id: 'c1', order_id: 'C', quantity: 2 },
    ];
    expect(takeBatch(rows, 7).map((r) => r.id)).toEqual(['a1', 'a2', 'c1']);
    expect(takeBatch(rows, 100).map((r) => r.id)).toEqual(['a1', 'a2', 'b1', 'c1']);
    expect(takeBatch([{ id: 'x', order_id: 'X', quantity: 50 }, ...rows], 10).map((r) => r.id)).toEqual(['x']);
  });

  it('rush: a shop tag, a shipping method (name or id) or an item option, case-insensitive, whole words', () => {
    const rules: ProductionRules = { ...DEFAULT_RULES, rush: { tags: [' Rush ', 'VIP'], shippingMethods: ['express', 'next_day', ''] } };
    const terms = rushTerms(rules);
    expect(terms).toEqual({ tags: ['rush', 'vip'], shipping: ['express', 'next_day'], options: ['rush', 'vip', 'express', 'next_day'] });
    const order = (o: Partial<Parameters<typeof isRush>[1]>) => ({ tags: [], shippingMethods: [], options: [], ...o });
    expect(isRush(terms, order({ shippingMethods: ['Flat rate', 'EXPRESS'] }))).toBe(true);
    expect(isRush(terms, order({ shippingMethods: ['Next Day Delivery', 'next_day'] }))).toBe(true); // the method id
    expect(isRush(terms, order({ tags: ['vip '] }))).toBe(true);
    expect(isRush(terms, order({ options: [{ name: 'Shipping', value: 'Express' }] }))).toBe(true);
    // a shipping method named like a tag only is not rush; partial words are not matched
    expect(isRush(terms, order({ shippingMethods: ['Rush'] }))).toBe(false);
    expect(isRush(terms, order({ shippingMethods: ['Express Plus'], tags: ['rushed'] }))).toBe(false);
    expect(isRush(rushTerms(DEFAULT_RULES), order({ shippingMethods: ['Express'], tags: ['rush'] }))).toBe(false);
  });
});
