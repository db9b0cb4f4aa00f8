import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binary, orderLinePrint, waitDone } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/**
 * The packing list of a print made from shop orders (GET /api/print/{id}/packing-list): a PDF
 * with a map of each sheet and a table by order; the seller's own prints only; 409 without
 * order items or before the print is laid out (processed).
 */
describe('Prints: packing list (e2e)', () => {
  let t: TestApp;
  let admin: any;
  let work: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await adminAgent(t);
    work = mkdtempSync(join(tmpdir(), 'gs-packing-e2e-'));
  });
  afterAll(async () => {
    rmSync(work, { recursive: true, force: true });
    await t.close();
  });

  const download = (agent: any, path: string) => agent.get(path).buffer(true).parse(binary);

  const orderPrint = (name: string) => orderLinePrint(t, admin, name);

  it('a processed print from orders: sheet map and order table, as a PDF', async () => {
    const s = await orderPrint('packing');
    // a draft is not laid out yet
    const early = await s.agent.get(`/api/print/${s.printId}/packing-list`).expect(409);
    expect(early.body).toMatchObject({ code: 'not_laid_out', message: expect.stringContaining('process the print first') });
    await s.agent.post(`/api/print/${s.printId}/process`).send({ settings: { width: 4, maxLength: 20, dpi: 150, orderLabels: true } }).expect(201);
    expect((await waitDone(s.agent, s.printId)).status).toBe('Completed');

    const res = await download(s.agent, `/api/print/${s.printId}/packing-list`).expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^inline; filename="print-[0-9a-f]{8}-packing-list\.pdf"$/);
    const file = join(work, 'packing.pdf');
    writeFileSync(file, res.body);
    expect(execFileSync('pdfinfo', [file]).toString()).toMatch(/Pages:\s+2/);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString('utf8');
    for (const s of ['Sheet 1 of 1', '3 copies', '#5012', 'Lena Maier', 'AT', '#77', 'Jonas Krüger', 'DE', 'Badge shirt', 'Badge (1 in)']) expect(text).toContain(s);
    // every position 1..3 is listed once, split between the two orders
    const positions = [...text.matchAll(/S1: ([\d, ]+)/g)].flatMap((m) => m[1].split(',').map((n) => Number(n.trim())));
    expect(positions.sort()).toEqual([1, 2, 3]);
  });

  it("another seller's print is not found; a print without order items has no packing list", async () => {
    const s = await orderPrint('packingowner');
    const other = await signUpAndLogin(t, 'packingother');
    await other.agent.get(`/api/print/${s.printId}/packing-list`).expect(404);
    const manual = (await s.agent.post('/api/print').send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 1 }] }).expect(201)).body.data;
    const res = await s.agent.get(`/api/print/${manual._id}/packing-list`).expect(409);
    expect(res.body).toMatchObject({ statusCode: 409, code: 'no_order_items', message: 'This print has no items from shop orders, so there is nothing to pack by order.' });
  });
});
