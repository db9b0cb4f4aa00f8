import TestAgent from 'supertest/lib/agent';

/**
 * Runs `work` while another client asks GET /api/health every 25 ms, and returns the
 * slowest answer: what any request would have waited while the work was running. The
 * test and the app share one event loop, so a blocked loop shows up here exactly as it
 * would for a browser.
 */
export async function healthLatencyDuring<T>(agent: TestAgent, work: () => Promise<T>): Promise<{ result: T; maxMs: number; samples: number }> {
  let done = false;
  let maxMs = 0;
  let samples = 0;
  const poll = (async () => {
    while (!done) {
      const t = performance.now();
      await agent.get('/api/health').expect(200);
      maxMs = Math.max(maxMs, performance.now() - t);
      samples++;
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  try {
    const result = await work();
    return { result, maxMs, samples };
  } finally {
    done = true;
    await poll;
  }
}
