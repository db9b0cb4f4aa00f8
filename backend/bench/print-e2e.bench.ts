/**
 * A 500-copy print from the HTTP request to Completed through the real Bull queue, with the
 * time per stage (trim, layout, render, store) as the job reports it.
 *
 *   npm run bench:print            (needs the local PostgreSQL and Redis, like the e2e tests)
 *   PRINT_FORMATS=png,pdf npm run bench:print   (the print files to write; default: the settings' default, PNG)
 */
import 'reflect-metadata';
import Bull from 'bull';
import sharp from 'sharp';
import { addDesign, addSize, setCredits, waitDone } from '../test/prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin } from '../test/utils/create-test-app';
import { REDIS_URL } from '../test/utils/test-env';
import { sampleTreeMemory } from './proc-memory';

async function main() {
  const t = await createTestApp();
  try {
    const admin = await adminAgent(t);
    const s = await signUpAndLogin(t, 'bench');
    await setCredits(t, admin, s.user._id, 1000);
    // five designs of typical upload size (2400 x 2400 px, transparent border), 100 copies each
    const sizes = [await addSize(t, s.user._id, 'Adult front', 10), await addSize(t, s.user._id, 'Pocket', 3.5)];
    const printItems = [];
    for (let i = 0; i < 5; i++) {
      const img = await addDesign(t, s.user._id, { name: `design-${i}`, width: 2400, height: 1600 + 200 * i, border: 60 });
      printItems.push({ imageId: img._id, sizeId: sizes[i < 2 ? 0 : 1]._id, quantity: 100 });
    }
    const created = await s.agent.post('/api/print').send({ printItems }).expect(201);
    const id = created.body.data._id;
    const t0 = performance.now();
    const previewStart = performance.now();
    const preview = (await s.agent.post(`/api/print/${id}/preview`).send({}).expect(200)).body.data;
    const previewMs = performance.now() - previewStart;
    const memory = sampleTreeMemory();
    const t1 = performance.now();
    const formats = process.env.PRINT_FORMATS?.split(',').filter(Boolean);
    await s.agent.post(`/api/print/${id}/process`).send(formats ? { settings: { formats } } : {}).expect(201);
    const requestMs = performance.now() - t1;
    const done = await waitDone(s.agent, id, 30 * 60_000);
    const totalMs = performance.now() - t1;
    const mem = memory.stop();
    if (done.status !== 'Completed') throw new Error(`print ended ${done.status}: ${done.error}`);
    const q = new Bull('prints', REDIS_URL, { prefix: t.config.redis.prefix });
    let job = await q.getJob(`print:${id}:1`);
    for (let i = 0; i < 100 && job && (await job.getState()) !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = await q.getJob(`print:${id}:1`);
    }
    const rv = job?.returnvalue ?? {};
    await q.close();
    console.log(JSON.stringify({ preview: { ms: Math.round(previewMs), sheets: preview.sheets.length, density: preview.density } }));
    console.log(`copies: ${rv.copies}   sheets: ${rv.sheets}   film: ${done.fileId.filter((f: any, i: number, all: any[]) => all.findIndex((g) => g.sheet === f.sheet) === i).map((f: any) => `${f.widthPx}x${f.heightPx}px (${f.lengthIn} in)`).join(', ')}`);
    console.log(`files (${done.settings.formats ?? ['png']}): ${done.fileId.map((f: any) => `${f.format ?? 'png'} ${(f.bytes / 1e6).toFixed(1)} MB`).join(', ')}`);
    console.log(`POST /process answered in ${Math.round(requestMs)} ms; request → Completed seen by the client: ${Math.round(totalMs)} ms`);
    console.log('stage times (ms):', rv.timingsMs);
    console.log(`queue wait + events + polling: ${Math.round(totalMs - Object.values<number>(rv.timingsMs ?? {}).reduce((a, b) => a + b, 0))} ms`);
    const [own, ...workers] = mem.peaks;
    const mb = (v: number) => `${Math.round(v)} MB`;
    console.log(
      `peak RSS: API + job worker process ${mb(own.mb)}, CPU workers ${workers.map((w) => mb(w.mb)).join(', ') || 'none'}; all together ${mb(mem.peakTotalMb)} (sampled every 100 ms)`,
    );
    void sharp; void t0;
  } finally {
    await t.close();
  }
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
