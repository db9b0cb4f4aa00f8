import { InProcessRunner } from './in-process-runner';
import { JobName } from './jobs';

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

/** Jobs that run until the test releases them, recording the order they started in. */
function gate() {
  const started: string[] = [];
  const release = new Map<string, () => void>();
  return {
    started,
    handler: async (job: { data: { imageId: string } }) => {
      started.push(job.data.imageId);
      await new Promise<void>((r) => release.set(job.data.imageId, r));
    },
    finish: (id: string) => release.get(id)!(),
  };
}

describe('InProcessRunner fairness', () => {
  let runner: InProcessRunner;
  afterEach(() => runner.close());

  it('a seller with a backlog never takes every slot: another seller starts at once', async () => {
    runner = new InProcessRunner();
    const g = gate();
    runner.process(JobName.ImagePreview, g.handler, { concurrency: 2 });
    for (let i = 1; i <= 5; i++) await runner.add(JobName.ImagePreview, { imageId: `a${i}`, userId: 'A' }, { jobId: `a${i}` });
    await tick();
    // the seller's cap is concurrency − 1: one of A's runs, the other slot stays free
    expect(g.started).toEqual(['a1']);
    await runner.add(JobName.ImagePreview, { imageId: 'b1', userId: 'B' }, { jobId: 'b1' });
    await tick();
    expect(g.started).toEqual(['a1', 'b1']);
    expect(await runner.state(JobName.ImagePreview, 'b1')).toBe('running');
    expect(await runner.state(JobName.ImagePreview, 'a2')).toBe('waiting');
    g.finish('a1');
    await tick();
    expect(g.started).toEqual(['a1', 'b1', 'a2']);
  });

  it('round-robin: of two backlogs the group that started a job least recently goes next', async () => {
    runner = new InProcessRunner();
    const g = gate();
    runner.process(JobName.ImagePreview, g.handler, { concurrency: 1 });
    for (let i = 1; i <= 3; i++) await runner.add(JobName.ImagePreview, { imageId: `a${i}`, userId: 'A' }, { jobId: `a${i}` });
    for (let i = 1; i <= 3; i++) await runner.add(JobName.ImagePreview, { imageId: `b${i}`, userId: 'B' }, { jobId: `b${i}` });
    for (let n = 0; n < 6; n++) {
      await tick();
      g.finish(g.started[g.started.length - 1]);
    }
    await tick();
    expect(g.started).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'b3']);
  });

  it('jobs without a group keep their order', async () => {
    runner = new InProcessRunner();
    const g = gate();
    runner.process(JobName.ImagePreview, g.handler, { concurrency: 1 });
    for (const id of ['x', 'y', 'z']) await runner.add(JobName.ImagePreview, { imageId: id }, { jobId: id });
    for (let n = 0; n < 3; n++) {
      await tick();
      g.finish(g.started[g.started.length - 1]);
    }
    expect(g.started).toEqual(['x', 'y', 'z']);
    expect(await runner.state(JobName.ImagePreview, 'x')).toBe('missing');
  });
});
