import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { ImagesService } from '../src/images/images.service';
import { NotificationsService } from '../src/notifications/notifications.service';
import { PrintFailureService } from '../src/prints/print-failure.service';
import { addDesign, addSize } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

describe('Notifications (e2e)', () => {
  let t: TestApp;
  let notifications: NotificationsService;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp({ NOTIFICATION_RETENTION_DAYS: '30', PRINT_RETENTION_DAYS: '7', NOTIFICATION_EXPIRY_WARNING_HOURS: '48' });
    notifications = t.app.get(NotificationsService);
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  it('GET /api/notifications → 401 without a session', async () => {
    await t.agent().get('/api/notifications').expect(401);
  });

  it('an admin adding credit notifies the user; list, unread count, mark read, mark all read, delete', async () => {
    const s = await signUpAndLogin(t, 'nt_owner');
    const empty = await s.agent.get('/api/notifications').expect(200);
    expect(empty.body).toEqual({ data: [], pagination: { totalDocuments: 0, totalPages: 0 } });

    const admin = await adminAgent(t);
    await admin.put(`/api/users/${s.user._id}/credit`).send({ availableCredits: 250, reason: 'test setup' }).expect(200);
    // (a lowered balance is told too: users-credit-audit.e2e-spec)
    let list = (await s.agent.get('/api/notifications').expect(200)).body;
    expect(list.pagination).toEqual({ totalDocuments: 1, totalPages: 1 });
    expect(list.data[0]).toMatchObject({ type: 'profile', status: 'unread', message: expect.stringContaining('added 250 credits') });
    expect(new Date(list.data[0].createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);

    for (let i = 1; i <= 11; i++) await notifications.notify(s.user._id, { type: 'print', message: `Print ${i} is ready`, attachmentId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` });
    list = (await s.agent.get('/api/notifications?limit=5').expect(200)).body;
    expect(list.pagination).toEqual({ totalDocuments: 12, totalPages: 3 });
    expect(list.data.map((n: any) => n.message)).toEqual(['Print 11 is ready', 'Print 10 is ready', 'Print 9 is ready', 'Print 8 is ready', 'Print 7 is ready']);
    const page3 = (await s.agent.get('/api/notifications?limit=5&page=3').expect(200)).body;
    expect(page3.data).toHaveLength(2);

    const first = list.data[0];
    const read = await s.agent.put(`/api/notifications/${first._id}/read`).expect(200);
    expect(read.body.data).toMatchObject({ _id: first._id, status: 'read' });
    expect((await s.agent.get('/api/notifications?status=unread').expect(200)).body.pagination.totalDocuments).toBe(11);
    expect((await s.agent.get('/api/notifications?status=read').expect(200)).body.data.map((n: any) => n._id)).toEqual([first._id]);

    const all = await s.agent.put('/api/notifications/read').expect(200);
    expect(all.body.updated).toBe(11);
    expect((await s.agent.get('/api/notifications?status=unread').expect(200)).body.pagination.totalDocuments).toBe(0);
    expect((await s.agent.get('/api/notifications').expect(200)).body.pagination.totalDocuments).toBe(12);

    await s.agent.delete(`/api/notifications/${first._id}`).expect(200);
    await s.agent.delete(`/api/notifications/${first._id}`).expect(404);
    expect((await s.agent.get('/api/notifications').expect(200)).body.pagination.totalDocuments).toBe(11);
    await s.agent.get('/api/notifications?status=new').expect(400);
  });

  it("another user's notification id → 404 on read and delete, and never listed", async () => {
    const a = await signUpAndLogin(t, 'nt_alice');
    const b = await signUpAndLogin(t, 'nt_bob');
    const n = await notifications.notify(a.user._id, { type: 'image', message: 'Alice only' });
    expect(n).not.toBeNull();
    const r1 = await b.agent.put(`/api/notifications/${n!._id}/read`).expect(404);
    expect(r1.body.message).toBe('Notification not found');
    await b.agent.delete(`/api/notifications/${n!._id}`).expect(404);
    await b.agent.put('/api/notifications/read').expect(200);
    expect((await b.agent.get('/api/notifications').expect(200)).body.data).toEqual([]);
    // Alice's is untouched by Bob's calls.
    const mine = (await a.agent.get('/api/notifications').expect(200)).body.data;
    expect(mine).toEqual([expect.objectContaining({ _id: n!._id, status: 'unread', message: 'Alice only' })]);
    // Admins see their own bell only.
    const admin = await adminAgent(t);
    await admin.delete(`/api/notifications/${n!._id}`).expect(404);
    await a.agent.put('/api/notifications/not-a-uuid/read').expect(404);
  });

  it('changing the e-mail on the profile notifies the user', async () => {
    const s = await signUpAndLogin(t, 'nt_mail');
    await s.agent
      .put('/api/profile')
      .send({ firstName: 'Test', lastName: 'Seller', email: 'nt_mail_new@example.com', currentPassword: s.password })
      .expect(200);
    const list = (await s.agent.get('/api/notifications').expect(200)).body.data;
    expect(list).toEqual([expect.objectContaining({ type: 'profile', message: expect.stringContaining('nt_mail_new@example.com') })]);
  });

  it('a dedupe key stores a notification once', async () => {
    const s = await signUpAndLogin(t, 'nt_dedupe');
    expect(await notifications.notify(s.user._id, { type: 'print', message: 'once', dedupeKey: `k:${s.user._id}` })).not.toBeNull();
    expect(await notifications.notify(s.user._id, { type: 'print', message: 'once', dedupeKey: `k:${s.user._id}` })).toBeNull();
    expect((await s.agent.get('/api/notifications').expect(200)).body.pagination.totalDocuments).toBe(1);
  });

  it("record() commits or rolls back with the caller's transaction, and a failed insert does not abort it", async () => {
    const s = await signUpAndLogin(t, 'nt_tx');
    const messages = async () => (await s.agent.get('/api/notifications').expect(200)).body.data.map((n: any) => n.message).sort();
    await expect(
      db.transaction(async (m) => {
        expect(await notifications.record(m, s.user._id, { type: 'print', message: 'rolled back' })).toEqual(expect.any(String));
        throw new Error('the change it was about failed');
      }),
    ).rejects.toThrow('the change it was about failed');
    expect(await messages()).toEqual([]);
    const ids = await db.transaction(async (m) => {
      const bad = await notifications.record(m, s.user._id, { type: 'no-such-type' as any, message: 'refused' });
      // the transaction goes on after the refused insert (rolled back to its savepoint)
      const good = await notifications.record(m, s.user._id, { type: 'print', message: 'committed' });
      return { bad, good };
    });
    expect(ids.bad).toBeNull();
    expect(ids.good).toEqual(expect.any(String));
    expect(await messages()).toEqual(['committed']);
    expect(await notifications.announce(s.user._id, ids.good)).toMatchObject({ _id: ids.good, message: 'committed' });
  });

  it('prunes notifications older than NOTIFICATION_RETENTION_DAYS and keeps newer ones', async () => {
    const s = await signUpAndLogin(t, 'nt_prune');
    const old = await notifications.notify(s.user._id, { type: 'print', message: 'old' });
    const recent = await notifications.notify(s.user._id, { type: 'print', message: 'recent' });
    await db.query(`UPDATE notifications SET created_at = now() - interval '31 days' WHERE id = $1`, [old!._id]);
    await db.query(`UPDATE notifications SET created_at = now() - interval '29 days' WHERE id = $1`, [recent!._id]);
    expect(await notifications.prune()).toBeGreaterThanOrEqual(1);
    const left = (await s.agent.get('/api/notifications').expect(200)).body.data.map((n: any) => n.message);
    expect(left).toEqual(['recent']);
  });

  it('warns once about print files that will be deleted within the warning window', async () => {
    const s = await signUpAndLogin(t, 'nt_expiry');
    const insert = async (status: string, daysAgo: number, filesDeleted = false) =>
      (
        await db.query(
          `INSERT INTO prints (user_id, status, printed_at, files_deleted_at) VALUES ($1, $2, now() - $3 * interval '1 day', ${filesDeleted ? 'now()' : 'NULL'}) RETURNING id`,
          [s.user._id, status, daysAgo],
        )
      )[0].id as string;
    const due = await insert('Completed', 6); // deleted in 1 day: warn
    await insert('Completed', 3); // deleted in 4 days: not yet
    await insert('Completed', 6, true); // files already gone
    await insert('In Draft', 6);
    expect(await notifications.warnExpiringFiles()).toBe(1);
    expect(await notifications.warnExpiringFiles()).toBe(0);
    const list = (await s.agent.get('/api/notifications').expect(200)).body.data;
    expect(list).toEqual([expect.objectContaining({ type: 'print', attachmentId: due, message: expect.stringMatching(/deleted in (2[0-9]|1[0-9]) hours/) })]);
  });

  it('hooks: a failed print (with its reason), an image that could not be prepared, refused uploads, a size used by drafts', async () => {
    const s = await signUpAndLogin(t, 'nt_hooks');
    const [{ id: printId }] = await db.query(`INSERT INTO prints (user_id, status, attempt) VALUES ($1, 'Processing', 1) RETURNING id`, [s.user._id]);
    await t.app.get(PrintFailureService).fail(printId, 1, 'The file of design "x" is missing.');
    // A second report of the same failure (Bull's onFailed after the job's own) stores nothing more.
    await t.app.get(PrintFailureService).fail(printId, 1, 'again');

    const image = await addDesign(t, s.user._id, { name: 'broken' });
    await t.app.get(ImagesService).previewFailed(image._id, new Error('decode failed'));

    // One good file and one that is not an image: the upload succeeds and the refusal is notified.
    const good = await sharp({ create: { width: 40, height: 30, channels: 4, background: { r: 10, g: 20, b: 30, alpha: 1 } } }).png().toBuffer();
    await s.agent.post('/api/images/bulk-upload').attach('files', good, 'good.png').attach('files', Buffer.from('not an image at all'), 'notes.png').expect(201);

    const size = await addSize(t, s.user._id, 'Chest', 4);
    await s.agent.post('/api/print').send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 1 }] }).expect(201);
    await s.agent.put(`/api/sizes/${size._id}`).send({ name: 'Chest', value: 5 }).expect(200);
    const unused = await addSize(t, s.user._id, 'Unused', 2);
    await s.agent.put(`/api/sizes/${unused._id}`).send({ name: 'Unused', value: 3 }).expect(200);

    const list = (await s.agent.get('/api/notifications?limit=20').expect(200)).body.data;
    const by = (type: string) => list.filter((n: any) => n.type === type);
    expect(by('print')).toEqual([expect.objectContaining({ attachmentId: printId, message: `Print ${printId.slice(0, 8).toUpperCase()} could not be processed: The file of design "x" is missing.` })]);
    expect(by('image')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ attachmentId: image._id, message: 'The image "broken" could not be prepared. Delete it and upload it again.' }),
        expect.objectContaining({ attachmentId: null, message: expect.stringMatching(/^"notes\.png" was not uploaded: /) }),
      ]),
    );
    expect(by('image')).toHaveLength(2);
    expect(by('size')).toEqual([expect.objectContaining({ attachmentId: size._id, message: 'Size "Chest" is now 5 in; 1 unprocessed print uses it.' })]);
  });
});
