import { BadRequestException, ConflictException, Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { invalidCursor, paginate } from '../common/pagination';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { ImageListQueryDto } from '../images/dto/image.dto';
import { ImagesService } from '../images/images.service';
import { HttpLimitError, safeRequest } from '../integrations/safe-http';
import { IntegrationType } from '../integrations/entities/integration.entity';
import { PrintType } from '../prints/entities/print.entity';
import { PrintDraftsService } from '../prints/print-drafts.service';
import { SizesService } from '../sizes/sizes.service';
import { User } from '../users/entities/user.entity';
import { CreateOrderPrintDto, OrderDto, OrderItemDto, OrderListQueryDto, ReviewItemDto, UnresolvedItemDto } from './dto/order.dto';
import { fulfilmentOf } from './fulfilment.service';
import { OrderItemRow, OrdersRepository } from './orders.repository';

/** An order item's image and size as orders → print resolves them; `problems` say what is missing. */
export interface ResolvedOrderItem {
  orderItemId: string;
  imageId: string | null;
  sizeId: string | null;
  quantity: number;
  problems: string[];
  /** Why the design file could not be imported, when it could not. */
  downloadProblem?: string;
}

export const ORDER_MSG = {
  imageMissing: 'Image is missing. Please add the missing item.',
  sizeMissing: 'Size is missing. Please add the missing item.',
  itemNotFound: 'Order item not found',
  inPrint: 'Some order items are already in a print',
  mixed: 'Select order items of one shop type (Etsy or WooCommerce) for one print',
};

/** A claim older than this is a crashed request's; the item may be taken again. */
const CLAIM_TTL = '2 minutes';

async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk);
  return h.digest('hex');
}

const dayStart = (d: string) => new Date(/T/.test(d) ? d : `${d}T00:00:00Z`);
const dayEnd = (d: string) => (/T/.test(d) ? new Date(d) : new Date(new Date(`${d}T00:00:00Z`).getTime() + 86_400_000));
const norm = (s: string | null | undefined) => (s ?? '').trim().toLowerCase();

function toItemDto(r: OrderItemRow): OrderItemDto {
  return {
    _id: r.id,
    orderId: r.order_number,
    reference: r.external_id,
    title: r.title,
    sku: r.sku,
    size: r.size,
    quantity: r.quantity,
    price: Number(r.price),
    currency: r.currency,
    designUrl: r.design_url,
    attributes: r.design_url ? [{ name: 'Design file', value: r.design_url, fileUrl: r.design_url }, ...r.attributes] : r.attributes,
    status: r.status,
    printIds: r.print_ids ?? [],
  };
}

