/**
 * One seller of the soak, doing what sellers do all day, in a loop until the soak ends:
 * upload artwork (PNG and SVG), add sizes, build prints (true shape or rectangles, 5–60
 * copies), buy credits through the PayPal checkout when short, process, wait, download the
 * sheet; every third round turn new orders of their WooCommerce shop into a print instead
 * (sync, orders → print, which downloads the designs from the shop).
 */
import { randomUUID } from 'node:crypto';
import { Rng } from '../../src/gangsheet/pack/rng';
import { FakePayPal } from '../../test/fakes/paypal.fake';
import { FakeWooCommerce, wooOrder } from '../../test/fakes/woocommerce.fake';
import { MailCatcher } from '../../test/utils/mail-catcher';
import { Client, HttpError, Recorder } from './http';

export interface Design {
  name: string;
  type: 'image/png' | 'image/svg+xml';
  body: Buffer;
}

export interface SoakWorld {
  base: string;
  origin: string;
  rec: Recorder;
  mail: MailCatcher;
  paypal: FakePayPal;
  admin: Client;
  designs: Design[];
  /** performance.now() at which sellers stop starting new rounds */
  stopAt: number;
  /** how long a seller waits for one print before moving on (the final check waits again) */
  printWaitMs: number;
  cancelShare: number;
  log: (s: string) => void;
}

