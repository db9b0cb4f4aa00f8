import { DataSource } from 'typeorm';
import { ORDER_COUNTS_SQL, orderStatusJoin } from '../src/orders/order-status.sql';
import { OrdersService } from '../src/orders/orders.service';
import { createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/**
 * The dashboard counts orders in one pass (ORDER_COUNTS_SQL); the lists compute each order's
 * status with orderStatusJoin. Both must agree on every mix of item states.
 */
describe('Order counts follow the order status rule (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('every mix: no items, pending, in a draft, in a completed print, printed then failed, partly printed', async () => {
    const s = await signUpAndLogin(t, 'ordercounts');
    const uid = s.user._id;
    const db = t.app.get(DataSource);
    const [{ id: integ }] = await db.query(`INSERT INTO integrations (user_id, name, type) VALUES ($1, 'Shop', 'WordPress') RETURNING id`, [uid]);
    const print = async (status: string, printed: boolean) =>
      (await db.query(`INSERT INTO prints (user_id, status, printed_at) VALUES ($1, $2, $3) RETURNING id`, [uid, status, printed ? new Date() : null]))[0].id;
    const prints = {
      draft: await print('In Draft', false),
      completed: await print('Completed', true),
      failedAfterPrint: await print('Error', true),
      cancelled: await print('Cancelled', false),
    };
    // each order: the prints holding each of its items (null = in no print)
    const orders: (keyof typeof prints | null)[][] = [
      [],
      [null],
      [null, null],
      ['draft'],
      ['draft', null],
      ['completed'],
      ['completed', 'completed'],
      ['completed', null],
      ['completed', 'draft'],
      ['failedAfterPrint'],
      ['cancelled'],
      ['cancelled', 'completed'],
    ];
    for (const [n, items] of orders.entries()) {
      const [{ id: orderId }] = await db.query(
        `INSERT INTO orders (user_id, integration_id, external_id, number, shop_status, integration_order_created_date) VALUES ($1, $2, $3, $3, 'processing', now()) RETURNING id`,
        [uid, integ, String(n)],
      );
      for (const [k, where] of items.entries()) {
        const [{ id: itemId }] = await db.query(
          `INSERT INTO order_items (order_id, user_id, external_id, title, quantity) VALUES ($1, $2, $3, 'x', 1) RETURNING id`,
          [orderId, uid, String(k)],
        );
        if (where) await db.query(`INSERT INTO print_items (print_id, quantity, order_item_id) VALUES ($1, 1, $2)`, [prints[where], itemId]);
      }
    }
    const statuses: { status: string }[] = await db.query(`SELECT os.status FROM orders o ${orderStatusJoin('o', 'os')} WHERE o.user_id = $1`, [uid]);
    const count = (st: string) => statuses.filter((r) => r.status === st).length;
    const [fast] = await db.query(ORDER_COUNTS_SQL, [uid]);
    expect(fast).toEqual({ total: orders.length, pending: count('Pending'), completed: count('Completed') });
    // and the rule's own answer for this mix, so a change to both at once is noticed too
    expect(fast).toEqual({ total: 12, pending: 3, completed: 3 });
    expect(await t.app.get(OrdersService).countsFor(uid)).toEqual({ pendingOrders: 3, totalOrders: 12, completedOrders: 3, totalIntegrations: 1 });
  });
});
