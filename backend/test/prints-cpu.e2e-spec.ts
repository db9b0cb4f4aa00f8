import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { isAbortError } from '../src/cpu/cpu-pool';
import { EngineDesign, PRINT_ENGINE, PrintEngine } from '../src/prints/engine.adapter';
import { StorageService } from '../src/storage/storage.service';
import { addDesign, addSize, setCredits, waitDone } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';
import { healthLatencyDuring } from './utils/latency';

const SETTINGS = { width: 22, maxLength: 100, gap: 0.25, margin: 0.25, dpi: 300, rotate: true };

/**
 * On the embedded default the print job runs inside the API process; its layout
 * and render must still not hold up other requests, and cancelling must stop the render.
 */
describe('Prints: rendering off the event loop (e2e, in-process jobs)', () => {
  let t: TestApp;
  let engine: PrintEngine;
  beforeAll(async () => {
    // No Redis: jobs run in the API process, as on the embedded default. The layout search
    // uses its whole budget, which held the event loop that long before.
    t = await createTestApp({ REDIS_URL: '', PRINT_LAYOUT_TIME_LIMIT_MS: '4000' });
    engine = t.app.get(PRINT_ENGINE);
  });
  afterAll(() => t.close());

  // Before: layout and render ran on the API's event loop, which stalled for seconds at a time.
  it('a long render does not block /api/health', async () => {
    const admin = await adminAgent(t);
    const s = await signUpAndLogin(t, 'longrender');
    await setCredits(t, admin, s.user._id, 400);
    // many different designs: a layout search that uses its whole time budget, then a long render
    const printItems = [];
    for (let i = 0; i < 24; i++) {
      const image = await addDesign(t, s.user._id, { name: `art${i}`, width: 300 + 37 * i, height: 500 - 9 * i, border: 10 });
      const size = await addSize(t, s.user._id, `Size ${i}`, 1 + (i % 5) * 0.7);
      printItems.push({ imageId: image._id, sizeId: size._id, quantity: 12 });
    }
    const p = (await s.agent.post('/api/print').send({ printItems }).expect(201)).body.data;
    const { result: done, maxMs, stallMs, samples } = await healthLatencyDuring(t.agent(), async () => {
      await s.agent.post(`/api/print/${p._id}/process`).send({ settings: SETTINGS }).expect(201);
      return waitDone(s.agent, p._id);
    });
    expect(done.status).toBe('Completed');
    expect(samples).toBeGreaterThan(10);
    expect(stallMs).toBeLessThan(1000);
    expect(maxMs).toBeLessThan(2000);
  });

  it('aborting a render stops it at once: AbortError, and nothing is written afterwards', async () => {
    const s = await signUpAndLogin(t, 'abortrender');
    const image = await addDesign(t, s.user._id, { name: 'art' });
    const design: EngineDesign = { id: 'd1', file: image.fileKey, widthPx: image.width!, heightPx: image.height!, trim: image.trim!, width: 2, quantity: 300, vector: false };
    const layout = await engine.layout([design], SETTINGS, 500);
    const storage = t.app.get(StorageService);
    const out = storage.path(`abort-test/sheet-1.png`);
    mkdirSync(dirname(out), { recursive: true });
    const ac = new AbortController();
    let progressed = false;
    const render = engine.render({
      layout,
      designs: [design],
      root: storage.root,
      output: (i) => ({ png: storage.path(`abort-test/sheet-${i + 1}.png`), preview: storage.path(`abort-test/sheet-${i + 1}.webp`) }),
      signal: ac.signal,
      onProgress: () => (progressed = true),
    });
    // abort once the worker is really rendering
    while (!progressed) await new Promise((r) => setTimeout(r, 20));
    ac.abort();
    const aborted = performance.now();
    const error = await render.then(
      () => null,
      (e) => e,
    );
    expect(isAbortError(error)).toBe(true);
    expect(performance.now() - aborted).toBeLessThan(3000);
    const size = () => (existsSync(out) ? statSync(out).size : -1);
    const before = size();
    await new Promise((r) => setTimeout(r, 1500));
    expect(size()).toBe(before);
  });
});
