import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { StatisticsDto } from './statistics.dto';

type OrderCounts = Pick<StatisticsDto, 'pendingOrders' | 'totalOrders' | 'completedOrders' | 'totalIntegrations'>;

/**
 * The dashboard numbers of one seller, counted by PostgreSQL in one round trip: each figure
 * is an aggregate (COUNT … FILTER, or a stored total) over an index on user_id, so no row is
 * loaded into the process and the cost stays flat as a seller's history grows.
 */
@Injectable()
export class StatisticsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async forUser(userId: string): Promise<StatisticsDto> {
    const [row] = await this.db.query(
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
    return {
      pendingPrints: row.pending_prints,
      totalPrints: row.total_prints,
      printedImages: row.printed_images,
      usedCredits: Number(row.used_credits ?? 0),
      ...(await this.orderCounts(userId)),
    };
  }

  /** Orders and integrations are not in this branch yet. */
  // wired to OrdersService.countsFor at merge
  private async orderCounts(_userId: string): Promise<OrderCounts> {
    return { pendingOrders: 0, totalOrders: 0, completedOrders: 0, totalIntegrations: 0 };
  }
}
