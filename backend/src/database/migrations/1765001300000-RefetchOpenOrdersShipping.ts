import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Orders synced before the shipping-method and tag columns (1765000600000) kept them empty:
 * the incremental sync asks the shop only for orders changed since the last sync, so an open
 * order that did not change is never read again and production cannot see that it is a rush
 * order. Once, each shop's next sync is made to start before the oldest such order still open
 * there (its last change in the shop), so the sync reads those orders again and stores their
 * methods and tags. Closed orders are left alone: production never queues them. A shop without
 * such orders keeps its place; on a new installation there is nothing to move.
 */
// The shop statuses of closed orders as orders/shop-status.ts has them now: a migration keeps
// the rule it was written with.
const CLOSED = ['cancelled', 'canceled', 'refunded', 'failed', 'trash', 'completed', 'fully refunded'];

export class RefetchOpenOrdersShipping1765001300000 implements MigrationInterface {
  name = 'RefetchOpenOrdersShipping1765001300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE integrations i SET last_sync = o.oldest
         FROM (SELECT integration_id, min(coalesce(integration_order_updated_date, integration_order_created_date, created_at)) - interval '1 second' AS oldest
                 FROM orders
                WHERE shipping_methods = '{}' AND shop_tags = '{}' AND lower(shop_status) <> ALL($1::text[])
                GROUP BY integration_id) o
        WHERE i.id = o.integration_id AND i.last_sync > o.oldest`,
      [CLOSED],
    );
  }

  async down(): Promise<void> {
    // Nothing to undo: the sync only read orders again.
  }
}
