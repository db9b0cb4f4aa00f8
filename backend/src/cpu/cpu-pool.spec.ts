import * as fs from 'fs';
import { join } from 'path';
import { cpuWorkerEnv } from '../config/configuration';
import { AbortError, alive, CpuPool, CpuTimeoutError, isAbortError } from './cpu-pool';

describe('CpuPool', () => {
  let pool: CpuPool;
  beforeAll(() => {
    pool = new CpuPool(1, join(__dirname, '../cpu.worker'), cpuWorkerEnv({ ...process.env, MALLOC_ARENA_MAX: undefined }));
  });
  afterAll(() => pool.close());

  it('runs a task in another process', async () => {
    const pid = await pool.run('pid', []);
    expect(pid).not.toBe(process.pid);
  });

  it('starts workers with two malloc arenas, unless the operator set their own', async () => {
    const pid = await pool.run('pid', []);
    const env = fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
    expect(env).toContain('MALLOC_ARENA_MAX=2');
    expect(cpuWorkerEnv({ MALLOC_ARENA_MAX: '4' }).MALLOC_ARENA_MAX).toBe('4');
  });

  it('starts workers with a young generation of at most 2 × 8 MB, keeping other Node options and an operator\'s own size', async () => {
    const pid = await pool.run('pid', []);
    const env = fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
    expect(env.find((e) => e.startsWith('NODE_OPTIONS='))).toMatch(/ ?--max-semi-space-size=8$/);
    expect(cpuWorkerEnv({ NODE_OPTIONS: '--enable-source-maps' }).NODE_OPTIONS).toBe('--enable-source-maps --max-semi-space-size=8');
    expect(cpuWorkerEnv({ NODE_OPTIONS: '--max-semi-space-size=32' }).NODE_OPTIONS).toBe('--max-semi-space-size=32');
  });

  it('keeps the event loop free while a task computes', async () => {
    const worker = pool.run('spin', [1500]);
    let maxGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 20);
    await worker;
    clearInterval(timer);
    expect(maxGap).toBeLessThan(500);
  });

  it('abort kills the busy worker promptly and rejects with an AbortError', async () => {
    const pid = await pool.run('pid', []);
    const ac = new AbortController();
    const task = pool.run('spin', [60_000], { signal: ac.signal });
    setTimeout(() => ac.abort(), 200);
    const t = performance.now();
    const error = await task.catch((e) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(isAbortError(error)).toBe(true);
    // gone within the same 3 s (on a loaded machine the abort may come before the task has
    // reported its process, and then the rejection does not wait for the exit)
    while (alive(pid) && performance.now() - t < 3000) await new Promise((r) => setTimeout(r, 20));
    expect(performance.now() - t).toBeLessThan(3000);
    expect(alive(pid)).toBe(false);
    // the pool replaces the worker
    expect(await pool.run('pid', [])).not.toBe(pid);
  });

  it('an already aborted signal never starts the task', async () => {
    await expect(pool.run('spin', [60_000], { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError);
  });

  it('a time limit kills the worker', async () => {
    await expect(pool.run('spin', [60_000], { timeoutMs: 300 })).rejects.toBeInstanceOf(CpuTimeoutError);
  });
});
