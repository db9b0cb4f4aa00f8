import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { returned } from '../common/sql';
import { ORDER_MSG } from '../orders/orders.service';
import { CLOSED_SHOP_STATUSES } from '../orders/shop-status';
import { PrintStatus, PrintType } from '../prints/entities/print.entity';
import { printReadSql } from '../prints/print-read-model';
import { SheetSettingsValues } from '../sheet-settings/entities/sheet-settings.entity';
import { ProductionRules, rushTerms } from './production-rules';

/**
 * The dashboard's order counts of one seller ($1; $2 the closed shop statuses): orders with an
 * item in the queue, orders with an item in a live print not yet printed, and orders
 * fulfilled in their shop (the fulfilment feature's order_fulfilments).
 */
export const PRODUCTION_ORDER_COUNTS_SQL = `SELECT
  (SELECT count(DISTINCT oi.order_id)::int FROM order_items oi JOIN orders o ON o.id = oi.order_id
    WHERE oi.user_id = $1 AND lower(o.shop_status) <> ALL($2::text[]) AND NOT ${printReadSql.orderItemHeldForProduction('oi.id')}) AS queued,
  (SELECT count(DISTINCT oi.order_id)::int FROM order_items oi
     JOIN print_items pi ON pi.order_item_id = oi.id JOIN prints p ON p.id = pi.print_id
    WHERE oi.user_id = $1 AND p.status IN ('${PrintStatus.InDraft}', '${PrintStatus.Processing}') AND p.printed_at IS NULL) AS in_production,
  (SELECT count(*)::int FROM order_fulfilments f WHERE f.user_id = $1 AND f.status = 'fulfilled') AS fulfilled`;

/** A claim (order_items.claimed_at) older than this is a crashed request's, as in orders → print. */
const CLAIM_TTL = '2 minutes';

export const QUEUE_MSG = {
  noCopies: 'No copies to print (quantity 0)',
  imageError: 'The design could not be read; replace it in the image library',
  tooLarge: 'The design at this size does not fit the batch sheet',
};

export interface QueueRow {
  id: string;
  order_id: string;
  order_number: string;
  ordered_at: Date;
  shop_name: string;
  shop_type: string;
  title: string;
  sku: string | null;
  size: string | null;
  quantity: number;
  design_url: string | null;
  image_id: string | null;
  image_name: string | null;
  size_id: string | null;
  size_value: string | null;
  trim_w: number | null;
  trim_h: number | null;
  to_download: boolean;
  rush: boolean;
  shipping: string | null;
  reason: string | null;
}

export interface QueueSummaryRow {
  ready_items: number;
  ready_copies: number;
  blocked_items: number;
  blocked_copies: number;
  ready_orders: number;
  area_sq_in: number;
  /** Ready items whose design is not measured yet (still to download, or not inspected): not in area_sq_in. */
  ready_unmeasured: number;
  oldest_ready_at: Date | null;
}

export interface BatchRow {
  print_id: string;
  status: string;
  trigger: string;
  orders: number;
  items: number;
  copies: number;
  note: string | null;
  created_at: Date;
}

/**
 * The production queue in SQL: a seller's synced order items that no live print holds
 * (printReadSql.orderItemHeldForProduction), each with its design and size resolved by the
 * rules of orders → print (OrdersService.resolveItems): the image imported before, else the
 * design file (downloaded when batched), else an image named like the SKU; the size named like
 * the size option. $1 is the user; the sheet and rush terms follow. An order is rush by the
 * rule of production-rules.ts `isRush`: $8 its shop tags, $9 its shipping methods, $2 (both
 * lists) its items' options.
 */
