import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { afterCursor, invalidCursor, paginate } from '../common/pagination';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { User } from '../users/entities/user.entity';
import { PrintListQueryDto } from './dto/print.dto';
import { Image } from '../images/entities/image.entity';
import { Size } from '../sizes/entities/size.entity';
import { PrintItem, PrintItemOrderLine } from './entities/print-item.entity';
import { Print, PrintStatus, PrintType } from './entities/print.entity';
import { toPrintDto } from './print.mapper';
import { MSG } from './prints.rules';

/**
 * The list's order as SQL over the columns, for the cursor's keyset: a missing printedAt sorts
 * last either way (NULLS LAST), which is what -infinity descending and infinity ascending do.
 */
function cursorSort(sortBy: string, dir: 'ASC' | 'DESC'): string {
  if (sortBy === 'printedAt') return `coalesce(p.printed_at, '${dir === 'DESC' ? '-infinity' : 'infinity'}'::timestamptz)`;
  return { status: 'p.status', type: 'p.type', updatedAt: 'p.updated_at' }[sortBy] ?? 'p.created_at';
}

const SORT_COLUMNS: Record<string, string> = {
  createdAt: 'p.createdAt',
  printedAt: 'p.printedAt',
  status: 'p.status',
  type: 'p.type',
  updatedAt: 'p.updatedAt',
};

/**
 * Reading prints: the lists (own, or a user's for an admin), one print with its items, and
 * the print as the API returns it. The other jobs of the feature live beside it:
 * drafts (PrintDraftsService), preview (PrintPreviewService), charge/cancel
 * (PrintProcessingService), files and deletion (PrintFilesService), the job (PrintJobService).
 */
