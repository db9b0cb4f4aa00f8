import Bull from 'bull';
import Redis from 'ioredis';
import { ChildProcess } from 'node:child_process';
import { DataSource } from 'typeorm';
import { CreditsService } from '../src/credits/credits.service';
import { BullRunner } from '../src/queue/bull-runner';
import { JobName } from '../src/queue/jobs';
import { addDesign, addSize, setCredits, waitDone, waitFor } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';
import { REDIS_URL } from './utils/test-env';
import { startWorkerProcess } from './utils/worker-process';

jest.setTimeout(240_000);

/**
 * Redis loses its data while a worker holds a print job. The API only
 * enqueues; a worker process runs the jobs, sweeps every second and checks its repeating
 * jobs every second. Its renders fail on a "disk full" check (PRINT_MIN_FREE_MB), an error a
 * retry could fix, so a failed attempt goes through Bull's retry path.
 */
describe('Jobs: Redis loses its data under a running job (e2e)', () => {
  let t: TestApp;
  let worker: ChildProcess | undefined;
  const redis = new Redis(REDIS_URL);

  beforeAll(async () => {
    t = await createTestApp({ PROCESS_JOBS: 'false' });
    worker = await startWorkerProcess(t, 'worker', {
      PRINT_MIN_FREE_MB: '1000000000',
      PRINT_JOB_ATTEMPTS: '1',
      JOB_RECOVERY_INTERVAL_SECONDS: '1',
      JOB_RECOVERY_GRACE_SECONDS: '0',
      QUEUE_REPEAT_CHECK_SECONDS: '1',
      JOB_STALL_SECONDS: '3600',
    });
  });
  afterAll(async () => {
    if (worker && worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
    await dropQueueKeys(t.config.redis.prefix);
    redis.disconnect();
    await t.close();
  });

  /** What a Redis that comes back empty looks like to this app: none of its keys (other tests share the server). */
  async function dropQueueKeys(prefix: string) {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }

  /** A print whose job runs and waits (its image is still "being inspected") until the test lets it go on. */
  async function heldPrint(name: string) {
    const admin = await adminAgent(t);
    const s = await signUpAndLogin(t, name);
    await setCredits(t, admin, s.user._id, 100);
    const image = await addDesign(t, s.user._id);
    // Processing, and too new for the sweep to queue a preview for it
    const db = t.app.get(DataSource);
    await db.query(`UPDATE images SET status = 'processing', created_at = now() + interval '1 hour' WHERE id = $1`, [image._id]);
    const size = await addSize(t, s.user._id, 'Small', 2);
    const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 5 }] }).expect(201)).body.data;
    await s.agent.post(`/api/print/${p._id}/process`).send({}).expect(201);
    const q = new Bull('prints', REDIS_URL, { prefix: t.config.redis.prefix });
    try {
      await waitFor(async () => (await (await q.getJob(`print:${p._id}:1`))?.getState()) === 'active', 60_000, 'the worker to take the job');
    } finally {
      await q.close();
    }
    const release = () => db.query(`UPDATE images SET status = 'ready', created_at = now() WHERE id = $1`, [image._id]);
    return { s, p, release };
  }

  async function expectRefunded(s: Awaited<ReturnType<typeof signUpAndLogin>>) {
    const credits = t.app.get(CreditsService);
    const rows = await credits.ledger(s.user._id);
    expect(rows.filter((r) => r.reason === 'print_charge')).toHaveLength(1);
    expect(rows.filter((r) => r.reason === 'refund')).toHaveLength(1);
    expect((await s.agent.get('/api/profile')).body.data.credit).toEqual({ availableCredits: 100, usedCredits: 0 });
    expect(await credits.consistent(s.user._id)).toBe(true);
  }

  it('flushed under a held job → the repeating jobs are back, and the print is re-run and ends refunded (not Processing for good)', async () => {
    const { s, p, release } = await heldPrint('flushed');
    await dropQueueKeys(t.config.redis.prefix);
    // the attempt now fails (disk check) with no lists left under it: Bull leaves a bare job record
    await release();

    const repeating = async (queue: string, name: string) => {
      const q = new Bull(queue, REDIS_URL, { prefix: t.config.redis.prefix });
      try {
        return (await q.getRepeatableJobs()).some((j) => j.name === name);
      } finally {
        await q.close();
      }
    };
    await waitFor(
      async () => (await repeating('maintenance', JobName.JobRecovery)) && (await repeating('payments', JobName.PaymentReconcile)) && (await repeating('shops', JobName.OrderSyncSchedule)),
      20_000,
      'the repeating jobs to be registered again',
    );

    const done = await waitDone(s.agent, p._id, 90_000);
    expect(done.status).toBe('Error');
    expect(done.error).toMatch(/disk space/);
    await expectRefunded(s);
  });

  it('a job the queue says is running, with no heartbeat for longer than JOB_STALL_SECONDS → lost: Error, refunded once', async () => {
    const { s, p } = await heldPrint('silent');
    const db = t.app.get(DataSource);
    // the worker still holds the job (Bull: active, lock renewed) but our record shows no life
    const silence = setInterval(() => void db.query(`UPDATE prints SET updated_at = now() - interval '2 hours' WHERE id = $1`, [p._id]).catch(() => undefined), 100);
    try {
      const done = await waitDone(s.agent, p._id, 30_000);
      expect(done.status).toBe('Error');
      expect(done.error).toMatch(/stopped responding/);
    } finally {
      clearInterval(silence);
    }
    await expectRefunded(s);
  });

  it('a connection that comes back to an empty Redis registers the repeating jobs again at once (no periodic check needed)', async () => {
    const prefix = `${t.config.redis.prefix}_ready`;
    const runner = new BullRunner(REDIS_URL, prefix, {}, true, { repeatCheckMs: 3600_000 });
    const q = new Bull('maintenance', REDIS_URL, { prefix });
    try {
      await runner.repeat(JobName.JobRecovery, 60_000);
      expect((await q.getRepeatableJobs()).map((j) => j.name)).toEqual([JobName.JobRecovery]);
      await dropQueueKeys(prefix);
      expect(await q.getRepeatableJobs()).toEqual([]);
      // the runner's connection drops and comes back (a Redis restart, a failover)
      (runner as unknown as { queues: Map<string, Bull.Queue> }).queues.get('maintenance')!.client.disconnect(true);
      await waitFor(async () => (await q.getRepeatableJobs()).some((j) => j.name === JobName.JobRecovery), 10_000, 'the schedule after the reconnect');
    } finally {
      await q.close();
      await runner.close();
      await dropQueueKeys(prefix);
    }
  });

  it("a bare job record (Bull's 'stuck') is not a live job, and the same job can be queued again", async () => {
    const prefix = `${t.config.redis.prefix}_bare`;
    const runner = new BullRunner(REDIS_URL, prefix, {}, false);
    try {
      await redis.hset(`${prefix}:images:image-preview:x`, 'attemptsMade', '1', 'failedReason', 'Missing lock');
      expect(await runner.state(JobName.ImagePreview, 'image-preview:x')).toBe('missing');
      expect(await runner.add(JobName.ImagePreview, { imageId: 'x' }, { jobId: 'image-preview:x' })).toEqual({ id: 'image-preview:x', added: true });
      expect(await runner.state(JobName.ImagePreview, 'image-preview:x')).toBe('waiting');
    } finally {
      await runner.close();
      await dropQueueKeys(prefix);
    }
  });
});
