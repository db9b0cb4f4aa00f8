import sharp from 'sharp';
import { addDesign, addSize, binary, setCredits, waitDone } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

type Copy = { itemId: string; copy: number; sheet: number; x: number; y: number; rotation: 0 | 90 | 180 | 270; pinned?: boolean; width?: number; height?: number };

/**
 * The edited layout: read, saved after the server's check (overlap refused with the copies
 * named), re-nested around pinned copies, used by preview and processing (the PNG has the
 * copies where they were saved), replaced when the items change (pinned copies kept).
 */
describe('Prints: edited layout (e2e)', () => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof signUpAndLogin>>;
  let other: Awaited<ReturnType<typeof signUpAndLogin>>;
  let printId: string;
  let itemA: string;
  let itemB: string;
  // 72 DPI keeps the render cheap; whole pixels: 1 px = 1/72 in
  const settings = { width: 10, maxLength: 40, gap: 0.25, margin: 0.25, dpi: 72, nesting: 'box' as const, rotate: true, formats: ['png'] };
  const px = (v: number) => Math.round(v * settings.dpi);

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await adminAgent(t);
    s = await signUpAndLogin(t, 'layouter');
    other = await signUpAndLogin(t, 'stranger');
    await setCredits(t, admin, s.user._id, 100);
    // A: 500 x 300 art (red), B: 300 x 300 art (red); printed 2 in wide
    const a = await addDesign(t, s.user._id, { name: 'wide', width: 600, height: 400, border: 50 });
    const b = await addDesign(t, s.user._id, { name: 'square', width: 400, height: 400, border: 50 });
    const size = await addSize(t, s.user._id, 'Two', 2);
    const res = await s.agent
      .post('/api/print')
      .send({ printItems: [{ imageId: a._id, sizeId: size._id, quantity: 3 }, { imageId: b._id, sizeId: size._id, quantity: 2 }] })
      .expect(201);
    printId = res.body.data._id;
    itemA = res.body.data.printItems.find((i: any) => i.imageId === a._id)._id;
    itemB = res.body.data.printItems.find((i: any) => i.imageId === b._id)._id;
  });
  afterAll(() => t.close());

  const preview = async () => (await s.agent.post(`/api/print/${printId}/preview`).send({ settings }).expect(200)).body.data;
  const copiesOf = (p: any): Copy[] =>
    p.sheets.flatMap((sh: any) => sh.placements.map((pl: any) => ({ itemId: pl.itemId, copy: pl.copy, sheet: sh.index, x: pl.x, y: pl.y, rotation: pl.rotation, pinned: pl.pinned })));
  const put = (copies: Copy[]) => s.agent.put(`/api/print/${printId}/layout`).send({ settings, copies });
  const problems = async (copies: Copy[]) => (await s.agent.post(`/api/print/${printId}/layout/check`).send({ settings, copies }).expect(200)).body.data.problems;
  const find = (copies: Copy[], itemId: string, copy: number) => copies.find((c) => c.itemId === itemId && c.copy === copy)!;

  it('starts without an edited layout; the preview numbers every copy', async () => {
    expect((await s.agent.get(`/api/print/${printId}/layout`).expect(200)).body.data).toBeNull();
    const p = await preview();
    expect(p.layoutState).toBe('auto');
    const copies = copiesOf(p);
    expect(copies).toHaveLength(5);
    expect(new Set(copies.map((c) => `${c.itemId}#${c.copy}`)).size).toBe(5);
  });

  it('saves an edited layout and reads it back; only the owner, only as a draft', async () => {
    const copies = copiesOf(await preview());
    // A#0 to a free spot low on the sheet, pinned
    Object.assign(find(copies, itemA, 0), { x: 6, y: 20, rotation: 0, pinned: true });
    const res = await put(copies).expect(200);
    expect(res.body.data.state).toBe('saved');
    const got = (await s.agent.get(`/api/print/${printId}/layout`).expect(200)).body.data;
    expect(got.state).toBe('saved');
    expect(find(got.copies, itemA, 0)).toMatchObject({ x: 6, y: 20, pinned: true, width: px(2) / 72, rotation: 0 });
    await other.agent.put(`/api/print/${printId}/layout`).send({ settings, copies }).expect(404);
    await other.agent.get(`/api/print/${printId}/layout`).expect(404);
  });

  it('refuses an overlap with 400 naming the two copies', async () => {
    const copies = copiesOf(await preview());
    const a0 = find(copies, itemA, 0);
    Object.assign(find(copies, itemB, 1), { sheet: a0.sheet, x: a0.x + 0.5, y: a0.y + 0.1 });
    const res = await put(copies).expect(400);
    expect(res.body.code).toBe('layout_invalid');
    expect(res.body.message).toMatch(/copy 1 of "wide".*copy 2 of "square"|copy 2 of "square".*copy 1 of "wide"/);
    // the live check lists the problems with the copies concerned, without saving
    const check = await s.agent.post(`/api/print/${printId}/layout/check`).send({ settings, copies }).expect(200);
    const close = check.body.data.problems.find((p: any) => p.code === 'too_close');
    expect(close.copies).toEqual(expect.arrayContaining([{ itemId: itemA, copy: 0 }, { itemId: itemB, copy: 1 }]));
  });

  it('refuses copies closer than the gap, outside the margins, beyond the length, missing or twice', async () => {
    const base = copiesOf(await preview());
    const a0 = Object.assign(find(base, itemA, 0), { sheet: 0, x: 1, y: 30, rotation: 0 });
    const w = px(2) / 72;
    const near = base.map((c) => (c.itemId === itemB && c.copy === 1 ? { ...c, sheet: a0.sheet, x: a0.x + w + 0.2, y: a0.y } : c));
    await put(near).expect(400);
    expect((await problems(near))[0].code).toBe('too_close');
    const apart = base.map((c) => (c.itemId === itemB && c.copy === 1 ? { ...c, sheet: a0.sheet, x: a0.x + w + 0.25, y: a0.y } : c));
    await put(apart).expect(200);
    const outside = base.map((c) => (c.itemId === itemB && c.copy === 1 ? { ...c, x: 0.1 } : c));
    expect((await put(outside).expect(400)).body.message).toMatch(/copy 2 of "square" lies outside the sheet's margins/);
    expect((await problems(outside)).map((p: any) => p.code)).toContain('outside_margins');
    const beyond = base.map((c) => (c.itemId === itemB && c.copy === 1 ? { ...c, x: 0.5, y: 39 } : c));
    await put(beyond).expect(400);
    expect((await problems(beyond)).map((p: any) => p.code)).toContain('beyond_length');
    const missing = base.filter((c) => !(c.itemId === itemB && c.copy === 1));
    await put(missing).expect(400);
    expect((await problems(missing))[0]).toMatchObject({ code: 'missing_copy', copies: [{ itemId: itemB, copy: 1 }] });
    await put([...base, find(base, itemA, 1)]).expect(400);
    expect((await problems([...base, find(base, itemA, 1)])).map((p: any) => p.code)).toContain('duplicate_copy');
  });

  let pinnedA: Copy;
  let pinnedB: Copy;

  it('re-nests every unpinned copy around the pinned ones, in one layout', async () => {
    pinnedA = { itemId: itemA, copy: 0, sheet: 0, x: 5, y: 4, rotation: 0, pinned: true };
    pinnedB = { itemId: itemB, copy: 1, sheet: 0, x: 0.5, y: 9, rotation: 90, pinned: true };
    const res = await s.agent.post(`/api/print/${printId}/layout/renest`).send({ settings, copies: [pinnedA, pinnedB] }).expect(200);
    const copies: Copy[] = res.body.data.copies.map(({ itemId, copy, sheet, x, y, rotation, pinned }: Copy) => ({ itemId, copy, sheet, x, y, rotation, pinned }));
    expect(copies).toHaveLength(5);
    expect(find(copies, itemA, 0)).toMatchObject({ x: 5, y: 4, rotation: 0, pinned: true });
    expect(find(copies, itemB, 1)).toMatchObject({ x: 0.5, y: 9, rotation: 90, pinned: true });
    // the others fill the top of the sheet around them (not a second layout below)
    expect(Math.min(...copies.filter((c) => !c.pinned).map((c) => c.y))).toBeLessThan(1);
    // and it is a layout the server accepts as is
    expect(await problems(copies)).toEqual([]);
    const saved = await put(copies).expect(200);
    expect(saved.body.data.copies.filter((c: Copy) => c.pinned)).toHaveLength(2);
    const p = await preview();
    expect(p.layoutState).toBe('saved');
    expect(copiesOf(p).find((c) => c.itemId === itemA && c.copy === 0)).toMatchObject({ x: 5, y: 4, pinned: true });
    // pinned copies that collide cannot be re-nested around
    const clash = await s.agent
      .post(`/api/print/${printId}/layout/renest`)
      .send({ settings, copies: [pinnedA, { ...pinnedB, x: 5.5, y: 4.2, rotation: 0 }] })
      .expect(400);
    expect(clash.body.code).toBe('layout_invalid');
  });

  it('processing prints every copy exactly where it was saved', async () => {
    const saved = (await s.agent.get(`/api/print/${printId}/layout`).expect(200)).body.data;
    await s.agent.post(`/api/print/${printId}/process`).send({ settings }).expect(201);
    const done = await waitDone(s.agent, printId);
    expect(done.status).toBe('Completed');
    const png = (await s.agent.get(done.fileId[0].path).buffer(true).parse(binary).expect(200)).body as Buffer;
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const alpha = (x: number, y: number) => data[(y * info.width + x) * info.channels + 3];
    const red = (x: number, y: number) => data[(y * info.width + x) * info.channels];
    for (const c of saved.copies as Copy[]) {
      const x0 = px(c.x);
      const y0 = px(c.y);
      const w = px(c.width!);
      const h = px(c.height!);
      // ink at the copy's corners (inside by a pixel) and its middle; nothing just outside its box
      for (const [x, y] of [[x0 + 1, y0 + 1], [x0 + w - 2, y0 + h - 2], [x0 + (w >> 1), y0 + (h >> 1)]]) {
        expect(alpha(x, y)).toBeGreaterThan(200);
        expect(red(x, y)).toBeGreaterThan(150);
      }
      if (x0 - 2 >= 0) expect(alpha(x0 - 2, y0 + (h >> 1))).toBe(0);
      if (y0 - 2 >= 0) expect(alpha(x0 + (w >> 1), y0 - 2)).toBe(0);
    }
    const a0 = (saved.copies as Copy[]).find((c) => c.itemId === itemA && c.copy === 0)!;
    expect([px(a0.x), px(a0.y)]).toEqual([360, 288]);
    // a Completed print's layout cannot be edited
    await put(saved.copies.map(({ itemId, copy, sheet, x, y, rotation, pinned }: Copy) => ({ itemId, copy, sheet, x, y, rotation, pinned }))).expect(409);
  });

  it('changing the items replaces the edited layout and keeps the pinned copies pinned', async () => {
    // Deleting the files makes the print editable again; its edited layout still matches
    await s.agent.delete(`/api/print/${printId}`).expect(200);
    expect((await preview()).layoutState).toBe('saved');
    await s.agent.put(`/api/print/${printId}/${itemA}`).send({ quantity: 4 }).expect(200);
    const p = await preview();
    expect(p.layoutState).toBe('replaced');
    expect(p.layoutMessage).toMatch(/laid out again around the 2 pinned copies/);
    const copies = copiesOf(p);
    expect(copies).toHaveLength(6);
    expect(find(copies, itemA, 0)).toMatchObject({ x: 5, y: 4, pinned: true });
    expect(find(copies, itemB, 1)).toMatchObject({ x: 0.5, y: 9, rotation: 90, pinned: true });
    expect((await s.agent.get(`/api/print/${printId}/layout`).expect(200)).body.data.state).toBe('replaced');
    await s.agent.delete(`/api/print/${printId}/layout`).expect(200);
    expect((await preview()).layoutState).toBe('auto');
  });
});

