/**
 * Order and item statuses follow the prints holding the items; they are computed here, in
 * SQL, never stored, so a print that is processed, cancelled or deleted changes them at once.
 * - item: Completed once a print holding it was printed; In Draft while it is in any other
 *   print; Pending otherwise.
 * - order: Completed when all its items are, Partially Completed when only some are,
 *   In Draft when some are in a print, Pending otherwise.
 */
export const itemStatusSql = (oi: string) => `(CASE
  WHEN EXISTS (SELECT 1 FROM print_items pi JOIN prints p ON p.id = pi.print_id
                WHERE pi.order_item_id = ${oi}.id AND (p.status = 'Completed' OR p.printed_at IS NOT NULL)) THEN 'Completed'
  WHEN EXISTS (SELECT 1 FROM print_items pi WHERE pi.order_item_id = ${oi}.id) THEN 'In Draft'
  ELSE 'Pending' END)`;

/** A LATERAL join giving `${alias}.status` for each row of orders `o`. */
export const orderStatusJoin = (o: string, alias: string) => `LEFT JOIN LATERAL (
  SELECT CASE
    WHEN count(*) = 0 THEN 'Pending'
    WHEN bool_and(x.st = 'Completed') THEN 'Completed'
    WHEN bool_or(x.st = 'Completed') THEN 'Partially Completed'
    WHEN bool_or(x.st = 'In Draft') THEN 'In Draft'
    ELSE 'Pending' END AS status
  FROM (SELECT ${itemStatusSql('oi_s')} AS st FROM order_items oi_s WHERE oi_s.order_id = ${o}.id) x
) ${alias} ON true`;
