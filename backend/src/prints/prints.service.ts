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
import { ITEM_ROWS_SQL, ORDER_LINE_COLUMNS, ORDER_LINE_JOIN, PRINT_COLUMNS, PRINT_ROWS_SQL } from './print-list.sql';
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
  createdAt: 'p.created_at',
  printedAt: 'p.printed_at',
  status: 'p.status',
  type: 'p.type',
  updatedAt: 'p.updated_at',
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
   * (an index in the sort order) and carries the total in a column (computed once per
   * statement); then the items of those prints are read: two statements. Paging over the
   * join counted item rows against the limit and lost prints. The total comes from the
   * trigger-kept `print_counts` unless a date range or an external id is given.
   */
  async list(userId: string, q: PrintListQueryDto) {
    const page = q.page ?? 1;
    const limit = q.limit ?? 10;
    const params: unknown[] = [userId];
    const where = ['p.user_id = $1'];
    const counters = ['user_id = $1'];
    if (q.status) {
      const status = `$${params.push(q.status)}`;
      where.push(`p.status = ${status}`);
      counters.push(`status = ${status}`);
    }
    if (q.type) {
      const type = `$${params.push(q.type)}`;
      where.push(`p.type = ${type}`);
      counters.push(`type = ${type}`);
    }
    if (q.externalId) where.push(`p.external_id = $${params.push(q.externalId)}`);
    const dateCol = q.dateType === 'printedAt' ? 'p.printed_at' : 'p.created_at';
    if (q.startDate) where.push(`${dateCol} >= $${params.push(dayStart(q.startDate))}`);
    if (q.endDate) where.push(`${dateCol} < $${params.push(dayEnd(q.endDate))}`);
    const condition = where.join(' AND ');
    const filterParams = [...params];
    const totalSql =
      q.startDate || q.endDate || q.externalId
        ? `SELECT count(*)::int FROM prints p WHERE ${condition}`
        : `SELECT coalesce(sum(prints), 0)::int FROM print_counts WHERE ${counters.join(' AND ')}`;
    const dir = q.sort === 'asc' ? 'ASC' : 'DESC';
    const sortBy = q.sortBy ?? 'createdAt';
    if (q.startingAfter && !(await this.db.getRepository(Print).exists({ where: { _id: q.startingAfter, userId } }))) throw invalidCursor();
    let sql = `SELECT ${PRINT_COLUMNS}, (${totalSql}) AS total FROM prints p WHERE ${condition}`;
    if (q.startingAfter) sql += ` AND ${afterCursor('prints', 'p', cursorSort(sortBy, dir), dir, `$${params.push(q.startingAfter)}`)}`;
    // NULLS LAST only where there are nulls: on a NOT NULL column PostgreSQL would still
    // sort every print instead of reading the (user_id, created_at, id) index backwards.
    sql += ` ORDER BY ${SORT_COLUMNS[sortBy] ?? SORT_COLUMNS.createdAt} ${dir}${sortBy === 'printedAt' ? ' NULLS LAST' : ''}, p.id ${dir} LIMIT $${params.push(limit + 1)}`;
    if (!q.startingAfter) sql += ` OFFSET $${params.push((page - 1) * limit)}`;
    const rows: Array<PrintRow & { total: number }> = await this.db.query(sql, params);
    // A page past the end has no row to carry the total.
    const total = rows.length ? rows[0].total : ((await this.db.query(`SELECT (${totalSql}) AS n`, filterParams))[0]?.n ?? 0);
    const prints = rows.slice(0, limit).map(printFromRow);
    await this.withItemsOf(prints);
    return { ...paginate(prints.map((p) => this.dto(p)), total, limit), hasMore: rows.length > limit };
  }

  /**
   * These prints (in this order) with their items, images and sizes: two plain queries
   * mapped here. TypeORM's entity hydration of the joined rows cost more than the queries
   * themselves on a page of prints; only the columns the DTO shows are read.
   */
  private async withItems(ids: string[], ownerId: string | null = null): Promise<Print[]> {
    if (!ids.length) return [];
    const [prints, items] = await Promise.all([this.db.query(PRINT_ROWS_SQL, [ids, ownerId]), this.db.query(ITEM_ROWS_SQL, [ids])]);
    const byId = new Map<string, Print>(prints.map((r: PrintRow) => [r.id, printFromRow(r)]));
    for (const r of items as ItemRow[]) byId.get(r.print_id)?.items?.push(itemFromRow(r));
    return ids.map((id) => byId.get(id)).filter((p): p is Print => !!p);
  }

  /** Reads the items of these prints (one query) into their `items`. */
  private async withItemsOf(prints: Print[]): Promise<void> {
    if (!prints.length) return;
    const byId = new Map(prints.map((p) => [p._id, p]));
    for (const r of (await this.db.query(ITEM_ROWS_SQL, [[...byId.keys()]])) as ItemRow[]) byId.get(r.print_id)?.items?.push(itemFromRow(r));
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
  /** Timestamps passed on as their JSON text (see PRINT_COLUMNS). */
  files_deleted_at: string | null;
  error: string | null;
  printed_at: Date | null;
  created_at: string;
  updated_at: string;
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
    // Answered as JSON only, where a Date and its ISO text are the same.
    filesDeletedAt: r.files_deleted_at as unknown as Date | null,
    error: r.error,
    printedAt: r.printed_at,
    createdAt: r.created_at as unknown as Date,
    updatedAt: r.updated_at as unknown as Date,
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
  });
}

function dayStart(v: string): Date {
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00.000Z` : v);
}

function dayEnd(v: string): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return new Date(new Date(`${v}T00:00:00.000Z`).getTime() + 86_400_000);
  return new Date(new Date(v).getTime() + 1);
}
