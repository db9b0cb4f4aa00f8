import { printReadSql } from '../prints/print-read-model';
import { OrderStatus } from './entities/order.entity';

const S = OrderStatus;

/**
 * Order and item statuses follow the prints holding the items; they are computed here, in
 * SQL, never stored, so a print that is processed, cancelled or deleted changes them at once.
 * What "held by a print" and "printed" mean is the prints read model's (print-read-model.ts).
 * - item: Completed once a print holding it was printed; In Draft while it is in any other
 *   print; Pending otherwise.
 * - order: Completed when all its items are, Partially Completed when only some are,
 *   In Draft when some are in a print, Pending otherwise.
 */
export const itemStatusSql = (oi: string) => `(CASE
  WHEN ${printReadSql.orderItemPrinted(`${oi}.id`)} THEN '${S.Completed}'
  WHEN ${printReadSql.orderItemInPrint(`${oi}.id`)} THEN '${S.InDraft}'
  ELSE '${S.Pending}' END)`;

/** A LATERAL join giving `${alias}.status` for each row of orders `o`. */
export const orderStatusJoin = (o: string, alias: string) => `LEFT JOIN LATERAL (
  SELECT CASE
    WHEN count(*) = 0 THEN '${S.Pending}'
    WHEN bool_and(x.st = '${S.Completed}') THEN '${S.Completed}'
    WHEN bool_or(x.st = '${S.Completed}') THEN '${S.PartiallyCompleted}'
    WHEN bool_or(x.st = '${S.InDraft}') THEN '${S.InDraft}'
    ELSE '${S.Pending}' END AS status
  FROM (SELECT ${itemStatusSql('oi_s')} AS st FROM order_items oi_s WHERE oi_s.order_id = ${o}.id) x
) ${alias} ON true`;

/**
 * The dashboard's order counts for user $1 by the same rule as `orderStatusJoin`, in one
 * pass: the seller's order items held by prints are read once and hash-joined to the order
 * items, instead of two probes per order item per CASE branch, so the counts stay at a few
 * ms for a seller with thousands of orders.
 * Pending = no item in any print (or no items); Completed = every item in a printed print.
 */
export const ORDER_COUNTS_SQL = `
  SELECT count(*)::int AS total,
         count(*) FILTER (WHERE coalesce(x.in_print, 0) = 0)::int AS pending,
         count(*) FILTER (WHERE x.items > 0 AND x.printed = x.items)::int AS completed
    FROM orders o
    LEFT JOIN (
      SELECT oi.order_id, count(*) AS items, count(*) FILTER (WHERE pr.printed) AS printed, count(pr.order_item_id) AS in_print
        FROM order_items oi
        LEFT JOIN ${printReadSql.printedOrderItemsOf('$1')} pr ON pr.order_item_id = oi.id
       WHERE oi.user_id = $1
       GROUP BY oi.order_id
    ) x ON x.order_id = o.id
   WHERE o.user_id = $1`;
