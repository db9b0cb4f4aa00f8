import { DataSource } from 'typeorm';
import { alphaMask } from '../src/gangsheet';
import { Image } from '../src/images/entities/image.entity';
import { addDesign, addSize } from './prints.fixtures';
import { createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/**
 * POST /api/print/{id}/layout/shapes: each design's footprint and ink as the engine sees them,
 * for the layout editor's outlines and its check by ink (docs/prints.md "Edited layout").
 */
describe('Prints: layout shapes for the editor (e2e)', () => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof signUpAndLogin>>;
  let other: Awaited<ReturnType<typeof signUpAndLogin>>;
  let printId: string;
  let itemId: string;
  const settings = { width: 10, maxLength: 40, gap: 0.25, margin: 0.25, dpi: 72, nesting: 'shape' as const, rotate: true, formats: ['png'] };
  const size = 300;
  const mask = (() => {
    const alpha = new Uint8Array(size * size);
    for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (Math.hypot(x + 0.5 - size / 2, y + 0.5 - size / 2) <= size / 2) alpha[y * size + x] = 255;
    return alphaMask(alpha, size, { left: 0, top: 0, width: size, height: size });
  })();

  beforeAll(async () => {
    t = await createTestApp();
    s = await signUpAndLogin(t, 'shaper');
    other = await signUpAndLogin(t, 'outsider');
    const disc = await addDesign(t, s.user._id, { name: 'disc', width: 400, height: 400, border: 50 });
    await t.app.get(DataSource).getRepository(Image).update(disc._id, { mask });
    const two = await addSize(t, s.user._id, 'Two', 2);
    const res = await s.agent.post('/api/print').send({ printItems: [{ imageId: disc._id, sizeId: two._id, quantity: 3 }] }).expect(201);
    printId = res.body.data._id;
    itemId = res.body.data.printItems[0]._id;
  });
  afterAll(() => t.close());

  it("answers each design's footprint, its ink mask and the engine's grid for the settings", async () => {
    const res = await s.agent.post(`/api/print/${printId}/layout/shapes`).send({ settings }).expect(200);
    expect(res.body.data).toMatchObject({ cellPx: 1, dpi: 72, gap: 18, margin: 18, rotate: true });
    expect(res.body.data.designs).toEqual([{ itemId, w: 144, h: 144, art: { x: 0, y: 0, w: 144, h: 144 }, label: null, mask, reach: 1 }]);
  });

  it('sends no mask for a rectangle print; another seller gets 404', async () => {
    const res = await s.agent.post(`/api/print/${printId}/layout/shapes`).send({ settings: { ...settings, nesting: 'box' } }).expect(200);
    expect(res.body.data.designs[0].mask).toBeNull();
    await other.agent.post(`/api/print/${printId}/layout/shapes`).send({ settings }).expect(404);
  });
});
