/**
 * A 500-copy print from the HTTP request to Completed through the real Bull queue, with the
 * time per stage (trim, layout, render, store) as the job reports it.
 *
 *   npm run bench:print            (needs the local PostgreSQL and Redis, like the e2e tests)
 *   PRINT_FORMATS=png,pdf npm run bench:print   (the print files to write; default: the settings' default, PNG)
 *   STORAGE_DRIVERS=local,s3 npm run bench:print  (the same print on each storage driver in turn, then a
 *       table; `s3` needs the S3_TEST_* environment that backend/test/ceph/ceph-rgw.sh start prints;
 *       `s3signed` / `s3unsigned` are `s3` with STORAGE_S3_SIGN_PAYLOADS=true / false)
 */
import 'reflect-metadata';
import Bull from 'bull';
import sharp from 'sharp';
import { addDesign, addSize, setCredits, waitDone } from '../test/prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin } from '../test/utils/create-test-app';
import { REDIS_URL } from '../test/utils/test-env';
import * as fs from 'fs';
import { descendants, procCpuSeconds, sampleTreeMemory } from './proc-memory';

interface RunResult {
  driver: string;
  totalMs: number;
  timingsMs: Record<string, number>;
  peakTotalMb: number;
  peakCpuWorkerMb: number;
  peakApiMb: number;
  /** CPU seconds of the app's processes (this one, which hosts the API and the job worker, and its CPU workers). */
  appCpuSeconds: number;
  /** CPU seconds of the S3 gateway's daemons, when they run on this machine. */
  gatewayCpuSeconds: number | null;
}

/**
 * CPU seconds of this process and its children so far: its own, the children it has reaped
 * (cutime, cstime) and those still running.
 */
function treeCpuSeconds(): number {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const own = (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
  return own + descendants(process.pid).reduce((a, pid) => a + (procCpuSeconds(pid) ?? 0), 0);
}

/**
 * CPU seconds of the test gateway's daemons (test/ceph/ceph-rgw.sh writes their pid files to
 * CEPH_DIR, default /tmp/gangsheet-ceph), null when none runs here.
 */
function gatewayCpuSeconds(): number | null {
  const dir = process.env.CEPH_DIR ?? '/tmp/gangsheet-ceph';
  const cpu = ['rgw', 'osd', 'mon'].map((d) => (fs.existsSync(`${dir}/${d}.pid`) ? procCpuSeconds(Number(fs.readFileSync(`${dir}/${d}.pid`, 'utf8'))) : null));
  return cpu.every((c) => c === null) ? null : cpu.reduce<number>((a, c) => a + (c ?? 0), 0);
}

/** The app's environment for a storage driver (a fresh key prefix in the test bucket for `s3`). */
async function driverEnv(driver: string): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  if (driver === 'local') return { env: {}, cleanup: async () => undefined };
  if (driver !== 's3' && driver !== 's3signed' && driver !== 's3unsigned') throw new Error(`unknown storage driver ${driver} (local, s3, s3signed, s3unsigned)`);
  const { CreateBucketCommand } = await import('@aws-sdk/client-s3');
  const { S3ObjectStore } = await import('../src/storage/s3-object-store');
  const endpoint = process.env.S3_TEST_ENDPOINT;
  const accessKeyId = process.env.S3_TEST_ACCESS_KEY_ID;
  const secretAccessKey = process.env.S3_TEST_SECRET_ACCESS_KEY;
  if (!endpoint || !accessKeyId || !secretAccessKey) throw new Error('STORAGE_DRIVERS=s3 needs S3_TEST_ENDPOINT/ACCESS_KEY_ID/SECRET_ACCESS_KEY (eval "$(bash test/ceph/ceph-rgw.sh start)")');
  const bucket = 'gangsheet-bench';
  const prefix = `bench-${Date.now()}/`;
  const region = process.env.S3_TEST_REGION ?? 'us-east-1';
  const store = new S3ObjectStore({ endpoint, region, bucket, prefix, accessKeyId, secretAccessKey, forcePathStyle: true, checksums: 'when_required', partSizeBytes: 8 << 20, queueSize: 2 });
  await store.client.send(new CreateBucketCommand({ Bucket: bucket })).catch((e) => {
    if (e.name !== 'BucketAlreadyOwnedByYou' && e.name !== 'BucketAlreadyExists') throw e;
  });
  return {
    env: {
      STORAGE_DRIVER: 's3',
      STORAGE_S3_BUCKET: bucket,
      STORAGE_S3_ENDPOINT: endpoint,
      STORAGE_S3_REGION: region,
      STORAGE_S3_ACCESS_KEY_ID: accessKeyId,
      STORAGE_S3_SECRET_ACCESS_KEY: secretAccessKey,
      STORAGE_S3_PREFIX: prefix,
      ...(driver === 's3signed' ? { STORAGE_S3_SIGN_PAYLOADS: 'true' } : driver === 's3unsigned' ? { STORAGE_S3_SIGN_PAYLOADS: 'false' } : {}),
    },
    cleanup: async () => {
      await store.deletePrefix(prefix);
      store.close();
    },
  };
}

