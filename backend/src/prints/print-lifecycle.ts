import { EntityManager } from 'typeorm';
import { returned } from '../common/sql';
import { CreditsService } from '../credits/credits.service';
import { CreditReason } from '../credits/entities/credit-transaction.entity';
import { OutboxJob } from '../queue/outbox.service';
import { JobName, JobPayload } from '../queue/jobs';
import { PrintStatus } from './entities/print.entity';

/** The processing job of one print attempt. */
export type ProcessJobData = JobPayload<JobName.ProcessPrint>;

export const printJobId = (printId: string, attempt: number) => `print:${printId}:${attempt}`;

/**
 * The processing job of one attempt (the same options whether enqueued at once or resumed);
 * the owner is its fairness group (see jobGroup).
 */
export const processJob = (printId: string, attempt: number, attempts: number, userId: string): OutboxJob<JobName.ProcessPrint> => ({
  name: JobName.ProcessPrint,
  data: { printId, attempt, userId },
  jobId: printJobId(printId, attempt),
  attempts,
  backoffMs: 2000,
});

/** The ledger reference of an attempt's charge (and of its refund). */
export const chargeReference = printJobId;

/** Where a print's files live in storage (one folder per attempt below it). */
export const printFolder = (userId: string, printId: string) => `users/${userId}/prints/${printId}`;

/**
 * Ends a Processing attempt with `status` and refunds its charge, inside `m`. The UPDATE
 * matches only while the print is still Processing (at `attempt`, when given), so of a job
 * failing, a cancel and an enqueue failure racing for one attempt exactly one ends it and
 * refunds; the ledger's unique (reason, reference) guards the refund a second time.
 * Returns the owner and attempt, or null when the print was no longer Processing.
 */
export async function endAttemptWithRefund(
  m: EntityManager,
  credits: CreditsService,
  p: { printId: string; status: PrintStatus; error: string | null; note: string; attempt?: number; userId?: string },
): Promise<{ userId: string; attempt: number } | null> {
  const rows = returned<{ user_id: string; attempt: number; credit_cost: number }>(
    await m.query(
      `UPDATE prints SET status = $2, error = $3, updated_at = now()
        WHERE id = $1 AND status = 'Processing' AND ($4::int IS NULL OR attempt = $4) AND ($5::uuid IS NULL OR user_id = $5)
        RETURNING user_id, attempt, credit_cost`,
      [p.printId, p.status, p.error, p.attempt ?? null, p.userId ?? null],
    ),
  );
  if (!rows.length) return null;
  const { user_id: userId, attempt, credit_cost: cost } = rows[0];
  if (cost > 0)
    await credits.apply(
      { userId, reason: CreditReason.Refund, availableDelta: cost, usedDelta: -cost, reference: chargeReference(p.printId, attempt), note: p.note },
      m,
    );
  return { userId, attempt };
}
