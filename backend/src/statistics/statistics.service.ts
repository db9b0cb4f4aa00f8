import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OrdersService } from '../orders/orders.service';
import { PrintStatus } from '../prints/entities/print.entity';
import { StatisticsDto } from './statistics.dto';

/**
 * The dashboard numbers of one seller, in two queries run side by side (prints and images
 * here, orders by the orders feature). Print and image figures are sums of a few counter rows
 * kept by triggers, so their cost stays flat as a seller's history grows.
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

  /** Four index lookups on the trigger-kept counters (migration PrintCounts): flat in the size of the history. */
  private printCounts(userId: string) {
    return this.db.query(
      `SELECT
         (SELECT coalesce(sum(prints) FILTER (WHERE status = $2), 0) FROM print_counts WHERE user_id = $1)::int AS pending_prints,
         (SELECT coalesce(sum(prints), 0) FROM print_counts WHERE user_id = $1)::int AS total_prints,
         (SELECT coalesce(sum(printed), 0) FROM image_library_counts WHERE user_id = $1)::int AS printed_images,
         (SELECT used_credits FROM users WHERE id = $1) AS used_credits`,
      [userId, PrintStatus.InDraft],
    );
  }
}
