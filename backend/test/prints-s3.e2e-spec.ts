import { CreateBucketCommand, DeleteObjectsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { PrintRetentionService } from '../src/prints/print-retention.service';
import { StorageOrphansService } from '../src/prints/storage-orphans.service';
import { S3ObjectStore } from '../src/storage/s3-object-store';
import { StorageService } from '../src/storage/storage.service';
import { binary, setCredits, waitDone, waitFor } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';
import { S3_TEST, s3TestConfigured } from './utils/s3-test-env';
import { startWorkerProcess } from './utils/worker-process';

/**
 * The print flow with STORAGE_DRIVER=s3 and no shared folder, against the Ceph RADOS Gateway
 * that backend/test/ceph/ceph-rgw.sh starts (CI exports S3_TEST_*): two API nodes that run no
 * jobs and a worker process, each with its own data folder, sharing only the database, Redis
 * and the bucket; uploads, previews, renders, downloads by signed URL, expiry and the orphan
 * sweep all go through the bucket.
 */
const s3 = S3_TEST;
const configured = s3TestConfigured('S3 print flow');
const describeS3 = configured ? describe : describe.skip;
const BUCKET = 'gangsheet-test';

describeS3('Prints on object storage: API and worker on separate data folders (e2e, Ceph RGW)', () => {
  jest.setTimeout(240_000);
  const prefix = `app-${randomUUID()}/`;
  const env = {
    STORAGE_DRIVER: 's3',
    STORAGE_S3_BUCKET: BUCKET,
    STORAGE_S3_ENDPOINT: s3.endpoint!,
    STORAGE_S3_REGION: s3.region,
    STORAGE_S3_ACCESS_KEY_ID: s3.accessKeyId!,
    STORAGE_S3_SECRET_ACCESS_KEY: s3.secretAccessKey!,
    STORAGE_S3_PREFIX: prefix,
    STORAGE_SIGNED_URL_SECONDS: '120',
  };
  let t: TestApp;
  /** The second API node: the same database, queues and bucket, its own data folder. */
  let t2: TestApp;
  let worker: ChildProcess;
  const workerDir = mkdtempSync(join(tmpdir(), 'gs-worker-'));
  let admin: S3ObjectStore;

  const bucketKeys = async (under = ''): Promise<string[]> => {
    const out: string[] = [];
    for await (const o of admin.list(under)) out.push(o.key);
    return out;
  };

  beforeAll(async () => {
    admin = new S3ObjectStore({ ...s3, bucket: BUCKET, prefix, forcePathStyle: true, checksums: 'when_required', partSizeBytes: 8 << 20, queueSize: 2 });
    await admin.client.send(new CreateBucketCommand({ Bucket: BUCKET })).catch((e) => {
      if (e.name !== 'BucketAlreadyOwnedByYou' && e.name !== 'BucketAlreadyExists') throw e;
    });
    t = await createTestApp({ ...env, PROCESS_JOBS: 'false' });
    t2 = await createTestApp({ ...env, PROCESS_JOBS: 'false', DATABASE_URL: t.config.database.url!, QUEUE_PREFIX: t.config.redis.prefix });
    worker = await startWorkerProcess(t, 'worker', { ...env, DATA_DIR: workerDir });
  });

  afterAll(async () => {
    worker?.kill('SIGKILL');
    await t2?.close();
    await t?.close();
    rmSync(workerDir, { recursive: true, force: true });
    for (;;) {
      const page = await admin.client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
      if (!page.Contents?.length) break;
      await admin.client.send(new DeleteObjectsCommand({ Bucket: BUCKET, Delete: { Objects: page.Contents.map((o) => ({ Key: o.Key })) } }));
    }
    admin?.close();
  });

  it('upload → preview → print → render → download by signed URL → expiry, with no file in any data folder', async () => {
    const s = await signUpAndLogin(t, 's3seller');
    // the same seller signed in on the second node (one session per node, one account)
    const s2 = t2.agent();
    await s2.post('/api/login').send({ email: s.email, password: s.password }).expect(200);
    await setCredits(t, await adminAgent(t), s.user._id, 100);
    const art = await sharp({ create: { width: 560, height: 360, channels: 4, background: { r: 20, g: 120, b: 200, alpha: 1 } } }).png().toBuffer();
    const png = await sharp({ create: { width: 600, height: 400, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: art, left: 20, top: 20 }])
      .png()
      .toBuffer();

    // the upload lands in the bucket; the worker (another data folder) inspects it from there
    const image = (await s.agent.post('/api/images/bulk-upload').attach('files', png, 'art.png').expect(201)).body.data[0];
    const ready = await waitFor(async () => {
      const row = (await s.agent.get(`/api/images/${image._id}`).expect(200)).body.data;
      return row.status === 'ready' ? row : null;
    }, 60_000, 'the image to be inspected by the worker');
    expect(ready.status).toBe('ready');
    expect(await bucketKeys(`users/${s.user._id}/images/`)).toEqual([`users/${s.user._id}/images/${image._id}.png`, `users/${s.user._id}/images/${image._id}.preview.webp`]);
    // the API streams the image preview from the bucket itself (its sandbox headers come with it)
    const thumb = await s.agent.get(`/api/images/${image._id}/preview`).buffer(true).parse(binary).expect(200);
    expect((await sharp(thumb.body).metadata()).format).toBe('webp');

    // the second node sees the first node's upload and serves its preview from the bucket
    const thumb2 = await s2.get(`/api/images/${image._id}/preview`).buffer(true).parse(binary).expect(200);
    expect(Buffer.compare(thumb2.body, thumb.body)).toBe(0);

    // the print is created and processed through the second node
    const sizeId = (await s2.post('/api/sizes').send({ name: 'Small', value: 2 }).expect(201)).body.data._id;
    // PNG and PDF: both writers stream into the bucket
    await s2.put('/api/sheet-settings').send({ formats: ['png', 'pdf'] }).expect(200);
    const p = (await s2.post('/api/print').send({ printItems: [{ imageId: image._id, sizeId, quantity: 12 }] }).expect(201)).body.data;
    await s2.post(`/api/print/${p._id}/process`).send({}).expect(201);
    const done = await waitDone(s2, p._id, 180_000);
    expect(done.status).toBe('Completed');
    const folder = `users/${s.user._id}/prints/${p._id}/`;
    const stored = await bucketKeys(folder);
    expect(stored.filter((k) => k.includes('/.run-'))).toEqual([]);
    expect(stored).toContain(`${folder}1/sheet-1.png`);
    expect(stored).toContain(`${folder}1/sheet-1.pdf`);
    expect(stored).toContain(`${folder}1/sheet-1.preview.webp`);

    // downloads: a redirect to a short-lived signed URL; the API never proxies the sheet
    const pngFile = done.fileId.find((f: any) => f.format !== 'pdf') ?? done.fileId[0];
    const res = await s.agent.get(pngFile.path).redirects(0).expect(302);
    expect(res.headers['cache-control']).toBe('no-store');
    const url = new URL(res.headers.location);
    expect(url.origin).toBe(new URL(s3.endpoint!).origin);
    expect(Number(url.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(120);
    const got = await fetch(url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('content-disposition')).toContain('attachment');
    const sheet = Buffer.from(await got.arrayBuffer());
    expect(await sharp(sheet).metadata()).toMatchObject({ format: 'png', height: done.fileId[0].heightPx, density: 300 });
    const pdfFile = done.fileId.find((f: any) => f.format === 'pdf');
    const pdf = await fetch((await s.agent.get(pdfFile.path).redirects(0).expect(302)).headers.location);
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 8).toString('latin1')).toBe('%PDF-1.7');
    const preview = await s.agent.get(`${pngFile.path}/preview`).redirects(0).expect(302);
    expect((await fetch(preview.headers.location)).status).toBe(200);
    // either node signs a URL for the same object
    const other = await s2.get(pngFile.path).redirects(0).expect(302);
    expect(new URL(other.headers.location).pathname).toBe(url.pathname);
    expect((await fetch(other.headers.location)).status).toBe(200);
    // only the owner or a share link: a stranger gets no URL
    await t.agent().get(pngFile.path).redirects(0).expect(401);
    const link = (await s.agent.post(`/api/print/${p._id}/share`).expect(200)).body.data.files[0].path;
    const shared = await t.agent().get(link).redirects(0).expect(302);
    expect((await fetch(shared.headers.location)).status).toBe(200);

    // neither data folder holds a stored file (the worker's has only its bounded cache)
    expect(existsSync(join(t.config.dataDir, 'files', 'users'))).toBe(false);
    expect(existsSync(join(t2.config.dataDir, 'files', 'users'))).toBe(false);
    expect(existsSync(join(workerDir, 'files', 'users'))).toBe(false);
    expect(readdirSync(join(workerDir, 'tmp', 'runs'))).toEqual([]);

    // expiry deletes the sheet files from the bucket; the download answers 410
    const later = new Date(Date.now() + (t.config.prints.retentionDays + 1) * 86_400_000);
    expect(await t.app.get(PrintRetentionService).expireFiles(later)).toBe(1);
    expect(await bucketKeys(folder)).toEqual([]);
    await s.agent.get(pngFile.path).redirects(0).expect(410);
    await s2.get(pngFile.path).redirects(0).expect(410);
  });

  it('the orphan sweep removes old objects no row refers to and keeps everything else', async () => {
    const storage = t.app.get(StorageService);
    const s = await signUpAndLogin(t, 's3orphans');
    const image = (await s.agent.post('/api/images/bulk-upload').attach('files', await sharp({ create: { width: 64, height: 64, channels: 4, background: '#f00' } }).png().toBuffer(), 'a.png').expect(201)).body.data[0];
    await waitFor(async () => (await s.agent.get(`/api/images/${image._id}`).expect(200)).body.data.status === 'ready', 60_000, 'the image to be ready');
    const orphanImage = `users/${s.user._id}/images/${randomUUID()}.png`;
    const orphanSheet = `users/${s.user._id}/prints/${randomUUID()}/1/sheet-1.png`;
    const foreign = `exports/${randomUUID()}.csv`;
    for (const k of [orphanImage, orphanSheet, foreign]) await storage.write(k, Buffer.from('x'));
    const sweeper = t.app.get(StorageOrphansService);
    // young objects are writes that may still get their row: kept
    expect((await sweeper.sweep()).objects).toBe(0);
    const report = await sweeper.sweep(new Date(Date.now() + 2 * t.config.storage.orphanMinAgeMs));
    expect(report.objects).toBe(2);
    expect(await storage.exists(orphanImage)).toBe(false);
    expect(await storage.exists(orphanSheet)).toBe(false);
    expect(await storage.exists(foreign)).toBe(true);
    expect(await storage.exists(`users/${s.user._id}/images/${image._id}.png`)).toBe(true);
  });
});
