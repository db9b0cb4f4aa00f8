import { isoTimestampSql } from '../common/sql';

/**
 * The SQL of the prints' list and detail reads (PrintsService), in one place so that
 * bench:api measures the routes against the very statements they send.
 */

/** The shop order line of print item `i`: its order's number and buyer, its own title. */
export const ORDER_LINE_COLUMNS = `o.id AS ol_order_id, o.number AS ol_number, o.buyer_info->>'name' AS ol_buyer, oi.title AS ol_title`;
export const ORDER_LINE_JOIN = `LEFT JOIN order_items oi ON oi.id = i.order_item_id LEFT JOIN orders o ON o.id = oi.order_id`;

/**
 * The columns of `prints` the answer shows (`layout`, tens of KB, is never read here). The
 * timestamps it only passes on are read as their JSON text (isoTimestampSql); `printed_at`
 * stays a Date, for the files' expiry.
 */
export const PRINT_COLUMNS = `id, user_id, type, status, attempt, credit_cost, settings, files, ${isoTimestampSql('files_deleted_at')} AS files_deleted_at, error,
  printed_at, ${isoTimestampSql('created_at')} AS created_at, ${isoTimestampSql('updated_at')} AS updated_at, external_id, metadata, test`;

/** These prints ($1, ids), only the owner's when $2 is not null. */
export const PRINT_ROWS_SQL = `SELECT ${PRINT_COLUMNS} FROM prints WHERE id = ANY($1::uuid[]) AND ($2::uuid IS NULL OR user_id = $2)`;

/** The items of these prints ($1, ids) in order, with the image, size and order-line columns the answer shows (not their own dates). */
export const ITEM_ROWS_SQL = `SELECT i.id, i.print_id, i.image_id, i.size_id, i.quantity, i.order_item_id,
       img.name AS img_name, img.original_name AS img_original_name, img.preview_key AS img_preview_key, img.width AS img_width,
       img.height AS img_height, img.trim AS img_trim, img.status AS img_status, img.deleted_at AS img_deleted_at,
       sz.name AS sz_name, sz.value AS sz_value, ${ORDER_LINE_COLUMNS}
  FROM print_items i
  LEFT JOIN images img ON img.id = i.image_id
  LEFT JOIN sizes sz ON sz.id = i.size_id
  ${ORDER_LINE_JOIN}
 WHERE i.print_id = ANY($1::uuid[])
 ORDER BY i.created_at, i.id`;
