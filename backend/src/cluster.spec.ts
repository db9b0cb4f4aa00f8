import { poolShare } from './cluster';

describe('poolShare', () => {
  it("splits the node's DB_POOL_MAX among its API processes, rounding up, at least 2 each", () => {
    expect(poolShare(10, 1)).toBe(10);
    expect(poolShare(10, 2)).toBe(5);
    expect(poolShare(10, 3)).toBe(4);
    expect(poolShare(10, 4)).toBe(3);
    expect(poolShare(2, 4)).toBe(2);
  });
});
