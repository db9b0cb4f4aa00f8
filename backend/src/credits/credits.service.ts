import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { returned } from '../common/sql';
import { User } from '../users/entities/user.entity';
import { CreditReason, CreditTransaction } from './entities/credit-transaction.entity';

export interface CreditChange {
  userId: string;
  reason: CreditReason;
  /** Change of the available balance (negative for a charge). */
  availableDelta: number;
  /** Change of the used total (positive for a charge, negative for its refund). */
  usedDelta?: number;
  actorId?: string | null;
  reference?: string | null;
  note?: string;
}

/**
 * The only writer of users' credit columns. Each change is one conditional UPDATE (so the
 * balance can never go below zero, whatever runs at the same time) plus its ledger row,
 * in one transaction.
 */
@Injectable()
export class CreditsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async apply(change: CreditChange, manager?: EntityManager): Promise<CreditTransaction> {
    const run = async (m: EntityManager) => {
      const usedDelta = change.usedDelta ?? 0;
      const result = await m.query(
        `UPDATE users SET available_credits = available_credits + $2, used_credits = used_credits + $3, updated_at = now()
         WHERE id = $1 AND available_credits + $2 >= 0 AND used_credits + $3 >= 0
         RETURNING available_credits`,
        [change.userId, change.availableDelta, usedDelta],
      );
      const updated = returned<{ available_credits: number }>(result);
      if (!updated.length) {
        const exists = await m.count(User, { where: { _id: change.userId } });
        if (!exists) throw new NotFoundException('User not found');
        throw new BadRequestException({ message: 'Not enough credits', code: 'insufficient_credits' });
      }
      return m.save(
        m.create(CreditTransaction, {
          userId: change.userId,
          reason: change.reason,
          availableDelta: change.availableDelta,
          usedDelta,
          availableAfter: updated[0].available_credits,
          actorId: change.actorId ?? null,
          reference: change.reference ?? null,
          note: change.note ?? '',
        }),
      );
    };
    return manager ? run(manager) : this.db.transaction(run);
  }

  /** Admin sets a new available balance; the ledger records the difference. */
  async setAvailable(userId: string, newBalance: number, actorId: string, manager?: EntityManager) {
    const run = async (m: EntityManager) => {
      const user = await m.findOne(User, { where: { _id: userId }, lock: { mode: 'pessimistic_write' } });
      if (!user) throw new NotFoundException('User not found');
      const delta = newBalance - user.availableCredits;
      if (delta === 0) return null;
      return this.apply(
        { userId, reason: CreditReason.AdminGrant, availableDelta: delta, actorId, note: `Set by admin to ${newBalance}` },
        m,
      );
    };
    return manager ? run(manager) : this.db.transaction(run);
  }

  async ledger(userId: string, limit = 100): Promise<CreditTransaction[]> {
    return this.db.getRepository(CreditTransaction).find({ where: { userId }, order: { createdAt: 'DESC' }, take: limit });
  }

  /** True when the stored balances equal the sums of the ledger (checked in tests and by /health?deep). */
  async consistent(userId: string): Promise<boolean> {
    const [row] = await this.db.query(
      `SELECT u.available_credits AS a, u.used_credits AS u,
              COALESCE(SUM(t.available_delta), 0)::int AS la, COALESCE(SUM(t.used_delta), 0)::int AS lu
       FROM users u LEFT JOIN credit_transactions t ON t.user_id = u.id WHERE u.id = $1 GROUP BY u.id`,
      [userId],
    );
    return !!row && row.a === row.la && row.u === row.lu;
  }
}
