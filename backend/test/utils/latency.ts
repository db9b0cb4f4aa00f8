import { monitorEventLoopDelay } from 'node:perf_hooks';
import TestAgent from 'supertest/lib/agent';

/**
 * Runs `work` while another client asks GET /api/health every 25 ms. Returns the slowest
 * health answer and the longest stall of the event loop meanwhile (what every request of
 * every user would have waited). The test and the app share one event loop, so a blocked
 * loop shows up here exactly as it would for a browser. Both are bounded generously in
 * tests: the machine is shared, and the stalls this guards against were seconds long.
 */
export async function healthLatencyDuring<T>(
  agent: TestAgent,
  work: () => Promise<T>,
): Promise<{ result: T; maxMs: number; stallMs: number; samples: number }> {
  let done = false;
  let maxMs = 0;
  let samples = 0;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const poll = (async () => {
    while (!done) {
      const t = performance.now();
      await agent.get('/api/health').expect(200);
      maxMs = Math.max(maxMs, performance.now() - t);
      samples++;
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  let result: T;
  let stallMs: number;
  try {
    result = await work();
  } finally {
    stallMs = loop.max / 1e6;
    loop.disable();
    done = true;
    // the health request in flight when the work ended counts too: a quick refusal used to
    // return before the first answer and report 0 samples
    await poll;
  }
  return { result, maxMs, stallMs, samples };
}
