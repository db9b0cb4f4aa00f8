import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { CreditsService } from '../src/credits/credits.service';
import { StorageService } from '../src/storage/storage.service';
import { addDesign, addSize, setCredits, waitDone } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/** A 2000 x 2000 PNG whose art is a 2000 x 500 band: its header is four times taller than its trimmed art. */
async function bandPng(): Promise<Buffer> {
  const band = await sharp({ create: { width: 2000, height: 500, channels: 4, background: '#2050d0' } }).png().toBuffer();
  return sharp({ create: { width: 2000, height: 2000, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: band, left: 0, top: 750 }])
    .png()
    .toBuffer();
}

/**
 * Limits checked before the charge while an image is still being
 * inspected, and engine failures worded for the seller.
 */
describe('Print limits before the charge (e2e)', () => {
  let t: TestApp;
  let db: DataSource;

  // No job runs here: an uploaded image stays "processing" (its inspection never starts),
  // which is the window in which a print could be charged for designs not yet checked.
  beforeAll(async () => {
    t = await createTestApp({ PROCESS_JOBS: 'false' });
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const charges = async (userId: string) => (await t.app.get(CreditsService).ledger(userId)).filter((r) => r.reason === 'print_charge');

  it('an image still being inspected is counted at its upload header size: refused before any charge, processable once ready', async () => {
    const s = await signUpAndLogin(t, 'early-big');
    await setCredits(t, await adminAgent(t), s.user._id, 100);
    const up = await s.agent.post('/api/images/bulk-upload').attach('files', await bandPng(), 'band.png').expect(201);
    const image = up.body.data[0];
    expect(image).toMatchObject({ status: 'processing' });
    const [row] = await db.query(`SELECT width, height, trim FROM images WHERE id = $1`, [image._id]);
    expect(row).toEqual({ width: 2000, height: 2000, trim: null });
    const size = await addSize(t, s.user._id, 'Poster', 20);
    const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 60 }] }).expect(201)).body.data;

    // 60 copies of 20 x 20 in (header size) at 600 DPI on 22 in film: ~9 Gpx, over the 4 Gpx budget
    const res = await s.agent.post(`/api/print/${p._id}/process`).send({ settings: { dpi: 600, width: 22 } }).expect(400);
    expect(res.body.code).toBe('print_too_large');
    expect(res.body.message).toMatch(/^This print would render about [\d.]+ gigapixels; the limit is 4\.00\. "band" is still being inspected and counted at full size/);
    expect((await s.agent.get(`/api/print/${p._id}`)).body.data.status).toBe('In Draft');
    expect((await s.agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 100, usedCredits: 0 });
    expect(await charges(s.user._id)).toHaveLength(0);

    // inspected, its art is 20 x 5 in: ~2.4 Gpx, within the budget
    await db.query(`UPDATE images SET status = 'ready', trim = $2 WHERE id = $1`, [image._id, JSON.stringify({ left: 0, top: 750, width: 2000, height: 500 })]);
    const ok = await s.agent.post(`/api/print/${p._id}/process`).send({ settings: { dpi: 600, width: 22 } }).expect(201);
    expect(ok.body.data).toMatchObject({ status: 'Processing', creditCost: 60 });
  });

  it('an image being inspected whose pixel size is unknown is refused with a clear message, nothing charged', async () => {
    const s = await signUpAndLogin(t, 'early-unknown');
    await setCredits(t, await adminAgent(t), s.user._id, 5);
    const image = await addDesign(t, s.user._id, { name: 'mystery' });
    await db.query(`UPDATE images SET status = 'processing', trim = NULL, width = NULL, height = NULL WHERE id = $1`, [image._id]);
    const size = await addSize(t, s.user._id, 'Small', 2);
    const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 1 }] }).expect(201)).body.data;
    const res = await s.agent.post(`/api/print/${p._id}/process`).send({}).expect(400);
    expect(res.body).toMatchObject({ code: 'image_not_ready', message: 'Image "mystery" is still being processed. Please try again in a moment.' });
    expect((await s.agent.get(`/api/print/${p._id}`)).body.data.status).toBe('In Draft');
    expect((await s.agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 5, usedCredits: 0 });
    expect(await charges(s.user._id)).toHaveLength(0);
  });
});

describe('Render failures are worded for the seller (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ PRINT_JOB_ATTEMPTS: '1' });
  });
  afterAll(() => t.close());

  it('a design file the renderer cannot read: Error naming the design, no internal id or library message, refunded', async () => {
    const s = await signUpAndLogin(t, 'damaged');
    await setCredits(t, await adminAgent(t), s.user._id, 3);
    const image = await addDesign(t, s.user._id, { name: 'damaged-art' });
    // the stored file is damaged after its inspection (a disk fault, a bad restore)
    const storage = t.app.get(StorageService);
    const good = readFileSync(storage.path(image.fileKey));
    await storage.write(image.fileKey, good.subarray(0, Math.floor(good.length / 2)));
    const size = await addSize(t, s.user._id, 'Small', 2);
    const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 2 }] }).expect(201)).body.data;
    await s.agent.post(`/api/print/${p._id}/process`).send({}).expect(201);
    const done = await waitDone(s.agent, p._id);
    expect(done.status).toBe('Error');
    expect(done.error).toBe('The sheet could not be rendered: the file of design "damaged-art" could not be read. Please replace the design.');
    const itemIds: string[] = done.printItems.map((i: { _id: string }) => i._id);
    for (const id of itemIds) expect(done.error).not.toContain(id);
    expect((await s.agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 3, usedCredits: 0 });
  });
});
