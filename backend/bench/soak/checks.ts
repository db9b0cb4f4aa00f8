/**
 * What the soak verifies at the end, read from the database itself (not from what the API
 * says): every charged print attempt Completed or refunded exactly once, every user's
 * balances equal to the sums of their ledger, every completed payment credited once.
 * Column and reference formats: credits/entities/credit-transaction.entity.ts,
 * prints/print-lifecycle.ts (`print:<id>:<attempt>`), payments (`payment:<id>`).
 */
import { Client as Pg } from 'pg';
import { Sample } from './http';

export interface Check {
  name: string;
  pass: boolean;
  detail: string;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function latencySummary(samples: Sample[]) {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const s of samples) statuses[s.status ? String(s.status) : `no answer (${s.error})`] = (statuses[s.status ? String(s.status) : `no answer (${s.error})`] ?? 0) + 1;
  return { n: ms.length, p50: percentile(ms, 50), p95: percentile(ms, 95), p99: percentile(ms, 99), max: ms[ms.length - 1] ?? NaN, statuses };
}

export async function waitForProcessingToEnd(db: Pg, timeoutMs: number, log: (s: string) => void): Promise<{ waitedMs: number; left: number }> {
  const t0 = Date.now();
  let last = -1;
  for (;;) {
    const [{ n }] = (await db.query(`SELECT count(*)::int AS n FROM prints WHERE status = 'Processing'`)).rows;
    if (n === 0 || Date.now() - t0 > timeoutMs) return { waitedMs: Date.now() - t0, left: n };
    if (n !== last) log(`waiting for ${n} print(s) still Processing (${Math.round((Date.now() - t0) / 1000)} s of ${timeoutMs / 1000} s)`);
    last = n;
    await new Promise((r) => setTimeout(r, 5000));
  }
}

export interface LedgerFindings {
  byStatus: Record<string, number>;
  charges: number;
  completedAttempts: number;
  refunds: number;
  refundedCredits: number;
  stuck: string[];
  unrefunded: string[];
  doubleDealt: string[];
  orphanRefunds: string[];
  wrongRefundAmount: string[];
  ledgerMismatch: string[];
  negative: string[];
  paymentsCompleted: number;
  paymentsNotCredited: string[];
  completedInWindow: number;
  copiesInWindow: number;
  completedAfter: number;
}

/** `loadFrom`/`loadTo`: when the sellers ran; `after`: prints finished after this count as "after the faults". */
export async function inspectLedger(db: Pg, loadFrom: Date, loadTo: Date, after: Date): Promise<LedgerFindings> {
  const prints = new Map<string, { status: string; attempt: number }>();
  const byStatus: Record<string, number> = {};
  for (const r of (await db.query(`SELECT id, status, attempt FROM prints`)).rows) {
    prints.set(r.id, { status: r.status, attempt: r.attempt });
    byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  }
  const rows = (await db.query(`SELECT reason, reference, available_delta, used_delta FROM credit_transactions WHERE reason IN ('print_charge', 'refund')`)).rows;
  const charges = new Map<string, number>();
  const refunds = new Map<string, number>();
  for (const r of rows) (r.reason === 'print_charge' ? charges : refunds).set(r.reference, r.available_delta);
  const f: LedgerFindings = {
    byStatus, charges: charges.size, completedAttempts: 0, refunds: refunds.size, refundedCredits: 0, stuck: [], unrefunded: [], doubleDealt: [],
    orphanRefunds: [], wrongRefundAmount: [], ledgerMismatch: [], negative: [], paymentsCompleted: 0, paymentsNotCredited: [],
    completedInWindow: 0, copiesInWindow: 0, completedAfter: 0,
  };
  for (const [ref, delta] of charges) {
    const [, id, a] = ref.split(':');
    const p = prints.get(id);
    const attempt = Number(a);
    const completed = p?.status === 'Completed' && p.attempt === attempt;
    const refund = refunds.get(ref);
    if (p?.status === 'Processing' && p.attempt === attempt) f.stuck.push(ref);
    else if (completed && refund !== undefined) f.doubleDealt.push(ref);
    else if (completed) f.completedAttempts++;
    else if (refund === undefined) f.unrefunded.push(`${ref} (print now ${p?.status} at attempt ${p?.attempt})`);
    if (refund !== undefined && refund !== -delta) f.wrongRefundAmount.push(`${ref}: charged ${-delta}, refunded ${refund}`);
  }
  for (const [ref, delta] of refunds) {
    f.refundedCredits += delta;
    if (!charges.has(ref)) f.orphanRefunds.push(ref);
  }
  for (const r of (
    await db.query(
      `SELECT u.id, u.email, u.available_credits AS a, u.used_credits AS u,
              COALESCE(SUM(t.available_delta), 0)::int AS la, COALESCE(SUM(t.used_delta), 0)::int AS lu
         FROM users u LEFT JOIN credit_transactions t ON t.user_id = u.id GROUP BY u.id`,
    )
  ).rows) {
    if (r.a !== r.la || r.u !== r.lu) f.ledgerMismatch.push(`${r.email}: balance ${r.a}/${r.u} used, ledger ${r.la}/${r.lu}`);
    if (r.a < 0 || r.u < 0) f.negative.push(`${r.email}: ${r.a} available, ${r.u} used`);
  }
  const pays = (
    await db.query(
      `SELECT p.id, p.credits, count(t.id)::int AS rows, COALESCE(SUM(t.available_delta), 0)::int AS credited
         FROM payments p LEFT JOIN credit_transactions t ON t.reason = 'purchase' AND t.reference = 'payment:' || p.id
        WHERE p.status = 'Completed' GROUP BY p.id`,
    )
  ).rows;
  f.paymentsCompleted = pays.length;
  for (const p of pays) if (p.rows !== 1 || p.credited !== p.credits) f.paymentsNotCredited.push(`${p.id}: ${p.rows} ledger rows, ${p.credited} of ${p.credits} credits`);
  const [w] = (
    await db.query(
      `SELECT count(*) FILTER (WHERE printed_at BETWEEN $1 AND $2)::int AS n,
              COALESCE(SUM(credit_cost) FILTER (WHERE printed_at BETWEEN $1 AND $2), 0)::int AS copies,
              count(*) FILTER (WHERE printed_at > $3)::int AS after
         FROM prints WHERE status = 'Completed'`,
      [loadFrom, loadTo, after],
    )
  ).rows;
  f.completedInWindow = w.n;
  f.copiesInWindow = w.copies;
  f.completedAfter = w.after;
  return f;
}
