import { DataSource } from 'typeorm';
import { MailService } from '../src/mail/mail.service';
import { OutboxService } from '../src/queue/outbox.service';
import { createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/** Mails that report a change (a print Completed or failed) go through the job outbox. */
describe('Queued mail (e2e)', () => {
  let t: TestApp;
  let mail: MailService;
  let outbox: OutboxService;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp();
    mail = t.app.get(MailService);
    outbox = t.app.get(OutboxService);
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const queued = async () => (await db.query(`SELECT job_id FROM job_outbox WHERE name = 'send-mail' ORDER BY job_id`)).map((r: { job_id: string }) => r.job_id);

  it("commits or rolls back with the caller's transaction, and a refused write does not abort it", async () => {
    const s = await signUpAndLogin(t, 'mq_tx');
    await expect(
      db.transaction(async (m) => {
        expect(await mail.queue(m, 'test:rolled-back', { to: s.email, subject: 'Rolled back', text: 'x' })).toBe('mail:test:rolled-back');
        throw new Error('the change it was about failed');
      }),
    ).rejects.toThrow('the change it was about failed');
    expect(await queued()).toEqual([]);

    const ids = await db.transaction(async (m) => {
      // the job id column holds 200 characters: this write is refused by the database
      const bad = await mail.queue(m, 'x'.repeat(300), { to: s.email, subject: 'Refused', text: 'x' });
      const good = await mail.queue(m, 'test:committed', { to: s.email, subject: 'Committed and dispatched', text: 'x' });
      await m.query(`UPDATE users SET first_name = 'Still' WHERE id = $1`, [s.user._id]);
      return { bad, good };
    });
    expect(ids).toEqual({ bad: null, good: 'mail:test:committed' });
    expect(await queued()).toEqual(['mail:test:committed']);
    expect((await db.query(`SELECT first_name FROM users WHERE id = $1`, [s.user._id]))[0].first_name).toBe('Still');

    await mail.dispatch(ids.good);
    await t.mail.waitFor(s.email, /Committed and dispatched/);
    expect(await queued()).toEqual([]);
  });

  it('a mail whose process died before dispatching it is sent by the recovery sweep, once', async () => {
    const s = await signUpAndLogin(t, 'mq_left');
    const jobId = await db.transaction((m) => mail.queue(m, 'test:left-behind', { to: s.email, subject: 'Left in the outbox', text: 'x' }));
    // written twice under one key (a status change reported again): still one mail
    await db.transaction((m) => mail.queue(m, 'test:left-behind', { to: s.email, subject: 'Left in the outbox', text: 'x' }));
    expect(await outbox.pending(jobId!)).toBe(true);
    expect(await outbox.dispatchPending(0)).toBe(1);
    await t.mail.waitFor(s.email, /Left in the outbox/);
    expect(await outbox.pending(jobId!)).toBe(false);
    await new Promise((r) => setTimeout(r, 300));
    expect(t.mail.messages.filter((m) => m.to.includes(s.email) && m.subject === 'Left in the outbox')).toHaveLength(1);
  });
});
