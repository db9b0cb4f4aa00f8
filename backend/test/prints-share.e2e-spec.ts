import { DataSource } from 'typeorm';
import { PrintRetentionService } from '../src/prints/print-retention.service';
import { SHARE_MSG } from '../src/prints/print-shares.service';
import { addDesign, addSize, binary, setCredits, waitDone } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/**
 * Share links: the owner (or an admin) gets signed links to the sheet files that work for
 * anyone without an account until the files' retention ends; revoking, expiry, deleting or
 * re-processing the files and the retention sweep all end them with a clear message.
 */
describe('Prints: share links (e2e)', () => {
  let t: TestApp;
  let admin: any;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await adminAgent(t);
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  async function seller(name: string) {
    const s = await signUpAndLogin(t, name);
    await setCredits(t, admin, s.user._id, 50);
    const image = await addDesign(t, s.user._id, { name: `${name}-art`, width: 400, height: 300, border: 20 });
    const size = await addSize(t, s.user._id, 'Badge', 1);
    return { ...s, image, size };
  }

  async function processed(s: Awaited<ReturnType<typeof seller>>, formats: string[] = ['png', 'pdf']) {
    const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: s.image._id, sizeId: s.size._id, quantity: 2 }] }).expect(201)).body.data;
    return reprocess(s, p._id, formats);
  }

  async function reprocess(s: Awaited<ReturnType<typeof seller>>, id: string, formats: string[] = ['png', 'pdf']) {
    await s.agent.post(`/api/print/${id}/process`).send({ settings: { width: 4, maxLength: 20, formats } }).expect(201);
    const done = await waitDone(s.agent, id);
    expect(done.status).toBe('Completed');
    return done;
  }

  /** A visitor with no cookie at all. */
  const stranger = () => t.agent();
  const download = (path: string) => stranger().get(path).buffer(true).parse(binary);
  const share = async (agent: any, id: string) => (await agent.post(`/api/print/${id}/share`).expect(200)).body.data;

  it('a stranger with no account downloads every sheet file through the links, which end with the retention', async () => {
    const s = await seller('sharer');
    const print = await processed(s);
    // The owner's own URL is no share link: anyone else gets a 401.
    await stranger().get(print.fileId[0].path).expect(401);

    const links = await share(s.agent, print._id);
    expect(new Date(links.expiresAt).toISOString()).toBe(new Date(Math.floor(new Date(print.filesExpireAt).getTime() / 1000) * 1000).toISOString());
    expect(links.files.map((f: any) => [f.format, f.sheet])).toEqual(print.fileId.map((f: any) => [f.format, f.sheet]));
    for (const f of links.files) {
      expect(f.path).toMatch(/^\/api\/shared\/[A-Za-z0-9_-]+\/files\/\d+(\/pdf)?$/);
      const res = await download(f.path).expect(200);
      expect(res.headers['content-type']).toBe(f.format === 'png' ? 'image/png' : 'application/pdf');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="print-${print._id.slice(0, 8)}-sheet-${f.sheet}.${f.format}"`);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.body.length).toBe(f.bytes);
    }
    const png = links.files.find((f: any) => f.format === 'png').path;
    expect((await download(png)).body.subarray(0, 4).toString('hex')).toBe('89504e47');
    // The same request again gives the same link (nothing is stored per link).
    expect((await share(s.agent, print._id)).files[0].path).toBe(links.files[0].path);

    // A sheet that does not exist, a forged or damaged token.
    expect((await stranger().get(png.replace(/\/1$/, '/9')).expect(404)).body.message).toBe('File not found');
    const token = png.split('/')[3];
    const forged = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    expect((await stranger().get(`/api/shared/${forged}/files/1`).expect(404)).body.message).toBe(SHARE_MSG.invalid);
    expect((await stranger().get('/api/shared/not-a-token/files/1').expect(404)).body.message).toBe(SHARE_MSG.invalid);

    // Past the link's expiry (the files' retention end), even before the sweep ran.
    const realNow = Date.now;
    const after = new Date(links.expiresAt).getTime() + 1000;
    const spy = jest.spyOn(Date, 'now').mockImplementation(() => after);
    try {
      const res = await stranger().get(png).expect(410);
      expect(res.body.message).toBe(SHARE_MSG.expired);
    } finally {
      spy.mockRestore();
    }
    expect(Date.now).toBe(realNow);
    await download(png).expect(200);

    // The retention sweep deleted the files: the link says so.
    await db.query(`UPDATE prints SET printed_at = now() - interval '7 days 1 minute' WHERE id = $1`, [print._id]);
    expect(await t.app.get(PrintRetentionService).expireFiles()).toBeGreaterThanOrEqual(1);
    expect((await stranger().get(png).expect(410)).body.message).toBe(SHARE_MSG.filesGone);
    // And no new link for files that are gone.
    expect((await s.agent.post(`/api/print/${print._id}/share`).expect(410)).body.message).toBe(SHARE_MSG.filesGone);
  });

  it('revoking ends every link made so far; a new link works again', async () => {
    const s = await seller('revoker');
    const print = await processed(s, ['png']);
    const first = (await share(s.agent, print._id)).files[0].path;
    const byAdmin = (await share(admin, print._id)).files[0].path;
    await download(first).expect(200);
    await download(byAdmin).expect(200);

    expect((await s.agent.delete(`/api/print/${print._id}/share`).expect(200)).body.message).toBe(SHARE_MSG.revokedAll);
    for (const path of [first, byAdmin]) expect((await stranger().get(path).expect(410)).body.message).toBe(SHARE_MSG.revoked);
    // The print and its owner's downloads are untouched.
    await s.agent.get(print.fileId[0].path).expect(200);

    const fresh = (await share(s.agent, print._id)).files[0].path;
    expect(fresh).not.toBe(first);
    await download(fresh).expect(200);
    // An admin may revoke too.
    await admin.delete(`/api/print/${print._id}/share`).expect(200);
    await stranger().get(fresh).expect(410);
  });

  it('only the owner or an admin makes or revokes links, and only for a Completed print', async () => {
    const owner = await seller('shareowner');
    const print = await processed(owner, ['png']);
    const other = await signUpAndLogin(t, 'sharesnoop');
    for (const res of [
      await other.agent.post(`/api/print/${print._id}/share`).expect(404),
      await other.agent.delete(`/api/print/${print._id}/share`).expect(404),
      await other.agent.post('/api/print/not-a-uuid/share').expect(404),
    ])
      expect(res.body.message).toBe('Print not found');
    await stranger().post(`/api/print/${print._id}/share`).expect(401);

    const draft = (await owner.agent.post('/api/print').send({ printItems: [{ imageId: owner.image._id, sizeId: owner.size._id, quantity: 1 }] }).expect(201)).body.data;
    const refused = await owner.agent.post(`/api/print/${draft._id}/share`).expect(409);
    expect(refused.body).toMatchObject({ message: SHARE_MSG.notShareable, code: 'invalid_status' });
  });

  it('deleting or re-processing the files ends the links; a force-deleted print too', async () => {
    const s = await seller('redoer');
    const print = await processed(s, ['png']);
    const link = (await share(s.agent, print._id)).files[0].path;
    await s.agent.delete(`/api/print/${print._id}`).expect(200);
    expect((await stranger().get(link).expect(410)).body.message).toBe(SHARE_MSG.filesGone);
    // Processed again: the old link does not open the new files.
    await reprocess(s, print._id, ['png']);
    expect((await stranger().get(link).expect(410)).body.message).toBe(SHARE_MSG.filesGone);
    const again = (await share(s.agent, print._id)).files[0].path;
    await download(again).expect(200);

    await s.agent.delete(`/api/print/${print._id}/force`).expect(200);
    expect((await stranger().get(again).expect(410)).body.message).toBe(SHARE_MSG.filesGone);
  });
});
