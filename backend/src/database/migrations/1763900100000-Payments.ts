import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payments for credit packages. A payment is credited exactly once: its ledger row has
 * reason 'purchase' and reference 'payment:<id>', and credit_transactions already holds a
 * unique index on (reason, reference). The status change Pending → Completed is one
 * conditional UPDATE in the same transaction, so concurrent completions serialise on the
 * row and only the first one finds it Pending.
 * payment_events records the provider event (webhook id) that changed a payment, in
 * the same transaction as the change: an audit trail. A redelivered event changes
 * nothing because the payment's status has already moved on.
 */
export class Payments1763900100000 implements MigrationInterface {
  name = 'Payments1763900100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        type varchar(20) NOT NULL DEFAULT 'Manual',
        payment_method varchar(20) NOT NULL,
        payment_system_reference_id varchar(100),
        capture_id varchar(100),
        package_sku varchar(30) NOT NULL,
        credits integer NOT NULL CHECK (credits > 0),
        price numeric(10, 2) NOT NULL CHECK (price >= 0),
        currency varchar(3) NOT NULL DEFAULT 'USD',
        status varchar(20) NOT NULL DEFAULT 'Pending',
        created_by uuid REFERENCES users(id) ON DELETE SET NULL,
        debt_credits integer NOT NULL DEFAULT 0 CHECK (debt_credits >= 0),
        purchase_date timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        refunded_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX payments_user_purchase_idx ON payments (user_id, purchase_date)`);
    await q.query(`CREATE INDEX payments_status_purchase_idx ON payments (status, purchase_date)`);
    await q.query(
      `CREATE UNIQUE INDEX payments_method_reference_key ON payments (payment_method, payment_system_reference_id) WHERE payment_system_reference_id IS NOT NULL`,
    );
    await q.query(`CREATE UNIQUE INDEX payments_capture_key ON payments (payment_method, capture_id) WHERE capture_id IS NOT NULL`);
    await q.query(`
      CREATE TABLE payment_events (
        id varchar(100) PRIMARY KEY,
        event_type varchar(60) NOT NULL,
        payment_id uuid REFERENCES payments(id) ON DELETE CASCADE,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
    // A refunded payment takes its credits back with its own ledger reason (reference payment:<id>).
    await q.query(`ALTER TABLE credit_transactions DROP CONSTRAINT credit_transactions_reason_check`);
    await q.query(
      `ALTER TABLE credit_transactions ADD CONSTRAINT credit_transactions_reason_check CHECK (reason IN ('purchase', 'admin_grant', 'print_charge', 'refund', 'payment_refund'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM credit_transactions WHERE reason = 'payment_refund'`);
    await q.query(`ALTER TABLE credit_transactions DROP CONSTRAINT credit_transactions_reason_check`);
    await q.query(
      `ALTER TABLE credit_transactions ADD CONSTRAINT credit_transactions_reason_check CHECK (reason IN ('purchase', 'admin_grant', 'print_charge', 'refund'))`,
    );
    await q.query(`DROP TABLE payment_events`);
    await q.query(`DROP TABLE payments`);
  }
}
