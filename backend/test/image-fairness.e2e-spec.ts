import sharp from 'sharp';
import { filterSvg } from '../bench/fairness.bench';
import { AppConfig } from '../src/config/configuration';
import { APP_CONFIG } from '../src/config/config.module';
import { CpuPool } from '../src/cpu/cpu-pool';
import { waitFor } from './prints.fixtures';
import { createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

jest.setTimeout(180_000);

/**
 * A 3.3 KB SVG that takes minutes to rasterise (50 page-sized rectangles
 * under a large blur) passes the upload check. Its background steps are time-limited
 * (IMAGE_STEP_TIMEOUT_MS, 3 s here), so it ends in Error with the reason, again as fast
 * when uploaded again; another seller's PNG uploaded meanwhile is ready in seconds.
 */
describe('Images: a file that takes minutes to prepare (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ IMAGE_STEP_TIMEOUT_MS: '3000' });
    // every CPU worker started (under ts-jest a start compiles the engine, seconds on a busy machine)
    const workers = t.app.get<AppConfig>(APP_CONFIG).cpu.workers;
    await Promise.all(Array.from({ length: workers }, () => t.app.get(CpuPool).run('spin', [300])));
  });
  afterAll(() => t.close());

  const upload = async (agent: any, file: Buffer, name: string) => {
    const res = await agent.post('/api/images/bulk-upload').attach('files', file, name).expect(201);
    return { id: res.body.data[0]._id as string, at: Date.now() };
  };
  const settled = (agent: any, id: string, timeoutMs: number) =>
    waitFor(
      async () => {
        const image = (await agent.get(`/api/images/${id}`).expect(200)).body.data;
        return image.status !== 'processing' ? image : null;
      },
      timeoutMs,
      `image ${id} to leave processing`,
    );

  it('the slow SVG ends in Error with its reason within its time limit (also when uploaded again); another seller is not held up', async () => {
    const slow = await signUpAndLogin(t, 'slowsvg');
    const other = await signUpAndLogin(t, 'smallpng');
    const svg = Buffer.from(filterSvg(50));
    expect(svg.length).toBeLessThan(4000);

    const first = await upload(slow.agent, svg, 'blur.svg');
    await new Promise((r) => setTimeout(r, 500));
    const png = await sharp({ create: { width: 600, height: 400, channels: 4, background: { r: 20, g: 120, b: 200, alpha: 1 } } }).png().toBuffer();
    const small = await upload(other.agent, png, 'small.png');

    const smallDone = await settled(other.agent, small.id, 20_000);
    expect(smallDone.status).toBe('ready');
    expect(Date.now() - small.at).toBeLessThan(8000);

    const failed = await settled(slow.agent, first.id, 20_000);
    expect(failed.status).toBe('error');
    expect(failed.error).toMatch(/takes too long to prepare \(over 3 s\)/);
    expect(failed.error).not.toMatch(/Error|timeout|ms\b|[0-9a-f]{8}-/);

    const again = await upload(slow.agent, svg, 'blur again.svg');
    const failedAgain = await settled(slow.agent, again.id, 20_000);
    expect(failedAgain.status).toBe('error');
    // one step's limit and the job's own work, not minutes (the job is not retried)
    expect(Date.now() - again.at).toBeLessThan(12_000);
  });
});
