import Redis from 'ioredis';
import { BullRunner } from '../src/queue/bull-runner';
import { JobName } from '../src/queue/jobs';
import { REDIS_URL } from './utils/test-env';

jest.setTimeout(60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Fairness of a shared queue with Bull on the real Redis, two runners standing in for two
 * nodes: one seller's backlog of slow jobs never holds up another seller's job.
 */
describe('Queue fairness with Bull (e2e)', () => {
  const prefix = `gs_test_fair_${process.pid}_${Date.now()}`;
  const runners: BullRunner[] = [];
  const redis = new Redis(REDIS_URL);

  afterAll(async () => {
    await Promise.all(runners.map((r) => r.close()));
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  /** Runs preview jobs of `ms` each (A's slow, B's quick) and records who ran when. */
  function node(concurrency: number, log: Array<{ id: string; node: number; start: number; end?: number }>, n: number) {
    const r = new BullRunner(REDIS_URL, prefix, {}, true);
    runners.push(r);
    r.process(
      JobName.ImagePreview,
      async (job) => {
        const entry: (typeof log)[number] = { id: job.data.imageId, node: n, start: Date.now() };
        log.push(entry);
        await sleep(job.data.imageId.startsWith('a') ? 3000 : 50);
        entry.end = Date.now();
      },
      { concurrency },
    );
    return r;
  }

  it('two nodes: a seller runs one job at a time in all, another seller starts at once; nothing uses an attempt', async () => {
    const log: Array<{ id: string; node: number; start: number; end?: number }> = [];
    const [n1] = [node(2, log, 1), node(2, log, 2)];
    await sleep(300);
    for (let i = 1; i <= 6; i++) await n1.add(JobName.ImagePreview, { imageId: `a${i}`, userId: 'A' }, { jobId: `fair1:a${i}`, attempts: 1 });
    await sleep(400);
    const bAdded = Date.now();
    await n1.add(JobName.ImagePreview, { imageId: 'b1', userId: 'B' }, { jobId: 'fair1:b1', attempts: 1 });
    const deadline = Date.now() + 45_000;
    while (log.filter((e) => e.end).length < 7 && Date.now() < deadline) await sleep(100);

    const b = log.find((e) => e.id === 'b1')!;
    expect(b).toBeDefined();
    expect(b.start - bAdded).toBeLessThan(1000);
    // at no time two of A's jobs at once, on either node
    const a = log.filter((e) => e.id.startsWith('a'));
    for (const x of a) expect(a.filter((y) => y !== x && y.start < x.end! && x.start < y.end!)).toEqual([]);
    // each ran once and completed with attempts: 1 (a job put back did not use its only attempt)
    expect(a.map((e) => e.id).sort()).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6']);
    for (let i = 1; i <= 6; i++) expect(await n1.state(JobName.ImagePreview, `fair1:a${i}`)).toBe('completed');
  });

  it('priority: a newcomer goes ahead of another seller’s backlog instead of behind it', async () => {
    const log: Array<{ id: string; node: number; start: number; end?: number }> = [];
    const r = new BullRunner(REDIS_URL, `${prefix}_p`, {}, true);
    runners.push(r);
    // only enqueues for now: the whole backlog is in line before the newcomer arrives
    for (let i = 1; i <= 4; i++) await r.add(JobName.ImagePreview, { imageId: `a${i}`, userId: 'A' }, { jobId: `p:a${i}` });
    await r.add(JobName.ImagePreview, { imageId: 'b1', userId: 'B' }, { jobId: 'p:b1' });
    r.process(
      JobName.ImagePreview,
      async (job) => {
        const entry: (typeof log)[number] = { id: job.data.imageId, node: 1, start: Date.now() };
        log.push(entry);
        await sleep(100);
        entry.end = Date.now();
      },
      { concurrency: 1 },
    );
    const deadline = Date.now() + 20_000;
    while (log.filter((e) => e.end).length < 5 && Date.now() < deadline) await sleep(50);
    await sleep(200);
    expect(log.map((e) => e.id)).toEqual(['a1', 'b1', 'a2', 'a3', 'a4']);
    const keys = await redis.keys(`${prefix}_p:*`);
    if (keys.length) await redis.del(...keys);
  });
});
