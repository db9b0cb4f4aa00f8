import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { afterCursor, likePattern } from '../common/pagination';
import { returned } from '../common/sql';
import { ShopOrder } from '../integrations/integrations.service';
import { IntegrationType } from '../integrations/entities/integration.entity';
import { printReadSql } from '../prints/print-read-model';
import { OrderStatus } from './entities/order.entity';
import { itemStatusSql, orderStatusJoin, ORDER_COUNTS_SQL } from './order-status.sql';
import { CLOSED_SHOP_STATUSES, ShopState, shopStateSql } from './shop-status';

/** One order item with its order's number and shop, its status and the prints holding it. */
export interface OrderItemRow {
  id: string;
  order_id: string;
  order_number: string;
  external_id: string;
  title: string;
  sku: string | null;
  size: string | null;
  quantity: number;
  price: string;
  currency: string;
  design_url: string | null;
  attributes: Array<{ name: string; value: string }>;
  image_id: string | null;
  status: OrderStatus;
  print_ids: string[] | null;
  integration_type: IntegrationType;
}

/** One order of a list page, with its shop and computed status. */
export interface OrderRow {
  id: string;
  number: string;
  shop_status: string;
  buyer_info: unknown;
  total_amount: string;
  currency: string;
  integration_order_created_date: Date;
  status: OrderStatus;
  integration_id: string;
  integration_type: IntegrationType;
  integration_name: string;
  /** The order's fulfilment (null columns: never requested). */
  f_status: string | null;
  f_source: string | null;
  f_carrier: string | null;
  f_tracking_number: string | null;
  f_error: string | null;
  f_requested_at: Date | null;
  f_fulfilled_at: Date | null;
}

export type OrderDateColumn = 'integrationOrderCreatedDate' | 'createdAt' | 'updatedAt';

export interface OrderPageQuery {
  userId: string;
  id?: string;
  integrationId?: string;
  status?: OrderStatus;
  /** none: never requested. */
  fulfilment?: 'none' | 'pending' | 'fulfilled' | 'failed';
  /** Open or closed in the shop (CLOSED_SHOP_STATUSES). */
  shop?: ShopState;
  dateType?: OrderDateColumn;
  /** The date the page is ordered by (and the cursor walks); defaults to `dateType`'s. */
  sortBy?: OrderDateColumn;
  /** A substring of the order number, the buyer's name or email, or an item's SKU or title. */
  search?: string;
  /** Inclusive lower and exclusive upper bound on the date column. */
  from?: Date;
  to?: Date;
  sort: 'asc' | 'desc';
  page: number;
  limit: number;
  /** An order id: the page starts after it in this order (page is then ignored). */
  startingAfter?: string;
}

const DATE_COLUMNS: Record<OrderDateColumn, string> = { integrationOrderCreatedDate: 'o.integration_order_created_date', createdAt: 'o.created_at', updatedAt: 'o.updated_at' };

/**
 * Every read and write of `orders` and `order_items`. Statuses are computed in the same
 * statement (order-status.sql.ts); whether a print holds an item comes from the prints read
 * model, composed into these statements.
 */
