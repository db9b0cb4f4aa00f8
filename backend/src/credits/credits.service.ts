import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { returned } from '../common/sql';
import { User } from '../users/entities/user.entity';
import { CreditReason, CreditTransaction } from './entities/credit-transaction.entity';

export interface CreditHistoryRow {
  _id: string;
  reason: CreditReason;
  availableDelta: number;
  usedDelta: number;
  availableAfter: number;
  reference: string | null;
  note: string;
  createdAt: Date;
  /** Who made the change; null for the system (a print charged or refunded, a payment). A deleted admin is kept by id only. */
  actor: { _id: string; username: string; firstName: string; lastName: string } | null;
}

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

  /** Admin sets a new available balance (a correction); the ledger records the difference, who and why. */
  async setAvailable(userId: string, newBalance: number, actorId: string, why: string, manager?: EntityManager) {
    const run = async (m: EntityManager) => {
      const user = await m.findOne(User, { where: { _id: userId }, lock: { mode: 'pessimistic_write' } });
      if (!user) throw new NotFoundException('User not found');
      const delta = newBalance - user.availableCredits;
      if (delta === 0) return null;
      return this.apply({ userId, reason: CreditReason.AdminAdjust, availableDelta: delta, actorId, note: why }, m);
    };
    return manager ? run(manager) : this.db.transaction(run);
  }

  /** Admin gives credits: no money moved, so it is a ledger row only (never a payment), with who and why. */
  grant(userId: string, credits: number, actorId: string, why: string) {
    return this.apply({ userId, reason: CreditReason.AdminGrant, availableDelta: credits, actorId, note: why });
  }

  async ledger(userId: string, limit = 100): Promise<CreditTransaction[]> {
    return this.db.getRepository(CreditTransaction).find({ where: { userId }, order: { createdAt: 'DESC' }, take: limit });
  }

  /**
   * One page of a user's ledger, newest first, with the name of whoever made each change.
   * A seller's ledger grows by a row per processed print, so it is paged on the
   * (user_id, created_at) index rather than read whole.
   */
  async history(userId: string, page: number, limit: number): Promise<{ rows: CreditHistoryRow[]; total: number }> {
    const [rows, [{ total }]] = await Promise.all([
      this.db.query(
        `SELECT t.id, t.reason, t.available_delta, t.used_delta, t.available_after, t.reference, t.note, t.created_at,
                t.actor_id, a.username AS actor_username, a.first_name AS actor_first_name, a.last_name AS actor_last_name
         FROM credit_transactions t LEFT JOIN users a ON a.id = t.actor_id
         WHERE t.user_id = $1 ORDER BY t.created_at DESC, t.id DESC OFFSET $2 LIMIT $3`,
        [userId, (page - 1) * limit, limit],
      ),
      this.db.query(`SELECT count(*)::int AS total FROM credit_transactions WHERE user_id = $1`, [userId]),
    ]);
    return {
      total,
      rows: rows.map((r: any) => ({
        _id: r.id,
        reason: r.reason,
        availableDelta: r.available_delta,
        usedDelta: r.used_delta,
        availableAfter: r.available_after,
        reference: r.reference,
        note: r.note,
        createdAt: r.created_at,
        actor: r.actor_id
          ? { _id: r.actor_id, username: r.actor_username ?? '', firstName: r.actor_first_name ?? '', lastName: r.actor_last_name ?? '' }
          : null,
      })),
    };
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
