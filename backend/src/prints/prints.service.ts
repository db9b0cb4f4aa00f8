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

  async list(userId: string, q: PrintListQueryDto) {
    const page = q.page ?? 1;
    const limit = q.limit ?? 10;
    const qb = this.db
      .getRepository(Print)
      .createQueryBuilder('p')
      .leftJoinAndSelect('p.items', 'i')
      .leftJoinAndSelect('i.image', 'img')
      .leftJoinAndSelect('i.size', 'sz')
      .where('p.userId = :userId', { userId });
    if (q.status) qb.andWhere('p.status = :status', { status: q.status });
    if (q.type) qb.andWhere('p.type = :type', { type: q.type });
    const dateCol = q.dateType === 'printedAt' ? 'p.printedAt' : 'p.createdAt';
    if (q.startDate) qb.andWhere(`${dateCol} >= :start`, { start: dayStart(q.startDate) });
    if (q.endDate) qb.andWhere(`${dateCol} < :end`, { end: dayEnd(q.endDate) });
    const dir = q.sort === 'asc' ? 'ASC' : 'DESC';
    qb.orderBy(SORT_COLUMNS[q.sortBy ?? 'createdAt'], dir, 'NULLS LAST')
      .addOrderBy('p._id', dir)
      .addOrderBy('i.createdAt', 'ASC')
      .skip((page - 1) * limit)
      .take(limit);
    const [rows, total] = await qb.getManyAndCount();
    return paginate(rows.map((p) => this.dto(p)), total, limit);
  }

  async listForUser(userId: string, q: PrintListQueryDto) {
    if (!(await this.db.getRepository(User).exist({ where: { _id: userId } }))) throw new NotFoundException('User not found');
    return this.list(userId, q);
  }

  /** One print with its items; `userId` null means any owner (an admin reading). */
  async find(userId: string | null, id: string, m: EntityManager = this.db.manager): Promise<Print> {
    const p = await m
      .getRepository(Print)
      .createQueryBuilder('p')
      .leftJoinAndSelect('p.items', 'i')
      .leftJoinAndSelect('i.image', 'img')
      .leftJoinAndSelect('i.size', 'sz')
      .where(userId ? 'p._id = :id AND p.userId = :userId' : 'p._id = :id', { id, userId })
      .orderBy('i.createdAt', 'ASC')
      .addOrderBy('i._id', 'ASC')
      .getOne();
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
