import { PrintStatus, PrintType } from './entities/print.entity';

/**
 * What other features may know about prints, as SQL they compose into their own statements
 * (an orders page stays one query instead of one call per row). The prints tables and the
 * status values are spelled here only; callers pass the SQL expression of an order item id
 * (e.g. `oi.id`) or the placeholder of a user id (e.g. `$1`).
 *
 * An order item is printed once a print holding it was printed (Completed, or printed and
 * then cancelled or deleted: `printed_at` stays set).
 */
export const printReadSql = {
  /** True when a print holding the order item was printed. */
  orderItemPrinted: (orderItemId: string) =>
    `EXISTS (SELECT 1 FROM print_items pi JOIN prints p ON p.id = pi.print_id
              WHERE pi.order_item_id = ${orderItemId} AND (p.status = '${PrintStatus.Completed}' OR p.printed_at IS NOT NULL))`,

  /** True when any print holds the order item. */
  orderItemInPrint: (orderItemId: string) => `EXISTS (SELECT 1 FROM print_items pi WHERE pi.order_item_id = ${orderItemId})`,

  /**
   * True when a live print holds the order item, so production must not batch it again: any
   * print except a Batch that ended without printing (failed, cancelled; see docs/production.md),
   * whose items go back to the production queue.
   */
  orderItemHeldForProduction: (orderItemId: string) =>
    `EXISTS (SELECT 1 FROM print_items pi JOIN prints p ON p.id = pi.print_id
              WHERE pi.order_item_id = ${orderItemId}
                AND (p.type <> '${PrintType.Batch}' OR p.printed_at IS NOT NULL
                     OR p.status IN ('${PrintStatus.InDraft}', '${PrintStatus.Processing}', '${PrintStatus.Completed}')))`,

  /** The ids (text[]) of the prints holding the order item, or NULL when none does. */
  orderItemPrintIds: (orderItemId: string) => `(SELECT array_agg(DISTINCT pi.print_id::text) FROM print_items pi WHERE pi.order_item_id = ${orderItemId})`,

  /**
   * A derived table of the user's order items held by prints: `order_item_id`, and `printed`
   * as in `orderItemPrinted`. The user's print items that hold an order item are read once
   * (the partial index on order_item_id), for hash-joining to many order items at a time.
   */
  printedOrderItemsOf: (userId: string) => `(
          SELECT pi.order_item_id, bool_or(p.status = '${PrintStatus.Completed}' OR p.printed_at IS NOT NULL) AS printed
            FROM print_items pi JOIN prints p ON p.id = pi.print_id
           WHERE p.user_id = ${userId} AND pi.order_item_id IS NOT NULL
           GROUP BY pi.order_item_id
        )`,
};
