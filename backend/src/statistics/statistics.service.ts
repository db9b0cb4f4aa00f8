import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OrdersService } from '../orders/orders.service';
import { StatisticsDto } from './statistics.dto';

/**
 * The dashboard numbers of one seller, counted by PostgreSQL in two queries run side by side (prints here, orders by the orders
 * feature): each figure
 * is an aggregate (COUNT … FILTER, or a stored total) over an index on user_id, so no row is
 * loaded into the process and the cost stays flat as a seller's history grows.
 */
@Injectable()
export class StatisticsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly orders: OrdersService,
  ) {}

  async forUser(userId: string): Promise<StatisticsDto> {
    // Order and integration counts belong to the orders feature (its status rule lives there).
    const [[row], orderCounts] = await Promise.all([this.printCounts(userId), this.orders.countsFor(userId)]);
    return {
      pendingPrints: row.pending_prints,
      totalPrints: row.total_prints,
      printedImages: row.printed_images,
      usedCredits: Number(row.used_credits ?? 0),
      ...orderCounts,
    };
  }

  private printCounts(userId: string) {
    return this.db.query(
      `SELECT
         p.pending_prints, p.total_prints,
         (SELECT COUNT(*) FROM images i WHERE i.user_id = $1 AND i.deleted_at IS NULL AND i.used_in_print > 0)::int AS printed_images,
         (SELECT used_credits FROM users WHERE id = $1) AS used_credits
       FROM (
         SELECT COUNT(*) FILTER (WHERE status = 'In Draft')::int AS pending_prints, COUNT(*)::int AS total_prints
         FROM prints WHERE user_id = $1
       ) p`,
      [userId],
    );
  }
}