@Injectable()
export class OrdersService {
  private readonly logger = new Logger('Orders');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: OrdersRepository,
    private readonly drafts: PrintDraftsService,
    private readonly images: ImagesService,
    private readonly sizes: SizesService,
  ) {}

  // ---- reading ----

  async list(userId: string, q: OrderListQueryDto) {
    const limit = q.limit ?? 10;
    if (q.startingAfter && !(await this.repo.owns(userId, q.startingAfter))) throw invalidCursor();
    const { rows: read, total } = await this.repo.page({
      userId,
      id: q.id,
      integrationId: q.integrationId,
      status: q.status,
      fulfilment: q.fulfilment,
      shop: q.shop,
      dateType: q.dateType,
      sortBy: q.sortBy,
      search: q.search?.trim() || undefined,
      from: q.startDate ? dayStart(q.startDate) : undefined,
      to: q.endDate ? dayEnd(q.endDate) : undefined,
      sort: q.sort === 'asc' ? 'asc' : 'desc',
      page: q.page ?? 1,
      limit,
      startingAfter: q.startingAfter,
    });
    const rows = read.slice(0, limit);
    const items = await this.repo.itemsOfOrders(userId, rows.map((r) => r.id));
    const byOrder = new Map<string, OrderItemDto[]>();
    for (const it of items) byOrder.set(it.order_id, [...(byOrder.get(it.order_id) ?? []), toItemDto(it)]);
    const data: OrderDto[] = rows.map((r) => ({
      _id: r.id,
      orderId: r.number,
      integrationId: { _id: r.integration_id, type: r.integration_type, name: r.integration_name },
      buyerInfo: r.buyer_info as OrderDto['buyerInfo'],
      integrationOrderCreatedDate: r.integration_order_created_date,
      total: { amount: Number(r.total_amount), currency: r.currency },
      status: r.status,
      shopStatus: r.shop_status,
      orderItems: byOrder.get(r.id) ?? [],
      fulfilment: fulfilmentOf(r),
    }));
    return { ...paginate(data, total, limit), hasMore: read.length > limit };
  }

  /** For the dashboard: computed by the database (ORDER_COUNTS_SQL: the status rule, in one pass). */
  async countsFor(userId: string): Promise<{ pendingOrders: number; totalOrders: number; completedOrders: number; totalIntegrations: number }> {
    const c = await this.repo.counts(userId);
    return { pendingOrders: c.pending, totalOrders: c.total, completedOrders: c.completed, totalIntegrations: c.integrations };
  }

  private async ownedItems(userId: string, ids: string[]): Promise<OrderItemRow[]> {
    const unique = [...new Set(ids)];
    const rows = await this.repo.itemsByIds(userId, unique);
    if (rows.length !== unique.length) throw new NotFoundException(ORDER_MSG.itemNotFound);
    const order = new Map(unique.map((id, n) => [id, n]));
    return rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  }

  // ---- matching ----

  private async sizeIndex(userId: string) {
    const { data } = await this.sizes.list(userId, { limit: 999 } as any);
    const m = new Map<string, { _id: string; name: string }>();
    for (const s of data) if (!m.has(norm(s.name))) m.set(norm(s.name), s);
    return m;
  }

  private async imageBySku(userId: string, sku: string | null): Promise<{ _id: string; name: string } | null> {
    if (!sku?.trim()) return null;
    const { data } = await this.images.list(userId, { search: sku.trim(), limit: 50 } as ImageListQueryDto);
    return data.find((i) => norm(i.name) === norm(sku)) ?? null;
  }

  private async importedImage(userId: string, imageId: string | null) {
    if (!imageId) return null;
    const [img] = await this.images.findOwned(userId, [imageId]).catch(() => []);
    return img && !img.deletedAt ? img : null;
  }

  /** The Review print screen: where each item's image and size will come from, and what is missing. */
  async review(userId: string, ids: string[]): Promise<ReviewItemDto[]> {
    const rows = await this.ownedItems(userId, ids);
    const sizes = await this.sizeIndex(userId);
    const out: ReviewItemDto[] = [];
    for (const r of rows) {
      const imported = await this.importedImage(userId, r.image_id);
      const bySku = imported || r.design_url ? null : await this.imageBySku(userId, r.sku);
      const size = r.size ? sizes.get(norm(r.size)) : undefined;
      const imageSource = imported ? 'imported' : r.design_url ? 'designUrl' : bySku ? 'sku' : null;
      const problems = [...(imageSource ? [] : [ORDER_MSG.imageMissing]), ...(size ? [] : [ORDER_MSG.sizeMissing])];
      out.push({
        ...toItemDto(r),
        imageSource,
        imageId: imported?._id ?? bySku?._id ?? null,
        imageName: imported?.name ?? bySku?.name ?? null,
        sizeId: size?._id ?? null,
        sizeName: size?.name ?? null,
        problems,
      });
    }
    return out;
  }

  // ---- orders → print ----

  /**
   * A draft print of the selected order items (type Etsy or WooCommerce). Each item's image
   * comes from its design file (downloaded through the image library's upload checks), or
   * else from an image named like its SKU; its size from a size named like its size option.
   * Items left without either are still added, to be completed on the print.
   */
  async createPrint(user: User, dto: CreateOrderPrintDto): Promise<{ printId: string; type: PrintType; unresolved: UnresolvedItemDto[] }> {
    const rows = await this.ownedItems(user._id, dto.orderItems);
    const types = new Set(rows.map((r) => r.integration_type));
    if (types.size > 1) throw new BadRequestException({ message: ORDER_MSG.mixed, code: 'mixed_shop_types' });
    const zero = rows.find((r) => r.quantity < 1);
    if (zero) throw new BadRequestException(`"${zero.title}" (order ${zero.order_number}) has no copies to print`);
    const type = rows[0].integration_type === IntegrationType.Etsy ? PrintType.Etsy : PrintType.WooCommerce;
    await this.claim(user._id, rows, !!dto.allowReprint);
    try {
      const resolved = await this.resolveRows(user, rows);
      const titles = new Map(rows.map((r) => [r.id, r.title]));
      const unresolved: UnresolvedItemDto[] = resolved
        .filter((x) => !x.imageId || !x.sizeId)
        .map((x) => ({ orderItemId: x.orderItemId, title: titles.get(x.orderItemId)!, problems: x.problems }));
      const printItems = resolved.map((x) => ({ imageId: x.imageId, sizeId: x.sizeId, quantity: x.quantity, orderItemId: x.orderItemId }));
      const print = await this.drafts.create(user._id, { printItems }, type);
      return { printId: print._id, type, unresolved };
    } finally {
      await this.repo.releaseItems(rows.map((r) => r.id));
    }
  }

  /**
   * Where each of the seller's order items gets its image and size, as "Create print" decides
   * it (production batching resolves its items here too): the image imported before, else
   * the design file downloaded now, else an image named like the SKU; the size named like the
   * size option. Items the seller does not own are left out.
   */
  async resolveItems(user: User, ids: string[]): Promise<ResolvedOrderItem[]> {
    return this.resolveRows(user, await this.repo.itemsByIds(user._id, [...new Set(ids)]));
  }

  private async resolveRows(user: User, rows: OrderItemRow[]): Promise<ResolvedOrderItem[]> {
    const sizes = await this.sizeIndex(user._id);
    const cache = new Map<string, { imageId: string | null; problem?: string }>();
    const out: ResolvedOrderItem[] = [];
    for (const r of rows) {
      const problems: string[] = [];
      let imageId = (await this.importedImage(user._id, r.image_id))?._id ?? null;
      let downloadProblem: string | undefined;
      if (!imageId && r.design_url) {
        let got = cache.get(r.design_url);
        if (!got) {
          got = await this.importDesign(user, r.design_url);
          cache.set(r.design_url, got);
        }
        imageId = got.imageId;
        if (imageId) await this.repo.setItemImage(r.id, imageId);
        else if (got.problem) problems.push((downloadProblem = got.problem));
      }
      if (!imageId) imageId = (await this.imageBySku(user._id, r.sku))?._id ?? null;
      if (!imageId) problems.push(ORDER_MSG.imageMissing);
      const sizeId = (r.size ? sizes.get(norm(r.size))?._id : undefined) ?? null;
      if (!sizeId) problems.push(ORDER_MSG.sizeMissing);
      out.push({ orderItemId: r.id, imageId, sizeId, quantity: r.quantity, problems, downloadProblem });
    }
    return out;
  }

  /**
   * Takes the items for this request in one statement, so two requests cannot put the same
   * item into two prints; an item already in a print is refused unless reprinting is asked for.
   */
  private async claim(userId: string, rows: OrderItemRow[], allowReprint: boolean) {
    const ids = rows.map((r) => r.id);
    const taken = await this.repo.claimItems(userId, ids, allowReprint, CLAIM_TTL);
    if (taken.length === ids.length) return;
    await this.repo.releaseItems(taken);
    const got = new Set(taken);
    const busy = rows.filter((r) => !got.has(r.id));
    const inPrint = busy.filter((r) => r.print_ids?.length);
    const list = busy.map((r) => `"${r.title}" (order ${r.order_number})`).join(', ');
    throw new ConflictException({
      message: inPrint.length
        ? `${ORDER_MSG.inPrint}: ${list}. Remove them from the selection, or confirm to print them again.`
        : `These order items are being added to a print right now: ${list}`,
      code: 'order_item_in_print',
      details: { orderItems: busy.map((r) => ({ _id: r.id, printIds: r.print_ids ?? [] })) },
    });
  }

  /**
   * Marks a just imported image with its content hash. When another import stored the same
   * bytes in the meantime, this copy is removed again and that image is used.
   */
  private async keepOnce(userId: string, imageId: string, hash: string): Promise<string> {
    if (await this.images.setContentHash(imageId, hash)) return imageId;
    const first = await this.images.findByContentHash(userId, hash);
    if (!first) return imageId;
    await this.images.bulkDelete(userId, [imageId]);
    return first._id;
  }

  /** Downloads a buyer's design (size limit, deadline, no private addresses) into the image library. */
  private async importDesign(user: User, url: string): Promise<{ imageId: string | null; problem?: string }> {
    const dir = join(this.config.dataDir, 'tmp', 'uploads');
    await mkdir(dir, { recursive: true });
    const path = join(dir, randomUUID());
    const s = this.config.shops;
    const maxMb = Math.round((s.designMaxBytes / 1024 / 1024) * 10) / 10;
    let res;
    try {
      res = await safeRequest(url, { timeoutMs: s.designTimeoutMs, maxBytes: s.designMaxBytes, allowPrivate: s.allowPrivateUrls, toFile: path, maxRedirects: 3 });
    } catch (e) {
      const why = e instanceof HttpLimitError && /too large/.test(e.message) ? `it is larger than ${maxMb} MB` : (e as Error).message;
      return { imageId: null, problem: `The design file could not be downloaded: ${why}` };
    }
    if (res.status !== 200) return { imageId: null, problem: `The design file could not be downloaded: the shop answered ${res.status}` };
    // The same bytes imported before (from any order) are that image again, not a new one.
    const hash = await sha256File(path);
    const known = await this.images.findByContentHash(user._id, hash);
    if (known) {
      await unlink(path).catch(() => undefined);
      return { imageId: known._id };
    }
    let name = 'design';
    try {
      name = decodeURIComponent(new URL(res.url).pathname.split('/').pop() || 'design');
    } catch {
      /* keep the default name */
    }
    // The same checks as an upload from the browser (type sniffing, pixel limits, SVG safety).
    const { data, errors } = await this.images.upload(user, [{ path, size: res.bytes, originalname: name } as any], {} as any);
    await unlink(path).catch(() => undefined); // moved into storage when accepted
    if (data[0]) return { imageId: await this.keepOnce(user._id, data[0]._id, hash) };
    return { imageId: null, problem: `The design file is not a usable image: ${errors[0]?.message ?? 'unknown error'}` };
  }
}
