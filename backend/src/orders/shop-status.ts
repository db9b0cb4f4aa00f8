/**
 * Shop statuses of orders the shop has closed: cancelled, refunded, failed, trashed, or
 * completed (shipped) there. Compared in lower case (Etsy's statuses are stored lower-cased,
 * WooCommerce's as they come). Production does not queue these; the Orders list's `shop`
 * filter tells them from the open ones.
 */
export const CLOSED_SHOP_STATUSES = ['cancelled', 'canceled', 'refunded', 'failed', 'trash', 'completed', 'fully refunded'];

/** The Orders list's `shop` filter: still open in the shop, or closed there (above). */
export const SHOP_STATES = ['open', 'closed'] as const;
export type ShopState = (typeof SHOP_STATES)[number];

/** The SQL condition for orders `o` in that state; `n` is the parameter holding CLOSED_SHOP_STATUSES. */
export const shopStateSql = (state: ShopState, o: string, n: string) =>
  state === 'closed' ? `lower(${o}.shop_status) = ANY(${n}::text[])` : `lower(${o}.shop_status) <> ALL(${n}::text[])`;