/**
 * "Re-nest the rest" of a true-shape print from the editor's current layout: the editor sends
 * every copy (the pinned ones, and where the others stand now), and the re-nest starts from
 * that layout instead of laying everything out afresh.
 */
describe('Prints: re-nest from the current layout (e2e)', () => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof signUpAndLogin>>;
  let printId: string;
  const settings = { width: 10, gap: 0.25, margin: 0.25, dpi: 72, nesting: 'shape' as const, rotate: true, formats: ['png'] };

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await adminAgent(t);
    s = await signUpAndLogin(t, 'renester');
    await setCredits(t, admin, s.user._id, 100);
    const a = await addDesign(t, s.user._id, { name: 'wide', width: 600, height: 400, border: 50 });
    const b = await addDesign(t, s.user._id, { name: 'square', width: 400, height: 400, border: 50 });
    const size = await addSize(t, s.user._id, 'Two', 2);
    const res = await s.agent
      .post('/api/print')
      .send({ printItems: [{ imageId: a._id, sizeId: size._id, quantity: 8 }, { imageId: b._id, sizeId: size._id, quantity: 8 }] })
      .expect(201);
    printId = res.body.data._id;
  });
  afterAll(() => t.close());

  const key = (c: Copy) => `${c.itemId}#${c.copy}`;
  const plain = (c: Copy): Copy => ({ itemId: c.itemId, copy: c.copy, sheet: c.sheet, x: c.x, y: c.y, rotation: c.rotation, pinned: !!c.pinned });
  const current = async (): Promise<{ copies: Copy[]; length: number }> => {
    const p = (await s.agent.post(`/api/print/${printId}/preview`).send({ settings }).expect(200)).body.data;
    const copies = p.sheets.flatMap((sh: any) => sh.placements.map((pl: any) => ({ itemId: pl.itemId, copy: pl.copy, sheet: sh.index, x: pl.x, y: pl.y, rotation: pl.rotation, pinned: false })));
    return { copies, length: p.sheets.reduce((a: number, sh: any) => a + sh.length, 0) };
  };
  const renest = async (copies: Copy[]) => {
    const data = (await s.agent.post(`/api/print/${printId}/layout/renest`).send({ settings, copies }).expect(200)).body.data;
    return { copies: (data.copies as Copy[]).map(plain), length: data.sheets.reduce((a: number, sh: any) => a + sh.length, 0) };
  };
  const problems = async (copies: Copy[]) => (await s.agent.post(`/api/print/${printId}/layout/check`).send({ settings, copies }).expect(200)).body.data.problems;

  it('pinned where they stand: the re-nest starts from the current layout and is no longer than it', async () => {
    const shown = await current();
    expect(shown.copies).toHaveLength(16);
    const pins = [shown.copies[2], shown.copies[9]].map((c) => ({ ...c, pinned: true }));
    const pinned = new Set(pins.map(key));
    const res = await renest(shown.copies.map((c) => (pinned.has(key(c)) ? pins.find((p) => key(p) === key(c))! : c)));
    expect(res.copies).toHaveLength(16);
    for (const p of pins) expect(res.copies.find((c) => key(c) === key(p))).toMatchObject({ x: p.x, y: p.y, rotation: p.rotation, pinned: true });
    expect(res.length).toBeLessThanOrEqual(shown.length + 1e-9);
    expect(await problems(res.copies)).toEqual([]);
  });

  it('a pin moved onto other copies: those are laid out again, the pin stays where it was put', async () => {
    const shown = await current();
    // the last copy moved to the top-left corner, where the layout has another copy
    const last = [...shown.copies].sort((a, b) => b.y - a.y)[0];
    const corner = [...shown.copies].sort((a, b) => a.y + a.x - (b.y + b.x))[0];
    const pin = { ...last, x: corner.x, y: corner.y, pinned: true };
    const copies = shown.copies.map((c) => (key(c) === key(last) ? pin : c));
    // as sent, the layout is not printable: the pin lies on the copy in the corner
    expect((await problems(copies)).map((p: any) => p.code)).toContain('too_close');
    const res = await renest(copies);
    expect(res.copies).toHaveLength(16);
    expect(new Set(res.copies.map(key)).size).toBe(16);
    expect(res.copies.find((c) => key(c) === key(pin))).toMatchObject({ x: pin.x, y: pin.y, pinned: true });
    expect(await problems(res.copies)).toEqual([]);
    // the body may still carry the pinned copies alone (a re-nest from scratch)
    const scratch = await renest([pin]);
    expect(scratch.copies).toHaveLength(16);
    expect(await problems(scratch.copies)).toEqual([]);
  });
});