export interface SellerStats {
  rounds: number;
  printsCreated: number;
  processed: number;
  completedSeen: number;
  errorSeen: number;
  gaveUpWaiting: number;
  cancelled: number;
  downloads: number;
  badDownloads: number;
  purchases: number;
  purchasesCancelled: number;
  grants: number;
  syncs: number;
  syncsFailed: number;
  orderPrints: number;
  /** rounds that ended in an exception, by message (first 5 kept per seller) */
  failures: string[];
  failedRounds: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Seller {
  readonly client: Client;
  readonly stats: SellerStats = {
    rounds: 0, printsCreated: 0, processed: 0, completedSeen: 0, errorSeen: 0, gaveUpWaiting: 0, cancelled: 0, downloads: 0, badDownloads: 0,
    purchases: 0, purchasesCancelled: 0, grants: 0, syncs: 0, syncsFailed: 0, orderPrints: 0, failures: [], failedRounds: 0,
  };
  userId = '';
  private readonly rng: Rng;
  private sizes: Array<{ id: string; name: string }> = [];
  private images: string[] = [];
  private integrationId = '';
  private woo!: FakeWooCommerce;
  private nextOrder = 1000;

  constructor(
    readonly n: number,
    private readonly w: SoakWorld,
  ) {
    this.rng = new Rng(1000 + n);
    this.client = new Client(w.base, w.origin, w.rec, `seller${n}`);
  }

  get email() {
    return `soak-seller-${this.n}@example.com`;
  }

  /** Sign-up through the real verification mail, sizes, and the seller's WooCommerce shop. */
  async setUp() {
    const c = this.client;
    const password = `soak-password-${this.n}`;
    await c.post('/api/register', { firstName: 'Soak', lastName: `Seller ${this.n}`, username: `soakseller${this.n}`, email: this.email, password });
    const mail = await this.w.mail.waitFor(this.email, /Verify/, 60_000);
    const token = mail.text.match(/\/verify\?token=([A-Za-z0-9_-]+)/)![1];
    await c.get(`/api/verify?token=${token}`);
    this.userId = (await c.post('/api/login', { email: this.email, password })).body.data._id;
    // the shop's size options; designs are printed this wide (inches)
    for (const [name, value] of [['Small', 2.5], ['Medium', 3.5]] as const) {
      this.sizes.push({ id: (await c.post('/api/sizes', { name, value })).body.data._id, name });
    }
    this.woo = await new FakeWooCommerce().start();
    const integ = await c.post('/api/integrations', {
      name: `Shop ${this.n}`,
      type: 'WordPress',
      keys: [
        { key: 'baseUrl', value: this.woo.baseUrl },
        { key: 'consumerKey', value: this.woo.consumerKey },
        { key: 'consumerSecret', value: this.woo.consumerSecret },
      ],
    });
    this.integrationId = integ.body.data._id;
  }

  async stop() {
    await this.woo?.stop();
  }

  async run() {
    for (let k = 0; performance.now() < this.w.stopAt; k++) {
      this.stats.rounds++;
      try {
        await (k % 3 === 2 ? this.shopRound() : this.manualRound(k));
      } catch (e) {
        this.stats.failedRounds++;
        const msg = (e as Error).message;
        if (this.stats.failures.length < 5) this.stats.failures.push(msg);
        this.w.log(`seller${this.n}: round ${k} failed: ${msg}`);
        await sleep(2000);
      }
      // a seller's think time between rounds
      await sleep(500 + this.rng.int(2000));
    }
  }

  private pick<T>(xs: T[]): T {
    return xs[this.rng.int(xs.length)];
  }

  private async upload(count: number) {
    const form = new FormData();
    for (let i = 0; i < count; i++) {
      const d = this.pick(this.w.designs);
      form.append('files', new Blob([new Uint8Array(d.body)], { type: d.type }), d.name);
    }
    const res = await this.client.req('POST', '/api/images/bulk-upload', { form, headers: { 'Idempotency-Key': randomUUID() } });
    const ids = (res.body.data as Array<{ _id: string }>).map((i) => i._id);
    this.images.push(...ids);
    return ids;
  }

  /** Quantities summing to 5–60 over `n` items. */
  private quantities(n: number): number[] {
    const total = 5 + this.rng.int(56);
    const q = Array.from({ length: n }, () => 1);
    for (let left = total - n; left > 0; left--) q[this.rng.int(n)]++;
    return q;
  }

  private async manualRound(k: number) {
    const c = this.client;
    const fresh = await this.upload(1 + this.rng.int(2));
    if (this.rng.next() < 0.25) {
      const name = `Custom ${k}`;
      this.sizes.push({ id: (await c.post('/api/sizes', { name, value: 1.5 + this.rng.int(11) / 4 })).body.data._id, name });
    }
    const n = 1 + this.rng.int(3);
    const pool = [...fresh, ...this.images.slice(-6)];
    const qty = this.quantities(n);
    const printItems = qty.map((quantity) => ({ imageId: this.pick(pool), sizeId: this.pick(this.sizes).id, quantity }));
    const id = (await c.post('/api/print', { printItems }, { headers: { 'Idempotency-Key': randomUUID() } })).body.data._id;
    this.stats.printsCreated++;
    await this.processAndCollect(id, k % 2 ? 'shape' : 'box');
  }

  private async shopRound() {
    const c = this.client;
    // one or two new orders arrive in the shop, with the buyer's design uploaded to it
    const mine: string[] = [];
    for (let o = 1 + this.rng.int(2); o > 0; o--) {
      const id = this.nextOrder++;
      const items = [];
      for (let i = 1 + this.rng.int(2); i > 0; i--) {
        const d = this.pick(this.w.designs.filter((x) => x.type === 'image/png'));
        const path = `/wp-content/uploads/product_addons_uploads/soak/${id}-${i}.png`;
        this.woo.files.set(path, { type: 'image/png', body: d.body });
        const size = this.rng.next() < 0.5 ? 'Small' : 'Medium';
        items.push({ id: id * 10 + i, name: `Transfer ${id}/${i} - ${size}`, sku: `SOAK-${id}-${i}`, size, quantity: 2 + this.rng.int(14), upload: `${this.woo.baseUrl}${path}` });
      }
      this.woo.orders.push(wooOrder({ id, items }));
      mine.push(String(id));
    }
    // Sync orders, then wait for the sync job to report
    await c.get(`/api/integrations/${this.integrationId}/orders`);
    this.stats.syncs++;
    const until = performance.now() + 120_000;
    for (;;) {
      await sleep(500);
      const i = (await c.get(`/api/integrations/${this.integrationId}`)).body.data;
      if (i.syncStatus === 'done') break;
      if (i.syncStatus === 'failed') {
        this.stats.syncsFailed++;
        throw new Error(`order sync failed: ${i.syncError}`);
      }
      if (performance.now() > until) {
        this.stats.syncsFailed++;
        throw new Error(`order sync still ${i.syncStatus} after 120 s`);
      }
    }
    const orders = (await c.get(`/api/orders?integrationId=${this.integrationId}&status=Pending&limit=100`)).body.data as any[];
    const itemIds = orders.filter((o) => mine.includes(String(o.orderId))).flatMap((o) => o.orderItems.map((i: any) => i._id));
    if (!itemIds.length) throw new Error(`synced orders ${mine.join(', ')} not listed as Pending`);
    const created = await c.post('/api/orders/print', { orderItems: itemIds });
    if (created.body.unresolved?.length) throw new Error(`orders → print left items unresolved: ${JSON.stringify(created.body.unresolved)}`);
    this.stats.printsCreated++;
    this.stats.orderPrints++;
    await this.processAndCollect(created.body._id, 'shape');
  }

  private async balance(): Promise<number> {
    return (await this.client.get('/api/profile')).body.data.credit.availableCredits;
  }

  /** Buys a package through PayPal's checkout (sometimes cancelled once first), or asks the admin for one. */
  private async topUp() {
    const c = this.client;
    if (this.rng.next() < 0.25) {
      await this.w.admin.post(`/api/users/${this.userId}/credit/grant`, { credits: 500, reason: 'Soak: top-up by the admin' });
      this.stats.grants++;
      return;
    }
    const sku = this.pick(['credits500', 'credits500', 'credits1000']);
    if (this.rng.next() < 0.15) {
      const res = await c.post('/api/buyCredits', { sku });
      const orderId = new URL(res.body.data.link).searchParams.get('token')!;
      const back = await c.get(this.w.paypal.cancelUrl(orderId));
      if (!String(back.headers.get('location')).includes('PaymentResult=Cancelled')) throw new Error(`cancel at PayPal answered ${back.headers.get('location')}`);
      this.stats.purchasesCancelled++;
    }
    const res = await c.post('/api/buyCredits', { sku }, { headers: { 'Idempotency-Key': randomUUID() } });
    const orderId = new URL(res.body.data.link).searchParams.get('token')!;
    const back = await c.get(this.w.paypal.approve(orderId));
    const where = String(back.headers.get('location'));
    if (!where.includes('PaymentResult=Completed')) throw new Error(`PayPal return sent the buyer to ${where}`);
    this.stats.purchases++;
  }

  private async processAndCollect(id: string, nesting: 'shape' | 'box') {
    const c = this.client;
    const body = { settings: { nesting } };
    let res = await c.post(`/api/print/${id}/process`, body, { headers: { 'Idempotency-Key': randomUUID() }, ok: [400] });
    if (res.status === 400 && res.body?.code === 'insufficient_credits') {
      await this.topUp();
      if ((await this.balance()) < 60) await this.topUp();
      res = await c.post(`/api/print/${id}/process`, body, { headers: { 'Idempotency-Key': randomUUID() } });
    } else if (res.status === 400) throw new HttpError(`process: 400 ${res.body?.message}`, 400, res.body);
    this.stats.processed++;
    if (this.rng.next() < this.w.cancelShare) {
      // the seller changes their mind: the attempt is refunded and the print is a draft again
      await sleep(this.rng.int(4000));
      const cancel = await c.post(`/api/print/${id}/cancel`, {}, { ok: [409] });
      if (cancel.status === 200) {
        this.stats.cancelled++;
        return;
      }
    }
    // after the load a seller stops waiting soon; the soak's final check waits for the rest
    const until = Math.min(performance.now() + this.w.printWaitMs, this.w.stopAt + 60_000);
    let p: any;
    for (;;) {
      p = (await c.get(`/api/print/${id}`)).body.data;
      if (p.status !== 'Processing') break;
      if (performance.now() > until) {
        this.stats.gaveUpWaiting++;
        return;
      }
      await sleep(2000);
    }
    if (p.status === 'Error') {
      this.stats.errorSeen++;
      return;
    }
    if (p.status !== 'Completed') throw new Error(`print ${id} left Processing as ${p.status}`);
    this.stats.completedSeen++;
    const file = await c.get(`/api/print/${id}/files/1`, { raw: true });
    const png = Buffer.isBuffer(file.body) && file.body.subarray(1, 4).toString() === 'PNG';
    if (png) this.stats.downloads++;
    else this.stats.badDownloads++;
    // keep the balance ahead of the next round now and then
    if ((await this.balance()) < 60) await this.topUp();
  }
}