@Injectable()
export class PrintsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  dto(p: Print) {
    return toPrintDto(p, this.config.prints.retentionDays);
  }

  // ---- reading ----

  /**
   * One page of the seller's prints with their items. The page is chosen on `prints` alone
   * (an index in the sort order), then the items of those prints are read; paging over the
   * join counted item rows against the limit and lost prints. The total comes from the
   * trigger-kept `print_counts` unless a date range is given.
   */
  async list(userId: string, q: PrintListQueryDto) {
    const page = q.page ?? 1;
    const limit = q.limit ?? 10;
    const filtered = this.db
      .getRepository(Print)
      .createQueryBuilder('p')
      .where('p.userId = :userId', { userId });
    if (q.status) filtered.andWhere('p.status = :status', { status: q.status });
    if (q.type) filtered.andWhere('p.type = :type', { type: q.type });
    if (q.externalId) filtered.andWhere('p.externalId = :externalId', { externalId: q.externalId });
    const dateCol = q.dateType === 'printedAt' ? 'p.printedAt' : 'p.createdAt';
    if (q.startDate) filtered.andWhere(`${dateCol} >= :start`, { start: dayStart(q.startDate) });
    if (q.endDate) filtered.andWhere(`${dateCol} < :end`, { end: dayEnd(q.endDate) });
    const dir = q.sort === 'asc' ? 'ASC' : 'DESC';
    const sortBy = q.sortBy ?? 'createdAt';
    if (q.startingAfter && !(await this.db.getRepository(Print).exists({ where: { _id: q.startingAfter, userId } }))) throw invalidCursor();
    const listed = filtered
      .clone()
      .select('p._id', 'id')
      // NULLS LAST only where there are nulls: on a NOT NULL column PostgreSQL would still
      // sort every print instead of reading the (user_id, created_at, id) index backwards.
      .orderBy(SORT_COLUMNS[sortBy], dir, sortBy === 'printedAt' ? 'NULLS LAST' : undefined)
      .addOrderBy('p._id', dir)
      .limit(limit + 1);
    if (q.startingAfter) listed.andWhere(afterCursor('prints', 'p', cursorSort(sortBy, dir), dir), { cursor: q.startingAfter });
    else listed.offset((page - 1) * limit);
    const [rows, total] = await Promise.all([
      listed.getRawMany<{ id: string }>(),
      q.startDate || q.endDate || q.externalId ? filtered.clone().select('count(*)::int', 'n').getRawOne<{ n: number }>().then((r) => r?.n ?? 0) : this.countFromCounters(userId, q),
    ]);
    const prints = await this.withItems(rows.slice(0, limit).map((r) => r.id));
    return { ...paginate(prints.map((p) => this.dto(p)), total, limit), hasMore: rows.length > limit };
  }

  private async countFromCounters(userId: string, q: PrintListQueryDto): Promise<number> {
    const params: unknown[] = [userId];
    let sql = `SELECT coalesce(sum(prints), 0)::int AS n FROM print_counts WHERE user_id = $1`;
    if (q.status) sql += ` AND status = $${params.push(q.status)}`;
    if (q.type) sql += ` AND type = $${params.push(q.type)}`;
    const [row] = await this.db.query(sql, params);
    return row.n;
  }

  /**
   * These prints (in this order) with their items, images and sizes: two plain queries
   * mapped here. TypeORM's entity hydration of the joined rows cost more than the queries
   * themselves on a page of prints (bench:api); only the columns the DTO shows are read.
   */
  private async withItems(ids: string[], ownerId: string | null = null): Promise<Print[]> {
    if (!ids.length) return [];
    const [prints, items] = await Promise.all([
      this.db.query(
        `SELECT id, user_id, type, status, attempt, credit_cost, settings, files, files_deleted_at, error, printed_at, created_at, updated_at, external_id, metadata, test
           FROM prints WHERE id = ANY($1::uuid[]) AND ($2::uuid IS NULL OR user_id = $2)`,
        [ids, ownerId],
      ),
      this.db.query(
        `SELECT i.id, i.print_id, i.image_id, i.size_id, i.quantity, i.order_item_id, i.created_at,
                img.name AS img_name, img.original_name AS img_original_name, img.preview_key AS img_preview_key, img.width AS img_width,
                img.height AS img_height, img.trim AS img_trim, img.status AS img_status, img.deleted_at AS img_deleted_at,
                sz.name AS sz_name, sz.value AS sz_value, ${ORDER_LINE_COLUMNS}
           FROM print_items i
           LEFT JOIN images img ON img.id = i.image_id
           LEFT JOIN sizes sz ON sz.id = i.size_id
           ${ORDER_LINE_JOIN}
          WHERE i.print_id = ANY($1::uuid[])
          ORDER BY i.created_at, i.id`,
        [ids],
      ),
    ]);
    const byId = new Map<string, Print>(prints.map((r: PrintRow) => [r.id, printFromRow(r)]));
    for (const r of items as ItemRow[]) byId.get(r.print_id)?.items?.push(itemFromRow(r));
    return ids.map((id) => byId.get(id)).filter((p): p is Print => !!p);
  }

  /** Prints joined to their items in order; `prints.layout` is not selected (see the entity). */
  private withItemsQuery(m: EntityManager) {
    return m
      .getRepository(Print)
      .createQueryBuilder('p')
      .leftJoinAndSelect('p.items', 'i')
      .leftJoinAndSelect('i.image', 'img')
      .leftJoinAndSelect('i.size', 'sz')
      .orderBy('i.createdAt', 'ASC')
      .addOrderBy('i._id', 'ASC');
  }

  /** One print as GET /api/print/{id} shows it (the lists' lean read); `userId` null: any owner (an admin). */
  async detail(userId: string | null, id: string): Promise<Print> {
    const [p] = await this.withItems([id], userId);
    if (!p) throw new NotFoundException(MSG.notFound);
    return p;
  }

  async listForUser(userId: string, q: PrintListQueryDto) {
    if (!(await this.db.getRepository(User).exist({ where: { _id: userId } }))) throw new NotFoundException('User not found');
    return this.list(userId, q);
  }

  /**
   * One print with its items; `userId` null means any owner (an admin reading). The stored
   * layout (tens of KB) is read only when asked for (`withLayout`): the preview of a
   * processed print uses it, nothing else that loads a print does.
   */
  async find(userId: string | null, id: string, m: EntityManager = this.db.manager, opts: { withLayout?: boolean } = {}): Promise<Print> {
    const qb = this.withItemsQuery(m).where(userId ? 'p._id = :id AND p.userId = :userId' : 'p._id = :id', { id, userId });
    if (opts.withLayout) qb.addSelect('p.layout');
    const p = await qb.getOne();
    if (!p) throw new NotFoundException(MSG.notFound);
    await this.withOrderLines(p.items ?? [], m);
    return p;
  }

  /** The shop order lines of these items, in one query (the entity query above cannot join them). */
  private async withOrderLines(items: PrintItem[], m: EntityManager) {
    const ids = items.filter((i) => i.orderItemId).map((i) => i._id);
    const rows: Array<OrderLineRow & { id: string }> = ids.length
      ? await m.query(`SELECT i.id, ${ORDER_LINE_COLUMNS} FROM print_items i ${ORDER_LINE_JOIN} WHERE i.id = ANY($1::uuid[])`, [ids])
      : [];
    const byId = new Map(rows.map((r) => [r.id, orderLineFromRow(r)]));
    for (const i of items) i.orderLine = byId.get(i._id) ?? null;
  }
}

