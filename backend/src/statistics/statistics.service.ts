import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OrdersService } from '../orders/orders.service';
import { PrintsReadService } from '../prints/prints-read.service';
import { ProductionService } from '../production/production.service';
import { StatisticsDto } from './statistics.dto';

/**
 * The dashboard numbers of one seller, in three queries run side by side: prints by the
 * prints read model, orders by the orders feature, images and credits here. Print and image
 * figures are sums of a few counter rows kept by triggers, so their cost stays flat as a
 * seller's history grows.
 */
@Injectable()
export class StatisticsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly prints: PrintsReadService,
    private readonly orders: OrdersService,
    private readonly production: ProductionService,
  ) {}

  async forUser(userId: string): Promise<StatisticsDto> {
    const [printCounts, [row], orderCounts, production] = await Promise.all([
      this.prints.countsFor(userId),
      this.libraryCounts(userId),
      this.orders.countsFor(userId),
      this.production.orderCounts(userId),
    ]);
    return {
      pendingPrints: printCounts.inDraft,
      totalPrints: printCounts.total,
      printedImages: row.printed_images,
      usedCredits: Number(row.used_credits ?? 0),
      ...orderCounts,
      queuedOrders: production.queued,
      inProductionOrders: production.inProduction,
      fulfilledOrders: production.fulfilled,
    };
  }

  /** Index lookups on the trigger-kept image counters (migration PrintCounts) and the user's row. */
  private libraryCounts(userId: string) {
    return this.db.query(
      `SELECT
         (SELECT coalesce(sum(printed), 0) FROM image_library_counts WHERE user_id = $1)::int AS printed_images,
         (SELECT used_credits FROM users WHERE id = $1) AS used_credits`,
      [userId],
    );
  }
}