async function main() {
  const drivers = (process.env.STORAGE_DRIVERS ?? 'local').split(',').filter(Boolean);
  const results: RunResult[] = [];
  for (const driver of drivers) {
    console.log(`\n=== storage driver: ${driver} ===`);
    results.push(await run(driver));
  }
  if (results.length > 1) {
    const base = results[0];
    console.log('\n| driver | request → Completed | render | store | app CPU | gateway CPU | peak RSS all | peak CPU worker | vs ' + base.driver + ' (time) |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const r of results)
      console.log(
        `| ${r.driver} | ${(r.totalMs / 1000).toFixed(1)} s | ${(r.timingsMs.render / 1000).toFixed(1)} s | ${(r.timingsMs.store / 1000).toFixed(2)} s | ` +
          `${r.appCpuSeconds.toFixed(1)} s | ${r.gatewayCpuSeconds === null ? '—' : `${r.gatewayCpuSeconds.toFixed(1)} s`} | ` +
          `${Math.round(r.peakTotalMb)} MB | ${Math.round(r.peakCpuWorkerMb)} MB | ${(r.totalMs / base.totalMs).toFixed(2)}× |`,
      );
    const byDriver = new Map<string, RunResult[]>();
    for (const r of results) byDriver.set(r.driver, [...(byDriver.get(r.driver) ?? []), r]);
    const local = byDriver.get('local');
    if (local && byDriver.size > 1) {
      const mean = (rs: RunResult[]) => rs.reduce((a, r) => a + r.totalMs, 0) / rs.length;
      for (const [d, rs] of byDriver)
        if (d !== 'local')
          console.log(`${d} vs local: ${(mean(rs) / mean(local)).toFixed(2)}× the time (mean of ${rs.length} and ${local.length} runs), ` +
            `peak CPU worker ${Math.round(Math.max(...rs.map((r) => r.peakCpuWorkerMb)))} vs ${Math.round(Math.max(...local.map((r) => r.peakCpuWorkerMb)))} MB`);
    }
  }
}

async function run(driver: string): Promise<RunResult> {
  const storage = await driverEnv(driver);
  const t = await createTestApp(storage.env);
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
    const cpu0 = treeCpuSeconds();
    const gateway0 = gatewayCpuSeconds();
    const t1 = performance.now();
    const formats = process.env.PRINT_FORMATS?.split(',').filter(Boolean);
    await s.agent.post(`/api/print/${id}/process`).send(formats ? { settings: { formats } } : {}).expect(201);
    const requestMs = performance.now() - t1;
    const done = await waitDone(s.agent, id, 30 * 60_000);
    const totalMs = performance.now() - t1;
    const appCpuSeconds = treeCpuSeconds() - cpu0;
    const gateway1 = gatewayCpuSeconds();
    const mem = memory.stop();
    if (done.status !== 'Completed') throw new Error(`print ended ${done.status}: ${done.error}`);
    const q = new Bull('prints', REDIS_URL, { prefix: t.config.redis.prefix });
    let job = await q.getJob(`print:${id}:1`);
    // the job ends a little after the print is Completed (its run folders are removed first)
    for (let i = 0; i < 600 && job && (await job.getState()) !== 'completed'; i++) {
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
    const gatewayCpu = gateway0 === null || gateway1 === null ? null : gateway1 - gateway0;
    console.log(`CPU: the app's processes ${appCpuSeconds.toFixed(1)} s${gatewayCpu === null ? '' : `, the S3 gateway's daemons ${gatewayCpu.toFixed(1)} s`}`);
    void sharp; void t0;
    return {
      driver,
      totalMs,
      timingsMs: rv.timingsMs ?? {},
      peakTotalMb: mem.peakTotalMb,
      peakApiMb: own.mb,
      appCpuSeconds,
      gatewayCpuSeconds: gatewayCpu,
      peakCpuWorkerMb: Math.max(0, ...workers.map((w) => w.mb)),
    };
  } finally {
    await t.close();
    await storage.cleanup();
  }
}

// the test app's pools and queue clients are closed per run, but a library timer may still
// hold the event loop: the table is printed, so end here
void main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
