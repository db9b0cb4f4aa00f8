import { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import Bull from 'bull';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { CreditsService } from '../src/credits/credits.service';
import { Image } from '../src/images/entities/image.entity';
import { PrintJobService } from '../src/prints/print-job.service';
import { StorageService } from '../src/storage/storage.service';
import { addDesign, addSize, binary, cancelWhileRendering, setCredits, waitDone, waitFor } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';
import { REDIS_URL } from './utils/test-env';
import { JOB_RUNNER } from '../src/queue/queue.module';
import { JobRunner } from '../src/queue/queue.types';
import { JobName } from '../src/queue/jobs';
import { startWorkerProcess } from './utils/worker-process';

jest.setTimeout(240_000);

/**
 * Bull's stalled-job recovery with real worker processes (src/worker.ts): the API here does
 * not process jobs; worker A is SIGKILLed in the middle of rendering, worker B picks the job
 * up once A's lock expires, and the print completes once, charged once.
 */
describe('Prints: a worker killed mid-job (e2e)', () => {
  let t: TestApp;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    t = await createTestApp({ PROCESS_JOBS: 'false', QUEUE_LOCK_DURATION_MS: '2000', QUEUE_STALLED_INTERVAL_MS: '1000' });
  });
  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
    await t.close();
  });

  async function startWorker(name: string, extraEnv: Record<string, string> = {}): Promise<ChildProcess> {
    const child = startWorkerProcess(t, `worker ${name}`, { QUEUE_LOCK_DURATION_MS: '2000', QUEUE_STALLED_INTERVAL_MS: '1000', ...extraEnv });
    workers.push(await child);
    return child;
  }

  it('SIGKILL during render → another worker completes the print once, charged once', async () => {
    const admin = await adminAgent(t);
    const s = await signUpAndLogin(t, 'stalled');
    await setCredits(t, admin, s.user._id, 500);
    const image = await addDesign(t, s.user._id, { name: 'big', width: 1200, height: 800, border: 20 });
    const size = await addSize(t, s.user._id, 'Back', 5);
    const copies = 60;
    const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: copies }] }).expect(201)).body.data;

    const a = await startWorker('A');
    await s.agent.post(`/api/print/${p._id}/process`).send({}).expect(201);
    const jobId = `print:${p._id}:1`;
    const q = new Bull('prints', REDIS_URL, { prefix: t.config.redis.prefix });
    try {
      // mid-job: rendering has started but the print is not finished
      await waitFor(async () => {
        const job = await q.getJob(jobId);
        return job && Number(job.progress()) >= 12;
      }, 120_000, 'worker A to start rendering');
      a.kill('SIGKILL');
      await new Promise((r) => a.once('exit', r));
      expect((await s.agent.get(`/api/print/${p._id}`)).body.data.status).toBe('Processing');

      const b = await startWorker('B');
      const done = await waitDone(s.agent, p._id, 180_000);
      expect(done.status).toBe('Completed');
      await waitFor(async () => (await (await q.getJob(jobId))!.getState()) === 'completed', 30_000, 'the job to complete');
      const job = await q.getJob(jobId);
      expect(job!.returnvalue).toMatchObject({ outcome: 'completed', copies });
      expect(job!.stacktrace).toEqual([]);
      // the "ready" mail is a job of its own (written with the status): B sends it too
      await t.mail.waitFor(s.email, / is ready$/);
      b.kill('SIGKILL');

      const png = await s.agent.get(done.fileId[0].path).buffer(true).parse(binary).expect(200);
      expect(await sharp(png.body).metadata()).toMatchObject({ width: 6600, height: done.fileId[0].heightPx, density: 300 });
      const credits = t.app.get(CreditsService);
      const rows = await credits.ledger(s.user._id);
      expect(rows.filter((r) => r.reason === 'print_charge')).toHaveLength(1);
      expect(rows.filter((r) => r.reason === 'refund')).toHaveLength(0);
      expect((await s.agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 500 - copies, usedCredits: copies });
      expect(await credits.consistent(s.user._id)).toBe(true);
      expect((await t.app.get(DataSource).getRepository(Image).findOneByOrFail({ _id: image._id })).usedInPrint).toBe(copies);
      await new Promise((r) => setTimeout(r, 1000));
      expect(t.mail.messages.filter((m) => m.to.includes(s.email) && /ready/.test(m.subject))).toHaveLength(1);
    } finally {
      await q.close();
    }
  });

  it('two runs of the same attempt at once (a lock lost while still running) → one completes, the other is skipped', async () => {
    const admin = await adminAgent(t);
    const s = await signUpAndLogin(t, 'twice');
    await setCredits(t, admin, s.user._id, 10);
    const image = await addDesign(t, s.user._id);
    const size = await addSize(t, s.user._id, 'Small', 1);
    const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 5 }] }).expect(201)).body.data;
    await s.agent.post(`/api/print/${p._id}/process`).send({}).expect(201);
    const jobs = t.app.get(PrintJobService);
    const ctx = () => ({ id: `print:${p._id}:1`, name: JobName.ProcessPrint, data: { printId: p._id, attempt: 1 }, attemptsMade: 0, progress: async () => undefined });
    const outcomes = await Promise.all([jobs.run(ctx()), jobs.run(ctx())]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['completed', 'skipped']);
    const done = (await s.agent.get(`/api/print/${p._id}`)).body.data;
    expect(done.status).toBe('Completed');
    await s.agent.get(done.fileId[0].path).buffer(true).parse(binary).expect(200);
    expect((await t.app.get(DataSource).getRepository(Image).findOneByOrFail({ _id: image._id })).usedInPrint).toBe(5);
    expect(await t.app.get(CreditsService).consistent(s.user._id)).toBe(true);
    // and a late third run of a finished attempt does nothing
    expect((await jobs.run(ctx())).outcome).toBe('skipped');
  });
  async function bigPrint(name: string, copies = 60) {
    const admin = await adminAgent(t);
    const s = await signUpAndLogin(t, name);
    await setCredits(t, admin, s.user._id, 500);
    const image = await addDesign(t, s.user._id, { name: 'big', width: 1200, height: 800, border: 20 });
    const size = await addSize(t, s.user._id, 'Back', 5);
    const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: copies }] }).expect(201)).body.data;
    return { s, p, copies };
  }

  async function killWhenRendering(q: Bull.Queue, jobId: string, w: ChildProcess, name: string) {
    await waitFor(async () => {
      const job = await q.getJob(jobId);
      return job && Number(job.progress()) >= 12;
    }, 120_000, `worker ${name} to start rendering`);
    w.kill('SIGKILL');
    await new Promise((r) => w.once('exit', r));
    // so the next worker's progress shows when it is rendering in turn
    await (await q.getJob(jobId))!.progress(0);
  }

  it('a worker killed twice on one job → Bull fails it as stalled → Error, refunded once', async () => {
    const { s, p } = await bigPrint('killedtwice');
    const jobId = `print:${p._id}:1`;
    const q = new Bull('prints', REDIS_URL, { prefix: t.config.redis.prefix });
    try {
      await s.agent.post(`/api/print/${p._id}/process`).send({}).expect(201);
      await killWhenRendering(q, jobId, await startWorker('A'), 'A');
      await killWhenRendering(q, jobId, await startWorker('B'), 'B');
      const c = await startWorker('C');
      // C's stalled-job check finds the job stalled a second time: Bull fails it with
      // attempts to spare, and the failure must still end the print and refund it
      const done = await waitDone(s.agent, p._id, 60_000);
      expect(done.status).toBe('Error');
      expect((await q.getJob(jobId))!.failedReason).toBe('job stalled more than allowable limit');
      const credits = t.app.get(CreditsService);
      await new Promise((r) => setTimeout(r, 1500)); // a second refund, if any, would land now
      const rows = await credits.ledger(s.user._id);
      expect(rows.filter((r) => r.reason === 'print_charge')).toHaveLength(1);
      expect(rows.filter((r) => r.reason === 'refund')).toHaveLength(1);
      expect((await s.agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 500, usedCredits: 0 });
      expect(await credits.consistent(s.user._id)).toBe(true);
      // the run folders of the two killed runs are gone with the attempt
      expect(existsSync(t.app.get(StorageService).path(`users/${s.user._id}/prints/${p._id}/1`))).toBe(false);
      c.kill('SIGKILL');
    } finally {
      await q.close();
    }
  });

  it('the API dies between the charge commit and the enqueue → the outbox row is enqueued by the recovery sweep; completed once', async () => {
    const { s, p, copies } = await bigPrint('apikilled', 4);
    const jobId = `print:${p._id}:1`;
    // The process "dies" right after the commit: the enqueue never happens and the request never answers.
    const runner = t.app.get<JobRunner>(JOB_RUNNER);
    const add = jest.spyOn(runner, 'add').mockImplementationOnce(() => new Promise(() => undefined));
    await expect(s.agent.post(`/api/print/${p._id}/process`).send({}).timeout(3000)).rejects.toThrow(/Timeout/);
    add.mockRestore();
    const q = new Bull('prints', REDIS_URL, { prefix: t.config.redis.prefix });
    try {
      expect(await q.getJob(jobId)).toBeNull();
      expect((await s.agent.get(`/api/print/${p._id}`)).body.data.status).toBe('Processing');
      const credits = t.app.get(CreditsService);
      expect((await credits.ledger(s.user._id)).filter((r) => r.reason === 'print_charge')).toHaveLength(1);

      const w = await startWorker('D', { JOB_RECOVERY_GRACE_SECONDS: '1' });
      const done = await waitDone(s.agent, p._id, 120_000);
      expect(done.status).toBe('Completed');
      w.kill('SIGKILL');
      const rows = await credits.ledger(s.user._id);
      expect(rows.filter((r) => r.reason === 'print_charge')).toHaveLength(1);
      expect(rows.filter((r) => r.reason === 'refund')).toHaveLength(0);
      expect((await s.agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 500 - copies, usedCredits: copies });
      expect(await t.app.get(DataSource).query(`SELECT * FROM job_outbox WHERE name = 'process-print'`)).toEqual([]);
    } finally {
      await q.close();
    }
  });
  it('an uploaded image whose preview job was lost → the sweep of a starting worker queues it again → ready', async () => {
    const s = await signUpAndLogin(t, 'lostimage');
    const png = await sharp({ create: { width: 300, height: 200, channels: 4, background: { r: 10, g: 120, b: 200, alpha: 1 } } }).png().toBuffer();
    const imageId = (await s.agent.post('/api/images/bulk-upload').attach('files', png, 'lost.png').expect(201)).body.data[0]._id;
    // no worker runs here; losing the queued job is what a restart of the embedded default does
    const q = new Bull('images', REDIS_URL, { prefix: t.config.redis.prefix });
    try {
      await (await q.getJob(`image-preview:${imageId}`))!.remove();
    } finally {
      await q.close();
    }
    expect((await s.agent.get(`/api/images/${imageId}`).expect(200)).body.data.status).toBe('processing');
    const w = await startWorker('E', { JOB_RECOVERY_GRACE_SECONDS: '0' });
    await waitFor(async () => (await s.agent.get(`/api/images/${imageId}`).expect(200)).body.data.status === 'ready', 60_000, 'the image to be ready');
    w.kill('SIGKILL');
  });
  it('cancel from the API while a worker renders → the worker notices by its status poll and stops at once, no retry', async () => {
    const { s, p } = await bigPrint('workercancel');
    const q = new Bull('prints', REDIS_URL, { prefix: t.config.redis.prefix });
    const w = await startWorker('F', { PRINT_CANCEL_POLL_MS: '200' });
    try {
      const job = await cancelWhileRendering(s.agent, q, p._id);
      expect(job.returnvalue).toEqual({ outcome: 'skipped', reason: 'cancelled while rendering' });
      expect(job.attemptsMade).toBe(0);
      expect(existsSync(t.app.get(StorageService).path(`users/${s.user._id}/prints/${p._id}/1`)) ? readdirSync(t.app.get(StorageService).path(`users/${s.user._id}/prints/${p._id}/1`)) : []).toEqual([]);
      const rows = await t.app.get(CreditsService).ledger(s.user._id);
      expect(rows.filter((r) => r.reason === 'refund')).toHaveLength(1);
    } finally {
      w.kill('SIGKILL');
      await q.close();
    }
  });
});