function queueSql(extra = ''): string {
  return `
  WITH base AS (
    SELECT oi.id, oi.order_id, o.number AS order_number, o.integration_order_created_date AS ordered_at,
           i.name AS shop_name, i.type AS shop_type, oi.created_at AS item_created_at, oi.external_id, oi.title, oi.sku, oi.size, oi.quantity, oi.design_url, oi.claimed_at,
           img.id AS image_id, img.name AS image_name, img.status AS image_status, img.trim_w, img.trim_h,
           sz.id AS size_id, sz.value AS size_value, dl.problem AS download_problem, fit.problem AS fit_problem,
           (img.id IS NULL AND oi.design_url IS NOT NULL AND dl.problem IS NULL) AS to_download,
           bool_or(
             (cardinality($2::text[]) > 0 AND EXISTS (
               SELECT 1 FROM jsonb_array_elements(oi.attributes) a
                WHERE lower(trim(a->>'value')) = ANY($2::text[]) OR lower(trim(a->>'name')) = ANY($2::text[])))
             OR (cardinality($8::text[]) > 0 AND EXISTS (SELECT 1 FROM unnest(o.shop_tags) t WHERE lower(trim(t)) = ANY($8::text[])))
             OR (cardinality($9::text[]) > 0 AND EXISTS (SELECT 1 FROM unnest(o.shipping_methods) s WHERE lower(trim(s)) = ANY($9::text[]))))
             OVER (PARTITION BY oi.order_id) AS rush,
           o.shipping_methods[1] AS shipping
      FROM order_items oi
      JOIN orders o ON o.id = oi.order_id
      JOIN integrations i ON i.id = o.integration_id
      LEFT JOIN production_item_problems dl ON dl.order_item_id = oi.id AND dl.kind = 'download' AND dl.design_url = oi.design_url
      LEFT JOIN LATERAL (
        SELECT c.* FROM (
          SELECT 0 AS pri, x.id, x.name, x.status, (x.trim->>'width')::float8 AS trim_w, (x.trim->>'height')::float8 AS trim_h
            FROM images x WHERE x.id = oi.image_id AND x.deleted_at IS NULL
          UNION ALL
          (SELECT 1, x.id, x.name, x.status, (x.trim->>'width')::float8, (x.trim->>'height')::float8
             FROM images x
            WHERE (oi.design_url IS NULL OR dl.problem IS NOT NULL) AND nullif(trim(oi.sku), '') IS NOT NULL
              AND x.user_id = oi.user_id AND lower(x.name) = lower(trim(oi.sku)) AND x.deleted_at IS NULL
            ORDER BY x.created_at, x.id LIMIT 1)
        ) c ORDER BY c.pri LIMIT 1
      ) img ON true
      LEFT JOIN sizes sz ON sz.user_id = oi.user_id AND lower(sz.name) = lower(trim(oi.size))
      LEFT JOIN production_item_problems fit ON fit.order_item_id = oi.id AND fit.kind = 'fit' AND fit.image_id = img.id AND fit.size_id = sz.id
     WHERE oi.user_id = $1
       AND lower(o.shop_status) <> ALL($3::text[])
       AND NOT ${printReadSql.orderItemHeldForProduction('oi.id')}
  ), q AS (
    SELECT b.*,
           CASE
             WHEN b.quantity < 1 THEN '${QUEUE_MSG.noCopies}'
             WHEN b.image_id IS NULL AND NOT b.to_download THEN coalesce(b.download_problem, '${ORDER_MSG.imageMissing}')
             WHEN b.image_status = 'error' THEN '${QUEUE_MSG.imageError}'
             WHEN b.size_id IS NULL THEN '${ORDER_MSG.sizeMissing}'
             WHEN b.fit_problem IS NOT NULL THEN b.fit_problem
             WHEN b.trim_w > 0 AND b.trim_h > 0 AND NOT (
               (b.size_value <= $4::float8 - 2 * $6::float8 AND b.size_value * b.trim_h / b.trim_w <= $5::float8 - 2 * $6::float8)
               OR ($7::boolean AND b.size_value * b.trim_h / b.trim_w <= $4::float8 - 2 * $6::float8 AND b.size_value <= $5::float8 - 2 * $6::float8)
             ) THEN '${QUEUE_MSG.tooLarge}'
             ELSE NULL
           END AS reason
      FROM base b
  )
  ${extra}`;
}

const ORDER_BY = `ORDER BY q.rush DESC, q.ordered_at ASC, q.order_id, q.item_created_at, q.external_id, q.id`;

@Injectable()
export class ProductionRepository {
  constructor(@InjectDataSource() readonly db: DataSource) {}

  private params(userId: string, rules: ProductionRules, sheet: SheetSettingsValues): unknown[] {
    const rush = rushTerms(rules);
    return [userId, rush.options, CLOSED_SHOP_STATUSES, sheet.width, sheet.maxLength, sheet.margin, sheet.rotate, rush.tags, rush.shipping];
  }

