import * as gangsheet from '../gangsheet';
import type { CpuPool } from '../cpu/cpu-pool';
import { EngineDesign, engineInProcess, layoutThreadsNow, workerEngine } from './engine.adapter';

jest.mock('../gangsheet', () => {
  const actual = jest.requireActual('../gangsheet');
  return { ...actual, compareNesting: jest.fn(actual.compareNesting), layoutSheets: jest.fn(actual.layoutSheets) };
});

const trim = { left: 0, top: 0, width: 300, height: 200 };
const rect = (id: string): EngineDesign => ({ id, file: `${id}.png`, widthPx: 300, heightPx: 200, trim, width: 2, quantity: 6, vector: false, mask: null });
// a 2 x 2 mask with ink on the diagonal only
const masked = (id: string): EngineDesign => ({ ...rect(id), mask: { width: 2, height: 2, data: Buffer.from([0b01, 0b10]).toString('base64') } });
const settings = { width: 8, gap: 0.25, margin: 0.25, dpi: 50, nesting: 'shape' as const };

describe('engine adapter: nesting "shape"', () => {
  beforeEach(() => jest.clearAllMocks());

  it('lays rectangles-only orders out as boxes with the whole budget, and says nothing is saved', async () => {
    const cmp = await engineInProcess.compare([rect('a'), rect('b')], settings, 200);
    expect(gangsheet.compareNesting).not.toHaveBeenCalled();
    expect(gangsheet.layoutSheets).toHaveBeenCalledWith(expect.any(Array), expect.objectContaining({ nesting: 'box' }), { timeLimitMs: 200 });
    expect(cmp).toMatchObject({ savedLength: 0, savedFraction: 0 });
    expect(cmp.shape).toBe(cmp.box);
    const layout = await engineInProcess.layout([rect('a')], settings, 200);
    expect(layout.settings.nesting).toBe('box');
    expect(layout.copies).toBe(6);
  });

  it('nests by shape, and compares, as soon as one design has a mask', async () => {
    const cmp = await engineInProcess.compare([rect('a'), masked('b')], settings, 200);
    expect(gangsheet.compareNesting).toHaveBeenCalledTimes(1);
    expect((gangsheet.compareNesting as jest.Mock).mock.calls[0][0][1].mask).toEqual(masked('b').mask);
    expect(cmp.shape.totalLength).toBeLessThanOrEqual(cmp.box.totalLength);
    expect((await engineInProcess.layout([masked('b')], settings, 200)).settings.nesting).toBe('shape');
  });
});

describe('engine adapter: threads of a layout', () => {
  it('gives a layout its threads only where the pool leaves cores free, and always one', () => {
    expect(layoutThreadsNow(2, 2, 0)).toBe(2);
    expect(layoutThreadsNow(2, 2, 1)).toBe(1);
    expect(layoutThreadsNow(2, 2, 3)).toBe(1);
    expect(layoutThreadsNow(2, 8, 3)).toBe(2);
    expect(layoutThreadsNow(4, 8, 5)).toBe(3);
    expect(layoutThreadsNow(1, 1, 0)).toBe(1);
  });

  it('asks the pool how busy it is when each layout starts', async () => {
    let inFlight = 0;
    const calls: unknown[][] = [];
    const pool = { inFlight: () => inFlight, run: async (_task: string, args: unknown[]) => calls.push(args) } as unknown as CpuPool;
    const engine = workerEngine(pool, 1e8, 2, true, 2);
    await engine.layout([masked('b')], settings, 200);
    inFlight = 1; // another print's render
    await engine.layout([masked('b')], settings, 200);
    expect(calls.map((a) => a[3])).toEqual([2, 1]);
  });
});