@Injectable()
export class OrdersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * A page of a seller's orders (one row past `limit` when more follow) and the number of
   * orders matching the filter. By cursor, the rows after that order's (date, id).
   */
  async page(q: OrderPageQuery): Promise<{ rows: OrderRow[]; total: number }> {
    const where = ['o.user_id = $1'];
    const params: unknown[] = [q.userId];
    const add = (cond: (n: string) => string, v: unknown) => {
      params.push(v);
      where.push(cond(`$${params.length}`));
    };
    if (q.id) add((n) => `o.id = ${n}`, q.id);
    if (q.integrationId) add((n) => `o.integration_id = ${n}`, q.integrationId);
    if (q.status) add((n) => `os.status = ${n}`, q.status);
    if (q.fulfilment) add((n) => `coalesce(f.status, 'none') = ${n}`, q.fulfilment);
    if (q.shop) add((n) => shopStateSql(q.shop!, 'o', n), CLOSED_SHOP_STATUSES);
    const dateCol = DATE_COLUMNS[q.dateType ?? 'integrationOrderCreatedDate'];
    if (q.from) add((n) => `${dateCol} >= ${n}`, q.from);
    if (q.to) add((n) => `${dateCol} < ${n}`, q.to);
    if (q.search)
      add(
        (n) => `(o.number ILIKE ${n} OR o.buyer_info->>'name' ILIKE ${n} OR o.buyer_info->>'email' ILIKE ${n}
                 OR EXISTS (SELECT 1 FROM order_items si WHERE si.order_id = o.id AND (si.sku ILIKE ${n} OR si.title ILIKE ${n})))`,
        likePattern(q.search),
      );
    const col = DATE_COLUMNS[q.sortBy ?? q.dateType ?? 'integrationOrderCreatedDate'];
    const dir = q.sort === 'asc' ? 'ASC' : 'DESC';
    const from = `FROM orders o ${orderStatusJoin('o', 'os')} JOIN integrations i ON i.id = o.integration_id
                  LEFT JOIN order_fulfilments f ON f.order_id = o.id WHERE ${where.join(' AND ')}`;
    // The date columns are NOT NULL, so the keyset needs no NULLS LAST.
    const after = q.startingAfter ? ` AND ${afterCursor('orders', 'o', col, dir, `$${params.length + 1}`)}` : '';
    const [rows, [{ n }]] = await Promise.all([
      this.db.query(
        `SELECT o.id, o.number, o.shop_status, o.buyer_info, o.total_amount, o.currency, o.integration_order_created_date,
                os.status, i.id AS integration_id, i.type AS integration_type, i.name AS integration_name,
                f.status AS f_status, f.source AS f_source, f.carrier AS f_carrier, f.tracking_number AS f_tracking_number,
                f.error AS f_error, f.requested_at AS f_requested_at, f.fulfilled_at AS f_fulfilled_at
           ${from}${after}
          ORDER BY ${col} ${dir}, o.id ${dir} LIMIT ${q.limit + 1}${after ? '' : ` OFFSET ${(q.page - 1) * q.limit}`}`,
        after ? [...params, q.startingAfter] : params,
      ),
      this.db.query(`SELECT count(*)::int AS n ${from}`, params),
    ]);
    return { rows, total: n };
  }

  /** Whether the order is the seller's (a cursor must be one of their orders). */
  async owns(userId: string, orderId: string): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM orders WHERE id = $1 AND user_id = $2`, [orderId, userId]);
    return rows.length > 0;
  }

  /** The seller's items of these orders, newest order first. */
  itemsOfOrders(userId: string, orderIds: string[]): Promise<OrderItemRow[]> {
    return this.items(userId, 'oi.order_id = ANY($2::uuid[])', [orderIds]);
  }

  /** The seller's items among these ids (others' items are left out). */
  itemsByIds(userId: string, ids: string[]): Promise<OrderItemRow[]> {
    return this.items(userId, 'oi.id = ANY($2::uuid[])', [ids]);
  }

  private items(userId: string, cond: string, params: unknown[]): Promise<OrderItemRow[]> {
    return this.db.query(
      `SELECT oi.id, oi.order_id, o.number AS order_number, oi.external_id, oi.title, oi.sku, oi.size, oi.quantity, oi.price,
              o.currency, oi.design_url, oi.attributes, oi.image_id, ${itemStatusSql('oi')} AS status, i.type AS integration_type,
              ${printReadSql.orderItemPrintIds('oi.id')} AS print_ids
         FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN integrations i ON i.id = o.integration_id
        WHERE oi.user_id = $1 AND ${cond}
        ORDER BY o.integration_order_created_date DESC, oi.created_at, oi.external_id`,
      [userId, ...params],
    );
  }

  /** The dashboard's order counts (ORDER_COUNTS_SQL) and the seller's number of shops. */
  async counts(userId: string): Promise<{ total: number; pending: number; completed: number; integrations: number }> {
    const [[r], [i]] = await Promise.all([
      this.db.query(ORDER_COUNTS_SQL, [userId]),
      this.db.query(`SELECT count(*)::int AS n FROM integrations WHERE user_id = $1`, [userId]),
    ]);
    return { total: r.total, pending: r.pending, completed: r.completed, integrations: i.n };
  }

  /** Remembers the library image a design file was imported as. */
  async setItemImage(itemId: string, imageId: string): Promise<void> {
    await this.db.query(`UPDATE order_items SET image_id = $2 WHERE id = $1`, [itemId, imageId]);
  }

  /**
   * Claims the seller's items in one statement: an item is taken when nobody holds a live
   * claim on it (one older than `ttl` is a crashed request's) and, unless `allowReprint`, no
   * print holds it. Returns the ids taken.
   */
  async claimItems(userId: string, ids: string[], allowReprint: boolean, ttl: string): Promise<string[]> {
    const taken = returned<{ id: string }>(
      await this.db.query(
        `UPDATE order_items oi SET claimed_at = now()
          WHERE oi.id = ANY($1::uuid[]) AND oi.user_id = $2
            AND (oi.claimed_at IS NULL OR oi.claimed_at < now() - interval '${ttl}')
            AND ($3 OR NOT ${printReadSql.orderItemInPrint('oi.id')})
          RETURNING oi.id`,
        [ids, userId, allowReprint],
      ),
    );
    return taken.map((t) => t.id);
  }

  async releaseItems(ids: string[]): Promise<void> {
    await this.db.query(`UPDATE order_items SET claimed_at = NULL WHERE id = ANY($1::uuid[])`, [ids]);
  }

  /**
   * Idempotent: orders by (integration, shop id), items by (order, shop line id). A changed
   * or cancelled order overwrites what was stored; syncing twice adds nothing. Returns the
   * ids of the orders stored and whether each was new.
   */
  async upsertShopOrders(userId: string, integrationId: string, page: ShopOrder[]): Promise<Array<{ id: string; inserted: boolean }>> {
    const unique = [...new Map(page.map((o) => [o.externalId, o])).values()];
    if (!unique.length) return [];
    const orders = unique.map((o) => ({
      external_id: o.externalId,
      number: o.number.slice(0, 64),
      shop_status: o.shopStatus,
      buyer_info: o.buyerInfo,
      total_amount: o.totalAmount,
      currency: o.currency,
      created: o.createdAt.toISOString(),
      updated: o.updatedAt?.toISOString() ?? null,
      shipping_methods: o.shippingMethods ?? [],
      shop_tags: o.tags ?? [],
    }));
    const items = unique.flatMap((o) =>
      [...new Map(o.items.map((it) => [it.externalId, it])).values()].map((it) => ({
        order_ext: o.externalId,
        external_id: it.externalId,
        title: it.title || 'Untitled item',
        sku: it.sku,
        size: it.size,
        quantity: it.quantity,
        price: it.price,
        design_url: it.designUrl,
        attributes: it.attributes,
      })),
    );
    return this.db.transaction(async (m) => {
      const rows = returned<{ id: string; inserted: boolean }>(await m.query(
        `INSERT INTO orders (user_id, integration_id, external_id, number, shop_status, buyer_info, total_amount, currency,
                             integration_order_created_date, integration_order_updated_date, shipping_methods, shop_tags)
         SELECT $1, $2, x.external_id, x.number, x.shop_status, x.buyer_info, x.total_amount, x.currency, x.created, x.updated,
                ARRAY(SELECT jsonb_array_elements_text(x.shipping_methods)), ARRAY(SELECT jsonb_array_elements_text(x.shop_tags))
           FROM jsonb_to_recordset($3::jsonb) AS x(external_id text, number text, shop_status text, buyer_info jsonb,
                                                   total_amount numeric, currency text, created timestamptz, updated timestamptz,
                                                   shipping_methods jsonb, shop_tags jsonb)
         ON CONFLICT (integration_id, external_id) DO UPDATE SET
           number = EXCLUDED.number, shop_status = EXCLUDED.shop_status, buyer_info = EXCLUDED.buyer_info,
           shipping_methods = EXCLUDED.shipping_methods, shop_tags = EXCLUDED.shop_tags,
           total_amount = EXCLUDED.total_amount, currency = EXCLUDED.currency,
           integration_order_created_date = EXCLUDED.integration_order_created_date,
           integration_order_updated_date = EXCLUDED.integration_order_updated_date, updated_at = now()
         RETURNING id, (xmax = 0) AS inserted`,
        [userId, integrationId, JSON.stringify(orders)],
      ));
      if (items.length)
        await m.query(
          `INSERT INTO order_items (order_id, user_id, external_id, title, sku, size, quantity, price, design_url, attributes)
           SELECT o.id, $1, x.external_id, left(x.title, 500), x.sku, x.size, x.quantity, x.price, x.design_url, x.attributes
             FROM jsonb_to_recordset($3::jsonb) AS x(order_ext text, external_id text, title text, sku text, size text,
                                                     quantity int, price numeric, design_url text, attributes jsonb)
             JOIN orders o ON o.integration_id = $2 AND o.external_id = x.order_ext
           ON CONFLICT (order_id, external_id) DO UPDATE SET
             title = EXCLUDED.title, sku = EXCLUDED.sku, size = EXCLUDED.size, quantity = EXCLUDED.quantity,
             price = EXCLUDED.price, design_url = EXCLUDED.design_url, attributes = EXCLUDED.attributes, updated_at = now()`,
          [userId, integrationId, JSON.stringify(items)],
        );
      return rows;
    });
  }
}