  async queuePage(userId: string, rules: ProductionRules, sheet: SheetSettingsValues, filter: 'all' | 'ready' | 'blocked', page: number, limit: number): Promise<{ rows: QueueRow[]; total: number }> {
    const where = filter === 'ready' ? 'WHERE q.reason IS NULL' : filter === 'blocked' ? 'WHERE q.reason IS NOT NULL' : '';
    const rows = await this.db.query(
      queueSql(`SELECT q.*, count(*) OVER ()::int AS total FROM q ${where} ${ORDER_BY} LIMIT ${limit} OFFSET ${(page - 1) * limit}`),
      this.params(userId, rules, sheet),
    );
    let total = rows[0]?.total ?? 0;
    if (!rows.length && page > 1) [{ total }] = await this.db.query(queueSql(`SELECT count(*)::int AS total FROM q ${where}`), this.params(userId, rules, sheet));
    return { rows, total };
  }

  async summary(userId: string, rules: ProductionRules, sheet: SheetSettingsValues): Promise<QueueSummaryRow> {
    const [row] = await this.db.query(
      queueSql(`
        SELECT count(*) FILTER (WHERE reason IS NULL)::int AS ready_items,
               coalesce(sum(quantity) FILTER (WHERE reason IS NULL), 0)::int AS ready_copies,
               count(*) FILTER (WHERE reason IS NOT NULL)::int AS blocked_items,
               coalesce(sum(greatest(quantity, 0)) FILTER (WHERE reason IS NOT NULL), 0)::int AS blocked_copies,
               count(DISTINCT order_id) FILTER (WHERE reason IS NULL)::int AS ready_orders,
               coalesce(sum(quantity * (size_value + $10::float8) * (size_value * trim_h / trim_w + $10::float8)) FILTER (WHERE reason IS NULL AND trim_w > 0), 0)::float8 AS area_sq_in,
               count(*) FILTER (WHERE reason IS NULL AND NOT coalesce(trim_w > 0, false))::int AS ready_unmeasured,
               min(ordered_at) FILTER (WHERE reason IS NULL) AS oldest_ready_at
          FROM q`),
      [...this.params(userId, rules, sheet), sheet.gap],
    );
    return row;
  }

  /** Ready items whose design file is still to be downloaded (at most `limit`, priority order). */
  async toDownload(userId: string, rules: ProductionRules, sheet: SheetSettingsValues, limit: number): Promise<Array<{ id: string; design_url: string | null }>> {
    return this.db.query(queueSql(`SELECT q.id, q.design_url FROM q WHERE q.to_download AND q.quantity > 0 ${ORDER_BY} LIMIT ${limit}`), this.params(userId, rules, sheet));
  }

  async recordProblem(orderItemId: string, p: { kind: 'download' | 'fit'; designUrl?: string | null; imageId?: string | null; sizeId?: string | null; problem: string }) {
    await this.db.query(
      `INSERT INTO production_item_problems (order_item_id, kind, design_url, image_id, size_id, problem) VALUES ($1, $2, $3, $4, $5, left($6, 500))
       ON CONFLICT (order_item_id, kind) DO UPDATE SET design_url = EXCLUDED.design_url, image_id = EXCLUDED.image_id, size_id = EXCLUDED.size_id,
         problem = EXCLUDED.problem, created_at = now()`,
      [orderItemId, p.kind, p.designUrl ?? null, p.imageId ?? null, p.sizeId ?? null, p.problem],
    );
  }

