import Bull from 'bull';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { Image, ImageStatus } from '../src/images/entities/image.entity';
import { Size } from '../src/sizes/entities/size.entity';
import { StorageService } from '../src/storage/storage.service';
import { signUpAndLogin, TestApp } from './utils/create-test-app';

/**
 * Until the images API lands, designs are stored the way it stores them: the file through
 * StorageService and a ready row with its trim.
 */
export async function addDesign(t: TestApp, userId: string, opts: { name?: string; width?: number; height?: number; border?: number } = {}) {
  const width = opts.width ?? 600;
  const height = opts.height ?? 400;
  const border = opts.border ?? 50;
  const art = await sharp({ create: { width: width - 2 * border, height: height - 2 * border, channels: 4, background: { r: 200, g: 30, b: 40, alpha: 1 } } })
    .png()
    .toBuffer();
  const png = await sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: art, left: border, top: border }])
    .png()
    .toBuffer();
  const fileKey = `users/${userId}/images/${randomUUID()}.png`;
  await t.app.get(StorageService).write(fileKey, png);
  const repo = t.app.get(DataSource).getRepository(Image);
  return repo.save(
    repo.create({
      userId,
      name: opts.name ?? 'design',
      originalName: `${opts.name ?? 'design'}.png`,
      fileKey,
      mime: 'image/png',
      bytes: png.length,
      width,
      height,
      trim: { left: border, top: border, width: width - 2 * border, height: height - 2 * border },
      previewKey: null,
      status: ImageStatus.Ready,
    }),
  );
}

export async function addSize(t: TestApp, userId: string, name: string, value: number) {
  const repo = t.app.get(DataSource).getRepository(Size);
  return repo.save(repo.create({ userId, name, value }));
}

export async function setCredits(t: TestApp, admin: any, userId: string, credits: number) {
  await admin.put(`/api/users/${userId}/credit`).send({ availableCredits: credits, reason: 'test setup' }).expect(200);
}

export async function waitFor<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 60_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the print leaves Processing; returns it. */
export async function waitDone(agent: any, printId: string, timeoutMs = 90_000) {
  return waitFor(
    async () => {
      const res = await agent.get(`/api/print/${printId}`).expect(200);
      return res.body.data.status !== 'Processing' ? res.body.data : null;
    },
    timeoutMs,
    `print ${printId} to finish`,
  );
}

/** Binary body for supertest. */
export function binary(res: any, cb: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
}

/**
 * Processes a print, cancels it once its job (in queue `q`) has started rendering, and
 * returns the job after it ended.
 */
export async function cancelWhileRendering(agent: any, q: Bull.Queue, printId: string) {
  const jobId = `print:${printId}:1`;
  await agent.post(`/api/print/${printId}/process`).send({}).expect(201);
  await waitFor(async () => Number((await q.getJob(jobId))?.progress()) >= 12, 120_000, 'the render to start');
  await agent.post(`/api/print/${printId}/cancel`).expect(200);
  return waitFor(async () => {
    const j = await q.getJob(jobId);
    return j && (await j.getState()) === 'completed' ? j : null;
  }, 30_000, 'the job to end');
}

/**
 * A seller (50 credits) with a draft print of two shop order lines of one design and size,
 * as "Create print" from orders makes it (one print item per order line): order 5012, 2
 * copies, Lena Maier in AT; order 77, 1 copy, Jonas Krüger in DE.
 */
export async function orderLinePrint(t: TestApp, admin: any, name: string) {
  const db = t.app.get(DataSource);
  const s = await signUpAndLogin(t, name);
  await setCredits(t, admin, s.user._id, 50);
  const image = await addDesign(t, s.user._id, { name: `${name}-art`, width: 400, height: 300, border: 20 });
  const size = await addSize(t, s.user._id, 'Badge', 1);
  const [{ id: integrationId }] = await db.query(`INSERT INTO integrations (user_id, name, type, connected) VALUES ($1, 'Shop', 'WordPress', true) RETURNING id`, [s.user._id]);
  const orderLine = async (number: string, quantity: number, buyer: string, country: string) => {
    const [{ id: orderId }] = await db.query(
      `INSERT INTO orders (user_id, integration_id, external_id, number, shop_status, buyer_info, integration_order_created_date)
       VALUES ($1, $2, $3, $3, 'processing', $4, now()) RETURNING id`,
      [s.user._id, integrationId, number, JSON.stringify({ name: buyer, email: null, phone: null, address: null, country })],
    );
    const [{ id }] = await db.query(`INSERT INTO order_items (order_id, user_id, external_id, title, quantity) VALUES ($1, $2, $3, 'Badge shirt', $4) RETURNING id`, [orderId, s.user._id, `${number}-1`, quantity]);
    return id as string;
  };
  const lines = [await orderLine('5012', 2, 'Lena Maier', 'AT'), await orderLine('77', 1, 'Jonas Krüger', 'DE')];
  const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 2 }] }).expect(201)).body.data;
  await db.query(`UPDATE print_items SET order_item_id = $2 WHERE print_id = $1`, [p._id, lines[0]]);
  await db.query(`INSERT INTO print_items (print_id, image_id, size_id, quantity, order_item_id) VALUES ($1, $2, $3, 1, $4)`, [p._id, image._id, size._id, lines[1]]);
  return { ...s, image, size, printId: p._id as string };
}
