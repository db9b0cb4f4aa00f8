import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, DeepPartial, EntityManager } from 'typeorm';
import { returned } from '../common/sql';
import { PaymentListQueryDto } from './dto/payment.dto';
import { Payment, PaymentMethod, PaymentStatus } from './entities/payment.entity';

/** The payment and credits a settlement moved. */
export interface SettledRow {
  userId: string;
  credits: number;
}

/** A Pending payment the reconciliation looks up at the provider. */
export interface PendingCheckout {
  id: string;
  ref: string | null;
  ageMs: number;
}

export interface PaymentPageQuery {
  userId: string | null;
  q: PaymentListQueryDto;
  statuses?: PaymentStatus[];
  method?: PaymentMethod;
}

const SORT_COLUMNS: Record<string, string> = { purchaseDate: 'p.purchaseDate', price: 'p.price', credits: 'p.credits', status: 'p.status' };

/**
 * Every read and write of `payments` and `payment_events`: the services above it speak in
 * named operations, the SQL lives here. Status changes are conditional UPDATEs (the row's
 * current status in the WHERE), so two callers racing on one payment change it once.
 * Methods that belong to a settlement take the transaction's EntityManager.
 */
@Injectable()
export class PaymentsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(fn: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(fn);
  }

  private get repo() {
    return this.db.getRepository(Payment);
  }

  create(fields: DeepPartial<Payment>): Promise<Payment> {
    return this.repo.save(this.repo.create(fields));
  }

  setOrderId(paymentId: string, orderId: string) {
    return this.repo.update({ _id: paymentId }, { paymentSystemReferenceId: orderId });
  }

  setCaptureId(paymentId: string, captureId: string) {
    return this.repo.update({ _id: paymentId }, { captureId });
  }

  /** The checkout could not be opened: Pending → Cancelled, with no settlement to announce. */
  abandonCheckout(paymentId: string) {
    return this.repo.update({ _id: paymentId, status: PaymentStatus.Pending }, { status: PaymentStatus.Cancelled });
  }

  get(paymentId: string): Promise<Payment> {
    return this.repo.findOneByOrFail({ _id: paymentId });
  }

  find(paymentId: string): Promise<Payment | null> {
    return this.repo.findOneBy({ _id: paymentId });
  }

  /** The payment with its user (what the API returns). */
  getWithUser(paymentId: string): Promise<Payment> {
    return this.repo.findOneOrFail({ where: { _id: paymentId }, relations: { user: true } });
  }

  findOwn(userId: string, paymentId: string): Promise<Payment | null> {
    return this.repo.findOne({ where: { _id: paymentId, userId }, relations: { user: true } });
  }

  findByOrder(method: PaymentMethod, orderId: string): Promise<Payment | null> {
    return this.repo.findOneBy({ paymentMethod: method, paymentSystemReferenceId: orderId });
  }

  findByMethod(method: PaymentMethod, paymentId: string): Promise<Payment | null> {
    return this.repo.findOneBy({ _id: paymentId, paymentMethod: method });
  }

  findByCapture(method: PaymentMethod, captureId: string): Promise<Payment | null> {
    return this.repo.findOneBy({ paymentMethod: method, captureId });
  }

  /** The user's open bank transfer for this package at this price (asking again answers it). */
  findOpenBankTransfer(userId: string, packageSku: string, price: string): Promise<Payment | null> {
    return this.repo.findOne({
      where: { userId, paymentMethod: PaymentMethod.Bank, status: PaymentStatus.Pending, packageSku, price },
      relations: { user: true },
    });
  }

  /** Bank transfers still Pending that were started more than `days` days ago, oldest first. */
  async staleBankTransfers(days: number, limit = 500): Promise<string[]> {
    const rows: { id: string }[] = await this.db.query(
      `SELECT id FROM payments WHERE payment_method = $1 AND status = 'Pending' AND purchase_date < now() - make_interval(days => $2)
        ORDER BY purchase_date LIMIT $3`,
      [PaymentMethod.Bank, days, limit],
    );
    return rows.map((r) => r.id);
  }

  /** Pending → Cancelled; true when this call did it. */
  async cancelPending(paymentId: string): Promise<boolean> {
    const rows = returned(
      await this.db.query(`UPDATE payments SET status = 'Cancelled', updated_at = now() WHERE id = $1 AND status = 'Pending' RETURNING id`, [paymentId]),
    );
    return rows.length > 0;
  }

  /** Pending or Cancelled → Completed (keeping a capture id already recorded); null when it was neither. */
  async complete(m: EntityManager, paymentId: string, captureId: string | null): Promise<SettledRow | null> {
    const rows = returned<{ user_id: string; credits: number }>(
      await m.query(
        `UPDATE payments SET status = 'Completed', capture_id = COALESCE(capture_id, $2), completed_at = now(), updated_at = now()
         WHERE id = $1 AND status IN ('Pending', 'Cancelled') RETURNING user_id, credits`,
        [paymentId, captureId],
      ),
    );
    return rows.length ? { userId: rows[0].user_id, credits: rows[0].credits } : null;
  }

  /** Completed → Refunded; null when it was not Completed. */
  async refund(m: EntityManager, paymentId: string): Promise<SettledRow | null> {
    const rows = returned<{ user_id: string; credits: number }>(
      await m.query(
        `UPDATE payments SET status = 'Refunded', refunded_at = now(), updated_at = now()
         WHERE id = $1 AND status = 'Completed' RETURNING user_id, credits`,
        [paymentId],
      ),
    );
    return rows.length ? { userId: rows[0].user_id, credits: rows[0].credits } : null;
  }

  /** The credits of a refunded payment the user had already spent (owed, shown to the admin). */
  async setDebt(m: EntityManager, paymentId: string, debt: number): Promise<void> {
    await m.query(`UPDATE payments SET debt_credits = $2 WHERE id = $1`, [paymentId, debt]);
  }

  /**
   * Records the provider event that changed a payment (an audit trail; replays are already
   * no-ops because the status moved on); false when the event was recorded before.
   */
  async recordEvent(m: EntityManager, eventId: string, type: string, paymentId: string): Promise<boolean> {
    const rows = await m.query(
      `INSERT INTO payment_events (id, event_type, payment_id) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [eventId.slice(0, 100), type.slice(0, 60), paymentId],
    );
    return returned(rows).length > 0;
  }

  /** The user's available credits, the row locked until the transaction ends. */
  async lockBalance(m: EntityManager, userId: string): Promise<number> {
    const [user] = await m.query(`SELECT available_credits FROM users WHERE id = $1 FOR UPDATE`, [userId]);
    return user.available_credits;
  }

  async balance(userId: string): Promise<number> {
    const [row] = await this.db.query(`SELECT available_credits FROM users WHERE id = $1`, [userId]);
    return row?.available_credits ?? 0;
  }

  /** The oldest Pending payments of a method older than `graceMs` (a batch). */
  async pendingCheckouts(method: PaymentMethod, graceMs: number): Promise<PendingCheckout[]> {
    const rows: Array<{ id: string; ref: string | null; age_ms: number }> = await this.db.query(
      `SELECT id, payment_system_reference_id AS ref, (EXTRACT(EPOCH FROM now() - purchase_date) * 1000)::float8 AS age_ms
       FROM payments WHERE status = 'Pending' AND payment_method = $1 AND purchase_date < now() - make_interval(secs => $2)
       ORDER BY purchase_date LIMIT 200`,
      [method, graceMs / 1000],
    );
    return rows.map((r) => ({ id: r.id, ref: r.ref, ageMs: r.age_ms }));
  }

  /** One page of payments with their users, filtered, searched and sorted as the query asks. */
  async page({ userId, q, statuses, method }: PaymentPageQuery, page: number, limit: number): Promise<[Payment[], number]> {
    const qb = this.repo.createQueryBuilder('p').leftJoinAndSelect('p.user', 'u');
    if (userId) qb.andWhere('p.userId = :userId', { userId });
    if (statuses) qb.andWhere('p.status IN (:...statuses)', { statuses });
    if (method) qb.andWhere('p.paymentMethod = :method', { method });
    if (q.status) qb.andWhere('p.status = :status', { status: q.status });
    if (q.search) {
      qb.andWhere(`(u.username ILIKE :s OR u.first_name ILIKE :s OR u.last_name ILIKE :s OR p.payment_system_reference_id ILIKE :s)`, {
        s: `%${q.search.replace(/[\\%_]/g, (c) => '\\' + c)}%`,
      });
    }
    const column = SORT_COLUMNS[q.sortBy ?? 'purchaseDate'] ?? 'p.purchaseDate';
    qb.orderBy(column, (q.sort ?? 'desc').toUpperCase() as 'ASC' | 'DESC').addOrderBy('p._id', 'ASC');
    // The join is many-to-one (one user per payment), so LIMIT on the joined rows is a page
    // of payments; skip/take would add TypeORM's DISTINCT pass over every matching payment.
    return qb.offset((page - 1) * limit).limit(limit).getManyAndCount();
  }
}
