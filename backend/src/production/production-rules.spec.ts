import { latestCutoff, nextCutoff, takeBatch, zonedInstant } from './production-rules';

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
});
