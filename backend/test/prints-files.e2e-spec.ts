import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { PrintRetentionService } from '../src/prints/print-retention.service';
import { StorageService } from '../src/storage/storage.service';
import { addDesign, addSize, binary, setCredits, waitDone } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/**
 * Print files by format: the sheet settings' `formats` (PNG, PDF or both) in settings,
 * presets and the process override; the job writes the chosen files; the file list names
 * each file's format; PDFs are served under the PNG's ownership and retention rules, and a
 * real reader (poppler's pdftoppm) draws the PDF as the PNG holds it.
 */
describe('Prints: PDF and PNG files (e2e)', () => {
  let t: TestApp;
  let admin: any;
  let db: DataSource;
  let work: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await adminAgent(t);
    db = t.app.get(DataSource);
    work = mkdtempSync(join(tmpdir(), 'gs-files-e2e-'));
  });
  afterAll(async () => {
    rmSync(work, { recursive: true, force: true });
    await t.close();
  });

  async function seller(name: string, credits = 50) {
    const s = await signUpAndLogin(t, name);
    await setCredits(t, admin, s.user._id, credits);
    const image = await addDesign(t, s.user._id, { name: `${name}-art`, width: 400, height: 300, border: 20 });
    const size = await addSize(t, s.user._id, 'Badge', 1);
    return { ...s, image, size };
  }

  async function processed(s: Awaited<ReturnType<typeof seller>>, quantity: number, body: object) {
    const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity }] }).expect(201)).body.data;
    await s.agent.post(`/api/print/${p._id}/process`).send(body).expect(201);
    const done = await waitDone(s.agent, p._id);
    expect(done.status).toBe('Completed');
    return done;
  }

  const download = (agent: any, path: string) => agent.get(path).buffer(true).parse(binary);

  it('formats in sheet settings and presets: PNG by default, PDF or both, canonical order, clear 400s', async () => {
    const { agent } = await signUpAndLogin(t, 'formats');
    expect((await agent.get('/api/sheet-settings').expect(200)).body.data.formats).toEqual(['png']);
    expect((await agent.put('/api/sheet-settings').send({ formats: ['pdf', 'pdf'] }).expect(200)).body.data.formats).toEqual(['pdf']);
    expect((await agent.put('/api/sheet-settings').send({ formats: ['pdf', 'png'] }).expect(200)).body.data.formats).toEqual(['png', 'pdf']);
    expect((await agent.get('/api/sheet-settings').expect(200)).body.data).toMatchObject({ formats: ['png', 'pdf'], width: 22 });
    // changing something else keeps the formats
    expect((await agent.put('/api/sheet-settings').send({ gap: 0.5 }).expect(200)).body.data.formats).toEqual(['png', 'pdf']);
    const bad: Array<[unknown, string]> = [
      [[], 'Choose at least one file format (PNG or PDF)'],
      [['jpg'], 'File formats must be "png" or "pdf"'],
      ['pdf', 'Choose PNG, PDF or both as file formats'],
      [['png', 'pdf', 'png'], 'Choose PNG, PDF or both as file formats'],
    ];
    for (const [formats, message] of bad) {
      const res = await agent.put('/api/sheet-settings').send({ formats }).expect(400);
      expect([res.body.message].flat()).toContain(message);
    }
    expect((await agent.get('/api/sheet-settings').expect(200)).body.data.formats).toEqual(['png', 'pdf']);

    const preset = (await agent.post('/api/sheet-presets').send({ name: 'PDF only', formats: ['pdf'] }).expect(201)).body.data;
    expect(preset.formats).toEqual(['pdf']);
    // a preset without formats gets the default, not the user's settings
    expect((await agent.post('/api/sheet-presets').send({ name: 'plain' }).expect(201)).body.data.formats).toEqual(['png']);
    expect((await agent.put(`/api/sheet-presets/${preset._id}`).send({ formats: ['png'] }).expect(200)).body.data.formats).toEqual(['png']);
  });

  it('process with PNG + PDF: both listed by format, the PDF is one page of the sheet size that pdftoppm draws as the PNG', async () => {
    const s = await seller('pdfboth');
    // 6 copies of a 1 in design (360 px of art: resampled down to 300 px) at 300 DPI on a 4 in film
    const done = await processed(s, 6, { settings: { width: 4, maxLength: 20, formats: ['pdf', 'png'] } });
    expect(done.settings.formats).toEqual(['png', 'pdf']);
    const id = done._id;
    expect(done.fileId.map((f: any) => [f.format, f.sheet, f.path])).toEqual([
      ['png', 1, `/api/print/${id}/files/1`],
      ['pdf', 1, `/api/print/${id}/files/1/pdf`],
    ]);
    const [pngFile, pdfFile] = done.fileId;
    expect(pdfFile).toMatchObject({ previewPath: `/api/print/${id}/files/1/preview`, widthPx: 1200, heightPx: pngFile.heightPx, lengthIn: pngFile.lengthIn });

    const png = await download(s.agent, pngFile.path).expect(200);
    expect(png.headers['content-type']).toBe('image/png');
    const pdf = await download(s.agent, pdfFile.path).expect(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/^attachment; filename="print-.*-sheet-1\.pdf"$/);
    expect(pdf.body.length).toBe(pdfFile.bytes);
    expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
    const pdfPath = join(work, 'both.pdf');
    writeFileSync(pdfPath, pdf.body);

    // one page, width × length in points
    const info = execFileSync('pdfinfo', [pdfPath], { encoding: 'utf8' });
    expect(info).toMatch(/Pages:\s+1\b/);
    const [, w, h] = info.match(/Page size:\s+([\d.]+) x ([\d.]+) pts/)!;
    expect(+w).toBeCloseTo(4 * 72, 1);
    expect(+h).toBeCloseTo((pngFile.heightPx * 72) / 300, 1);

    // Within rounding: poppler's cairo backend draws the page at the sheet DPI with its
    // transparency; premultiplied (colour under alpha 0 means nothing) it is the PNG ±1.
    execFileSync('pdftocairo', ['-png', '-transp', '-singlefile', '-r', '300', pdfPath, join(work, 'both-cairo')]);
    const cairo = await sharp(join(work, 'both-cairo.png')).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const rgba = await sharp(png.body).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([cairo.info.width, cairo.info.height]).toEqual([rgba.info.width, rgba.info.height]);
    let maxDiff = 0;
    for (let i = 0; i < rgba.data.length; i += 4)
      for (let c = 0; c < 4; c++) {
        const a = c === 3 ? rgba.data[i + 3] : (rgba.data[i + c] * rgba.data[i + 3]) / 255;
        const b = c === 3 ? cairo.data[i + 3] : (cairo.data[i + c] * cairo.data[i + 3]) / 255;
        maxDiff = Math.max(maxDiff, Math.abs(Math.round(a) - Math.round(b)));
      }
    expect(maxDiff).toBeLessThanOrEqual(1);

    // pdftoppm (poppler's Splash renderer, on white paper) reads it too. It smooths image
    // edges a little even at 1:1, so it is compared to the PNG over white on the mean.
    execFileSync('pdftoppm', ['-r', '300', '-singlefile', '-png', pdfPath, join(work, 'both-ppm')]);
    const drawn = await sharp(join(work, 'both-ppm.png')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const expected = await sharp(png.body).flatten({ background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true });
    expect([drawn.info.width, drawn.info.height]).toEqual([expected.info.width, expected.info.height]);
    let sum = 0;
    let far = 0;
    for (let i = 0; i < drawn.data.length; i++) {
      const d = Math.abs(drawn.data[i] - expected.data[i]);
      sum += d;
      if (d > 2) far++;
    }
    expect(sum / drawn.data.length).toBeLessThan(1);
    expect(far / drawn.data.length).toBeLessThan(0.01);
    // the art is there: red ink, not blank paper
    let red = 0;
    for (let i = 0; i < drawn.data.length; i += 3) if (drawn.data[i] > 180 && drawn.data[i + 1] < 60) red++;
    expect(red).toBeGreaterThan(6 * 300 * 216 * 0.9);
  });

  it('PDF only (from a preset): no PNG is written or listed; the PNG route answers 404', async () => {
    const s = await seller('pdfonly');
    const preset = (await s.agent.post('/api/sheet-presets').send({ name: 'PDF', width: 4, maxLength: 20, formats: ['pdf'] }).expect(201)).body.data;
    const done = await processed(s, 3, { presetId: preset._id });
    expect(done.fileId.map((f: any) => f.format)).toEqual(['pdf']);
    expect(done.fileId[0].path).toBe(`/api/print/${done._id}/files/1/pdf`);
    const folder = t.app.get(StorageService).path(`users/${s.user._id}/prints/${done._id}/1`);
    expect(existsSync(join(folder, 'sheet-1.pdf'))).toBe(true);
    expect(existsSync(join(folder, 'sheet-1.png'))).toBe(false);
    expect((await s.agent.get(`/api/print/${done._id}/files/1`).expect(404)).body.message).toBe('File not found');
    await download(s.agent, done.fileId[0].previewPath).expect(200);
  });

  it('PDF downloads follow the PNG rules: owner and admin only; PNG-only prints have no PDF; Delete and retention remove it (410)', async () => {
    const s = await seller('pdfrules');
    const both = await processed(s, 2, { settings: { width: 4, maxLength: 20, formats: ['png', 'pdf'] } });
    const pdfPath = both.fileId.find((f: any) => f.format === 'pdf').path;
    await download(admin, pdfPath).expect(200);
    const other = await signUpAndLogin(t, 'pdfsnoop');
    await other.agent.get(pdfPath).expect(404);
    await t.agent().get(pdfPath).expect(401);

    const pngOnly = await processed(s, 1, { settings: { width: 4, maxLength: 20 } });
    expect(pngOnly.fileId.map((f: any) => f.format)).toEqual(['png']);
    expect((await s.agent.get(`/api/print/${pngOnly._id}/files/1/pdf`).expect(404)).body.message).toBe('File not found');

    // retention: 7 days after printedAt the PDF goes with the PNG
    await db.query(`UPDATE prints SET printed_at = now() - interval '7 days 1 minute' WHERE id = $1`, [both._id]);
    expect(await t.app.get(PrintRetentionService).expireFiles()).toBeGreaterThanOrEqual(1);
    const expired = (await s.agent.get(`/api/print/${both._id}`).expect(200)).body.data;
    expect(expired).toMatchObject({ status: 'Completed', fileId: [] });
    expect(expired.filesDeletedAt).toBeTruthy();
    await s.agent.get(pdfPath).expect(410);
    expect(existsSync(t.app.get(StorageService).path(`users/${s.user._id}/prints/${both._id}`))).toBe(false);

    // Delete (files only) removes the PDF too
    const again = await processed(s, 1, { settings: { width: 4, maxLength: 20, formats: ['pdf'] } });
    await download(s.agent, again.fileId[0].path).expect(200);
    await s.agent.delete(`/api/print/${again._id}`).expect(200);
    await s.agent.get(again.fileId[0].path).expect(410);
  });
});