/** The shop order line of print item `i`: its order's number and buyer, its own title. */
const ORDER_LINE_COLUMNS = `o.id AS ol_order_id, o.number AS ol_number, o.buyer_info->>'name' AS ol_buyer, oi.title AS ol_title`;
const ORDER_LINE_JOIN = `LEFT JOIN order_items oi ON oi.id = i.order_item_id LEFT JOIN orders o ON o.id = oi.order_id`;

interface OrderLineRow {
  ol_order_id: string | null;
  ol_number: string | null;
  ol_buyer: string | null;
  ol_title: string | null;
}

const orderLineFromRow = (r: OrderLineRow): PrintItemOrderLine | null =>
  r.ol_order_id ? { orderId: r.ol_order_id, orderNumber: r.ol_number ?? '', buyerName: r.ol_buyer ?? '', title: r.ol_title ?? '' } : null;

interface PrintRow {
  id: string;
  user_id: string;
  type: PrintType;
  status: PrintStatus;
  attempt: number;
  credit_cost: number;
  settings: Print['settings'];
  files: Print['files'];
  files_deleted_at: Date | null;
  error: string | null;
  printed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  external_id: string | null;
  metadata: Record<string, string>;
  test: boolean;
}

interface ItemRow extends OrderLineRow {
  id: string;
  print_id: string;
  image_id: string | null;
  size_id: string | null;
  quantity: number;
  order_item_id: string | null;
  created_at: Date;
  img_name: string | null;
  img_original_name: string;
  img_preview_key: string | null;
  img_width: number | null;
  img_height: number | null;
  img_trim: Image['trim'];
  img_status: Image['status'];
  img_deleted_at: Date | null;
  sz_name: string | null;
  sz_value: string;
}

function printFromRow(r: PrintRow): Print {
  return Object.assign(new Print(), {
    _id: r.id,
    userId: r.user_id,
    type: r.type,
    status: r.status,
    attempt: r.attempt,
    creditCost: r.credit_cost,
    settings: r.settings,
    files: r.files,
    filesDeletedAt: r.files_deleted_at,
    error: r.error,
    printedAt: r.printed_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    externalId: r.external_id,
    metadata: r.metadata,
    test: r.test,
    items: [],
  });
}

/** An item with the image and size columns the DTO shows (the joined rows are null when gone). */
function itemFromRow(r: ItemRow): PrintItem {
  const image =
    r.image_id && r.img_name !== null
      ? Object.assign(new Image(), {
          _id: r.image_id,
          name: r.img_name,
          originalName: r.img_original_name,
          previewKey: r.img_preview_key,
          width: r.img_width,
          height: r.img_height,
          trim: r.img_trim,
          status: r.img_status,
          deletedAt: r.img_deleted_at,
        })
      : null;
  const size = r.size_id && r.sz_name !== null ? Object.assign(new Size(), { _id: r.size_id, name: r.sz_name, value: Number(r.sz_value) }) : null;
  return Object.assign(new PrintItem(), {
    _id: r.id,
    printId: r.print_id,
    imageId: r.image_id,
    image,
    sizeId: r.size_id,
    size,
    quantity: r.quantity,
    orderItemId: r.order_item_id,
    orderLine: orderLineFromRow(r),
    createdAt: r.created_at,
  });
}

function dayStart(v: string): Date {
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00.000Z` : v);
}

function dayEnd(v: string): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return new Date(new Date(`${v}T00:00:00.000Z`).getTime() + 86_400_000);
  return new Date(new Date(v).getTime() + 1);
}
