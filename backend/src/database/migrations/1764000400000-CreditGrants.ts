import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Credits an admin gives are not payments: no money moved, so they must not appear in
 * Completed payments or any money total. They are ledger rows (reason 'admin_grant') that
 * name the admin (actor_id) and say why (note); a balance an admin sets directly is its
 * own reason, 'admin_adjust'. Payments an admin used to add by hand (method 'admin', a
 * Completed "Manual" payment at the package price) become the grants they were: their
 * ledger row is kept, renamed, and the payment row goes. Payments now come by checkout
 * or bank transfer only.
 */
export class CreditGrants1764000400000 implements MigrationInterface {
  name = 'CreditGrants1764000400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE credit_transactions DROP CONSTRAINT credit_transactions_reason_check`);
    await q.query(
      `ALTER TABLE credit_transactions ADD CONSTRAINT credit_transactions_reason_check
       CHECK (reason IN ('purchase', 'admin_grant', 'admin_adjust', 'print_charge', 'refund', 'payment_refund'))`,
    );
    // The balance edit wrote admin_grant with this note; it was a correction, not a gift.
    await q.query(`UPDATE credit_transactions SET reason = 'admin_adjust' WHERE reason = 'admin_grant' AND note LIKE 'Set by admin to %'`);
    await q.query(
      `UPDATE credit_transactions t
       SET reason = 'admin_grant', reference = NULL, actor_id = COALESCE(t.actor_id, p.created_by),
           note = 'Package ' || p.package_sku || ' added by an administrator (recorded as a payment before grants were kept apart)'
       FROM payments p
       WHERE p.payment_method = 'admin' AND t.reason = 'purchase' AND t.reference = 'payment:' || p.id`,
    );
    await q.query(`DELETE FROM payments WHERE payment_method = 'admin'`);
    await q.query(`ALTER TABLE payments DROP COLUMN created_by`);
    await q.query(`ALTER TABLE payments ALTER COLUMN type DROP DEFAULT`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payments ALTER COLUMN type SET DEFAULT 'Manual'`);
    await q.query(`ALTER TABLE payments ADD COLUMN created_by uuid REFERENCES users(id) ON DELETE SET NULL`);
    // Grants stay ledger rows: the payments they replaced recorded money that never moved.
    await q.query(`UPDATE credit_transactions SET reason = 'admin_grant' WHERE reason = 'admin_adjust'`);
    await q.query(`ALTER TABLE credit_transactions DROP CONSTRAINT credit_transactions_reason_check`);
    await q.query(
      `ALTER TABLE credit_transactions ADD CONSTRAINT credit_transactions_reason_check CHECK (reason IN ('purchase', 'admin_grant', 'print_charge', 'refund', 'payment_refund'))`,
    );
  }
}
