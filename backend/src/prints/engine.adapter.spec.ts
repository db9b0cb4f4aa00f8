import * as gangsheet from '../gangsheet';
import { EngineDesign, engineInProcess } from './engine.adapter';

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
