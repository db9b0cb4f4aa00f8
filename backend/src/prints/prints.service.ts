import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { paginate } from '../common/pagination';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { User } from '../users/entities/user.entity';
import { PrintListQueryDto } from './dto/print.dto';
import { Print } from './entities/print.entity';
import { toPrintDto } from './print.mapper';
import { MSG } from './prints.rules';

const SORT_COLUMNS: Record<string, string> = {
  createdAt: 'p.createdAt',
  printedAt: 'p.printedAt',
  status: 'p.status',
  type: 'p.type',
  updatedAt: 'p.updatedAt',
};

/**
 * Reading prints: the lists (own, or a user's for an admin), one print with its items, and
 * the print as the API returns it. The other jobs of the feature live beside it:
 * drafts (PrintDraftsService), preview (PrintPreviewService), charge/cancel
 * (PrintProcessingService), files and deletion (PrintFilesService), the job (PrintJobService).
 */
@Injectable()
export class PrintsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  dto(p: Print) {
    return toPrintDto(p, this.config.prints.retentionDays);
  }

  // ---- reading ----

  /**
   * One page of the seller's prints with their items. The page is chosen on `prints` alone
   * (an index in the sort order), then the items of those prints are read; paging over the
   * join counted item rows against the limit and lost prints. The total comes from the
   * trigger-kept `print_counts` unless a date range is given.
   */
  async list(userId: string, q: PrintListQueryDto) {
    const page = q.page ?? 1;
    const limit = q.limit ?? 10;
    const filtered = this.db
      .getRepository(Print)
      .createQueryBuilder('p')
      .where('p.userId = :userId', { userId });
    if (q.status) filtered.andWhere('p.status = :status', { status: q.status });
    if (q.type) filtered.andWhere('p.type = :type', { type: q.type });
    const dateCol = q.dateType === 'printedAt' ? 'p.printedAt' : 'p.createdAt';
    if (q.startDate) filtered.andWhere(`${dateCol} >= :start`, { start: dayStart(q.startDate) });
    if (q.endDate) filtered.andWhere(`${dateCol} < :end`, { end: dayEnd(q.endDate) });
    const dir = q.sort === 'asc' ? 'ASC' : 'DESC';
    const [ids, total] = await Promise.all([
      filtered
        .clone()
        .select('p._id', 'id')
        // NULLS LAST only where there are nulls: on a NOT NULL column PostgreSQL would still
        // sort every print instead of reading the (user_id, created_at, id) index backwards.
        .orderBy(SORT_COLUMNS[q.sortBy ?? 'createdAt'], dir, q.sortBy === 'printedAt' ? 'NULLS LAST' : undefined)
        .addOrderBy('p._id', dir)
        .offset((page - 1) * limit)
        .limit(limit)
        .getRawMany<{ id: string }>(),
      q.startDate || q.endDate ? filtered.clone().select('count(*)::int', 'n').getRawOne<{ n: number }>().then((r) => r?.n ?? 0) : this.countFromCounters(userId, q),
    ]);
    const prints = await this.withItems(ids.map((r) => r.id));
    return paginate(prints.map((p) => this.dto(p)), total, limit);
  }

  private async countFromCounters(userId: string, q: PrintListQueryDto): Promise<number> {
    const params: unknown[] = [userId];
    let sql = `SELECT coalesce(sum(prints), 0)::int AS n FROM print_counts WHERE user_id = $1`;
    if (q.status) sql += ` AND status = $${params.push(q.status)}`;
    if (q.type) sql += ` AND type = $${params.push(q.type)}`;
    const [row] = await this.db.query(sql, params);
    return row.n;
  }

  /** These prints (in this order) with their items, images and sizes. */
  private async withItems(ids: string[]): Promise<Print[]> {
    if (!ids.length) return [];
    const rows = await this.withItemsQuery(this.db.manager).where('p._id IN (:...ids)', { ids }).getMany();
    const byId = new Map(rows.map((p) => [p._id, p]));
    return ids.map((id) => byId.get(id)).filter((p): p is Print => !!p);
  }

  /** Prints joined to their items in order; `prints.layout` is not selected (see the entity). */
  private withItemsQuery(m: EntityManager) {
    return m
      .getRepository(Print)
      .createQueryBuilder('p')
      .leftJoinAndSelect('p.items', 'i')
      .leftJoinAndSelect('i.image', 'img')
      .leftJoinAndSelect('i.size', 'sz')
      .orderBy('i.createdAt', 'ASC')
      .addOrderBy('i._id', 'ASC');
  }

  async listForUser(userId: string, q: PrintListQueryDto) {
    if (!(await this.db.getRepository(User).exist({ where: { _id: userId } }))) throw new NotFoundException('User not found');
    return this.list(userId, q);
  }

  /**
   * One print with its items; `userId` null means any owner (an admin reading). The stored
   * layout (tens of KB) is read only when asked for (`withLayout`): the preview of a
   * processed print uses it, nothing else that loads a print does.
   */
  async find(userId: string | null, id: string, m: EntityManager = this.db.manager, opts: { withLayout?: boolean } = {}): Promise<Print> {
    const qb = this.withItemsQuery(m).where(userId ? 'p._id = :id AND p.userId = :userId' : 'p._id = :id', { id, userId });
    if (opts.withLayout) qb.addSelect('p.layout');
    const p = await qb.getOne();
    if (!p) throw new NotFoundException(MSG.notFound);
    return p;
  }
}

function dayStart(v: string): Date {
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00.000Z` : v);
}

function dayEnd(v: string): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return new Date(new Date(`${v}T00:00:00.000Z`).getTime() + 86_400_000);
  return new Date(new Date(v).getTime() + 1);
}
