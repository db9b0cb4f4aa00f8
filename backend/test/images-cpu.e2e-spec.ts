import { CpuPool } from '../src/cpu/cpu-pool';
import { pngClaiming, svgBomb, transparentPng } from './fixtures/images';
import { healthLatencyDuring } from './utils/latency';
import { createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/** Hostile uploads must not freeze the API, and one pixel limit applies everywhere. */
describe('Images: CPU work off the event loop, one pixel limit (e2e)', () => {
  let t: TestApp;
  let seller: Awaited<ReturnType<typeof signUpAndLogin>>;
  beforeAll(async () => {
    t = await createTestApp();
    seller = await signUpAndLogin(t, 'cpuseller');
    // start the CPU workers, so what is timed below is the check and not a process start
    await seller.agent.post('/api/images/bulk-upload').attach('files', await transparentPng(), 'warm.png').expect(201);
  });
  afterAll(() => t.close());

  // Before: the regular expressions of the SVG check took 11–20 s on this file, on the
  // event loop, and every request of every user waited that long.
  it('an SVG bomb (160 KB of "<a") is refused quickly while /api/health keeps answering', async () => {
    const { result, maxMs, stallMs, samples } = await healthLatencyDuring(t.agent(), () =>
      seller.agent.post('/api/images/bulk-upload').attach('files', svgBomb(80_000), 'bomb.svg').expect(400),
    );
    expect(result.body.errors).toEqual([{ name: 'bomb.svg', field: 'files', code: 'file_refused', message: 'The file is not a valid SVG image' }]);
    expect(samples).toBeGreaterThan(0);
    expect(stallMs).toBeLessThan(1000);
    expect(maxMs).toBeLessThan(1000);
  });

  // Before: the upload allowed 400 Mpx while sharp's own default (268 Mpx) still applied
  // to the preview, so such images were accepted and then always failed their preview.
  it('a 300 Mpx image is refused at upload with the configured limit', async () => {
    const res = await seller.agent.post('/api/images/bulk-upload').attach('files', await pngClaiming(17_321, 17_321), 'huge.png').expect(400);
    expect(res.body.errors).toEqual([{ name: 'huge.png', field: 'files', code: 'file_refused', message: 'The image is too large: 17321 × 17321 pixels (the limit is 268 megapixels)' }]);
  });
});

describe('Images: the time limit of one file check (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ IMAGE_CHECK_TIMEOUT_MS: '100' });
  });
  afterAll(() => t.close());

  it('a file whose check runs past IMAGE_CHECK_TIMEOUT_MS is refused, and the next upload is checked normally', async () => {
    const seller = await signUpAndLogin(t, 'slowcheck');
    // 5 MB of attributes: valid XML, but parsing it takes several times the limit
    const big = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${'<g a="1" b="2" c="3"/>'.repeat(230_000)}</svg>`);
    const res = await seller.agent.post('/api/images/bulk-upload').attach('files', big, 'slow.svg').expect(400);
    expect(res.body.errors).toEqual([{ name: 'slow.svg', field: 'files', code: 'file_refused', message: 'The file took too long to check and was not accepted' }]);
    // the killed worker is replaced (its start counts against a time limit this small)
    expect(await t.app.get(CpuPool).run('pid', [])).toEqual(expect.any(Number));
    await seller.agent.post('/api/images/bulk-upload').attach('files', await transparentPng(), 'fine.png').expect(201);
  });
});