  /**
   * Runs `fn` holding the seller's production lock (a transaction-scoped advisory lock): batch
   * runs of one seller (a sync, a cut-off, a click) take turns, and each one's queue read
   * starts after the one before committed, so it never sees an item as free that the other
   * just put into a batch.
   */
  locked<T>(userId: string, fn: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtext('production:' || $1::text))`, [userId]);
      return fn(m);
    });
  }

  /** The ready items that can go into a batch now, in priority order (rush first, oldest first, by order). */
  async readyForBatch(m: EntityManager, userId: string, rules: ProductionRules, sheet: SheetSettingsValues): Promise<QueueRow[]> {
    return m.query(
      queueSql(`SELECT q.* FROM q WHERE q.reason IS NULL AND NOT q.to_download
                  AND (q.claimed_at IS NULL OR q.claimed_at < now() - interval '${CLAIM_TTL}') ${ORDER_BY}`),
      this.params(userId, rules, sheet),
    );
  }

  /**
   * Takes the items from orders → print's claim (order_items.claimed_at) in the batch's
   * transaction: a "Create print" racing this batch waits for the row, then finds it claimed,
   * and once the batch commits, finds it in a print. Returns the ids taken.
   */
  async claim(m: EntityManager, userId: string, ids: string[]): Promise<Set<string>> {
    const rows = returned<{ id: string }>(
      await m.query(
        `UPDATE order_items SET claimed_at = now()
          WHERE id = ANY($1::uuid[]) AND user_id = $2 AND (claimed_at IS NULL OR claimed_at < now() - interval '${CLAIM_TTL}')
          RETURNING id`,
        [ids, userId],
      ),
    );
    return new Set(rows.map((r) => r.id));
  }

  async release(ids: string[]): Promise<void> {
    if (ids.length) await this.db.query(`UPDATE order_items SET claimed_at = NULL WHERE id = ANY($1::uuid[])`, [ids]);
  }

  /** The Batch print (In Draft) with one print item per order item, and its batch row. */
  async insertBatch(
    m: EntityManager,
    userId: string,
    b: { trigger: string; settings: SheetSettingsValues; rows: Array<{ id: string; order_id: string; image_id: string; size_id: string; quantity: number }> },
  ): Promise<string> {
    const [{ id }] = await m.query(`INSERT INTO prints (user_id, type, status, files, settings) VALUES ($1, $2, $3, '[]', $4) RETURNING id`, [
      userId,
      PrintType.Batch,
      PrintStatus.InDraft,
      JSON.stringify(b.settings),
    ]);
    // clock_timestamp() orders the items as given (print_items.created_at)
    await m.query(
      `INSERT INTO print_items (print_id, image_id, size_id, quantity, order_item_id)
       SELECT $1, x.image_id, x.size_id, x.quantity, x.order_item_id
         FROM unnest($2::uuid[], $3::uuid[], $4::int[], $5::uuid[]) WITH ORDINALITY AS x(image_id, size_id, quantity, order_item_id, n)
        ORDER BY x.n`,
      [id, b.rows.map((r) => r.image_id), b.rows.map((r) => r.size_id), b.rows.map((r) => r.quantity), b.rows.map((r) => r.id)],
    );
    const orders = new Set(b.rows.map((r) => r.order_id)).size;
    const copies = b.rows.reduce((a, r) => a + r.quantity, 0);
    await m.query(`INSERT INTO production_batches (print_id, user_id, trigger, orders, items, copies) VALUES ($1, $2, $3, $4, $5, $6)`, [
      id,
      userId,
      b.trigger,
      orders,
      b.rows.length,
      copies,
    ]);
    return id;
  }

  async setNote(printId: string, note: string | null) {
    await this.db.query(`UPDATE production_batches SET note = left($2, 500) WHERE print_id = $1`, [printId, note]);
  }

  async batches(userId: string, limit: number, printIds?: string[]): Promise<BatchRow[]> {
    return this.db.query(
      `SELECT b.print_id, p.status, b.trigger, b.orders, b.items, b.copies, b.note, b.created_at
         FROM production_batches b JOIN prints p ON p.id = b.print_id
        WHERE b.user_id = $1 AND ($2::uuid[] IS NULL OR b.print_id = ANY($2::uuid[]))
        ORDER BY b.created_at DESC LIMIT ${limit}`,
      [userId, printIds ?? null],
    );
  }

  async batchOf(printId: string): Promise<{ user_id: string; status: string; attempt: number; copies: number } | null> {
    const [r] = await this.db.query(
      `SELECT b.user_id, p.status, p.attempt, b.copies FROM production_batches b JOIN prints p ON p.id = b.print_id WHERE b.print_id = $1`,
      [printId],
    );
    return r ?? null;
  }

  /**
   * Marks a Completed batch announced, once; returns its orders when this call did it. The
   * completion hook and the sweep may both get here; only one announces.
   */
  async claimCompletion(printId: string): Promise<{ userId: string; orderIds: string[]; copies: number } | null> {
    const rows = returned<{ user_id: string; copies: number }>(
      await this.db.query(
        `UPDATE production_batches b SET completed_announced_at = now()
           FROM prints p WHERE b.print_id = $1 AND p.id = b.print_id AND p.status = '${PrintStatus.Completed}' AND b.completed_announced_at IS NULL
         RETURNING b.user_id, b.copies`,
        [printId],
      ),
    );
    if (!rows.length) return null;
    const orders = await this.db.query(
      `SELECT DISTINCT oi.order_id FROM print_items pi JOIN order_items oi ON oi.id = pi.order_item_id WHERE pi.print_id = $1`,
      [printId],
    );
    return { userId: rows[0].user_id, copies: rows[0].copies, orderIds: orders.map((o: { order_id: string }) => o.order_id) };
  }

  /**
   * A batch that failed, or was cancelled back to In Draft after processing started, becomes
   * Cancelled: it can be neither processed nor edited again, so its items, back in the queue,
   * cannot end up printed twice. Returns the owner when this call changed it.
   */
  async retire(printId: string): Promise<string | null> {
    const rows = returned<{ user_id: string }>(
      await this.db.query(
        `UPDATE prints SET status = '${PrintStatus.Cancelled}', updated_at = now()
          WHERE id = $1 AND type = '${PrintType.Batch}'
            AND (status = '${PrintStatus.Error}' OR (status = '${PrintStatus.InDraft}' AND attempt > 0))
          RETURNING user_id`,
        [printId],
      ),
    );
    return rows[0]?.user_id ?? null;
  }

  /** For the sweep: batches Completed but not announced, and batches to retire (ended without printing). */
  async unsettled(): Promise<{ completed: string[]; retire: string[] }> {
    const rows: Array<{ print_id: string; status: string; attempt: number }> = await this.db.query(
      `SELECT b.print_id, p.status, p.attempt FROM production_batches b JOIN prints p ON p.id = b.print_id
        WHERE (p.status = '${PrintStatus.Completed}' AND b.completed_announced_at IS NULL)
           OR p.status = '${PrintStatus.Error}' OR (p.status = '${PrintStatus.InDraft}' AND p.attempt > 0)
        LIMIT 500`,
    );
    return {
      completed: rows.filter((r) => r.status === PrintStatus.Completed).map((r) => r.print_id),
      retire: rows.filter((r) => r.status !== PrintStatus.Completed).map((r) => r.print_id),
    };
  }

  async getRules(userId: string): Promise<{ rules: ProductionRules; last_cutoff_at: Date | null } | null> {
    const [r] = await this.db.query(`SELECT rules, last_cutoff_at FROM production_settings WHERE user_id = $1`, [userId]);
    return r ?? null;
  }

  async saveRules(userId: string, rules: ProductionRules, auto: boolean, now: Date) {
    await this.db.query(
      `INSERT INTO production_settings (user_id, rules, auto, last_cutoff_at, updated_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (user_id) DO UPDATE SET rules = EXCLUDED.rules, auto = EXCLUDED.auto, last_cutoff_at = EXCLUDED.last_cutoff_at, updated_at = now()`,
      [userId, JSON.stringify(rules), auto, now],
    );
  }

  /** Moves the seller's last cut-off forward; true when this call moved it (one run per cut-off). */
  async passCutoff(userId: string, at: Date): Promise<boolean> {
    const rows = returned(
      await this.db.query(
        `UPDATE production_settings SET last_cutoff_at = $2 WHERE user_id = $1 AND (last_cutoff_at IS NULL OR last_cutoff_at < $2) RETURNING user_id`,
        [userId, at],
      ),
    );
    return rows.length > 0;
  }

  async autoSellers(): Promise<string[]> {
    return (await this.db.query(`SELECT user_id FROM production_settings WHERE auto`)).map((r: { user_id: string }) => r.user_id);
  }

  /** Dashboard: the seller's order counts (PRODUCTION_ORDER_COUNTS_SQL). */
  async orderCounts(userId: string): Promise<{ queued: number; inProduction: number; fulfilled: number }> {
    const [r] = await this.db.query(
      PRODUCTION_ORDER_COUNTS_SQL,
      [userId, CLOSED_SHOP_STATUSES],
    );
    return { queued: r.queued, inProduction: r.in_production, fulfilled: r.fulfilled };
  }
}
