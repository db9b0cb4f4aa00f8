import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { binary, orderLinePrint, waitDone } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/**
 * Order labels on printed sheets: a print whose items come from shop orders prints
 * "#<order> · i/n" beside every copy when the setting is on (by default on batches only), in
 * the PNG (dark text on a white box in the space below each copy) and in the PDF (text).
 */
describe('Prints: order labels (e2e)', () => {
  let t: TestApp;
  let admin: any;
  let db: DataSource;
  let work: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await adminAgent(t);
    db = t.app.get(DataSource);
    work = mkdtempSync(join(tmpdir(), 'gs-labels-e2e-'));
  });
  afterAll(async () => {
    rmSync(work, { recursive: true, force: true });
    await t.close();
  });

  const download = (agent: any, path: string) => agent.get(path).buffer(true).parse(binary);

  const orderPrint = (name: string) => orderLinePrint(t, admin, name);

  async function processed(s: { agent: any; printId: string }, settings: object) {
    await s.agent.post(`/api/print/${s.printId}/process`).send({ settings: { width: 4, maxLength: 20, dpi: 150, formats: ['png', 'pdf'], ...settings } }).expect(201);
    const done = await waitDone(s.agent, s.printId);
    expect(done.status).toBe('Completed');
    const preview = (await s.agent.post(`/api/print/${s.printId}/preview`).send({}).expect(200)).body.data;
    const png = (await download(s.agent, done.fileId.find((f: any) => f.format === 'png').path).expect(200)).body as Buffer;
    const pdfPath = join(work, `${s.printId}.pdf`);
    writeFileSync(pdfPath, (await download(s.agent, done.fileId.find((f: any) => f.format === 'pdf').path).expect(200)).body);
    return { done, placements: preview.sheets[0].placements as any[], png, pdfText: execFileSync('pdftotext', [pdfPath, '-']).toString('utf8') };
  }

  /** Dark opaque and white opaque pixels in the 0.2 in below a copy (where its label is), and design ink there. */
  async function belowCopies(png: Buffer, placements: any[], dpi: number) {
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    return placements.map((p) => {
      let dark = 0;
      let white = 0;
      const x0 = Math.round(p.x * dpi);
      const x1 = Math.round((p.x + p.width) * dpi);
      const y0 = Math.round((p.y + p.height) * dpi) + 1;
      const y1 = Math.min(info.height, y0 + Math.round(0.2 * dpi));
      for (let y = y0; y < y1; y++)
        for (let x = x0; x < x1; x++) {
          const i = (y * info.width + x) * 4;
          if (data[i + 3] !== 255) continue;
          if (data[i] < 90 && data[i + 1] < 90 && data[i + 2] < 90) dark++;
          else if (data[i] > 240 && data[i + 1] > 240 && data[i + 2] > 240) white++;
        }
      return { dark, white };
    });
  }

  it('labels on: every copy has "#<order> · i/n" below it in the PNG and as text in the PDF', async () => {
    const s = await orderPrint('labelson');
    const { done, placements, png, pdfText } = await processed(s, { orderLabels: true, rotate: false });
    expect(done.settings.orderLabels).toBe(true);
    expect(placements).toHaveLength(3);
    // the preview shows each label's space below its copy
    for (const p of placements) expect(p.label).toMatchObject({ x: expect.any(Number), y: expect.closeTo(p.y + p.height + 0.04, 1), height: expect.closeTo(0.12, 1) });
    for (const b of await belowCopies(png, placements, 150)) {
      expect(b.dark).toBeGreaterThan(20);
      expect(b.white).toBeGreaterThan(50);
    }
    for (const text of ['#5012 · 1/2', '#5012 · 2/2', '#77 · 1/1']) expect(pdfText).toContain(text);
  });

  it('by default a batch is labelled and another print is not', async () => {
    const batch = await orderPrint('labelsbatch');
    await db.query(`UPDATE prints SET type = 'Batch' WHERE id = $1`, [batch.printId]);
    const b = await processed(batch, { rotate: false });
    expect(b.pdfText).toContain('#5012 · 2/2');
    for (const x of await belowCopies(b.png, b.placements, 150)) expect(x.dark).toBeGreaterThan(20);

    const plain = await orderPrint('labelsplain');
    const p = await processed(plain, { rotate: false });
    expect(p.pdfText).not.toContain('#5012');
    for (const x of await belowCopies(p.png, p.placements, 150)) expect(x).toEqual({ dark: 0, white: 0 });
    expect(p.placements.some((x: any) => x.label)).toBe(false);
    // the label space costs film: the labelled sheet is at least as long
    expect(b.done.fileId[0].lengthIn).toBeGreaterThanOrEqual(p.done.fileId[0].lengthIn);
  });

  it('the setting is kept in sheet settings and presets; null goes back to "batches only"', async () => {
    const { agent } = await signUpAndLogin(t, 'labelsettings');
    expect((await agent.get('/api/sheet-settings').expect(200)).body.data.orderLabels).toBeNull();
    expect((await agent.put('/api/sheet-settings').send({ orderLabels: true }).expect(200)).body.data.orderLabels).toBe(true);
    expect((await agent.put('/api/sheet-settings').send({ gap: 0.3 }).expect(200)).body.data.orderLabels).toBe(true);
    expect((await agent.put('/api/sheet-settings').send({ orderLabels: null }).expect(200)).body.data.orderLabels).toBeNull();
    const res = await agent.put('/api/sheet-settings').send({ orderLabels: 'yes' }).expect(400);
    expect([res.body.message].flat()).toContain('Order labels must be true, false or null');
    expect((await agent.post('/api/sheet-presets').send({ name: 'labels', orderLabels: false }).expect(201)).body.data.orderLabels).toBe(false);
  });
});
