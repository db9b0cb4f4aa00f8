import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { likePattern, paginate } from '../common/pagination';
import { PrintsReadService } from '../prints/prints-read.service';
import { NotificationsService } from '../notifications/notifications.service';
import { RealtimeService } from '../realtime/realtime.service';
import { SizeBodyDto, SizeListQueryDto, toSizeDto } from './dto/size.dto';
import { Size } from './entities/size.entity';

/** Realtime event sent to the owner whenever one of their sizes changes. */
const EXISTS = 'Size already exists';
const SORT_COLUMNS = { name: 's.name', value: 's.value', createdAt: 's.created_at' } as const;

@Injectable()
export class SizesService {
  constructor(
    @InjectRepository(Size) private readonly sizes: Repository<Size>,
    private readonly printUsage: PrintsReadService,
    private readonly realtime: RealtimeService,
    private readonly notifications: NotificationsService,
  ) {}

  async list(userId: string, q: SizeListQueryDto) {
    const page = q.page ?? 1;
    const limit = q.limit ?? 10;
    const qb = this.sizes.createQueryBuilder('s').where('s.user_id = :userId', { userId });
    if (q.search?.trim()) qb.andWhere('s.name ILIKE :s', { s: likePattern(q.search.trim()) });
    const dir = q.sort ? (q.sort.toUpperCase() as 'ASC' | 'DESC') : q.sortBy && q.sortBy !== 'createdAt' ? 'ASC' : 'DESC';
    qb.orderBy(SORT_COLUMNS[q.sortBy ?? 'createdAt'], dir).addOrderBy('s.id', dir);
    const [rows, total] = await qb.offset((page - 1) * limit).limit(limit).getManyAndCount();
    return paginate(rows.map(toSizeDto), total, limit);
  }

  async get(userId: string, id: string): Promise<Size> {
    const size = await this.sizes.findOne({ where: { _id: id, userId } });
    if (!size) throw new NotFoundException('Size not found');
    return size;
  }

  async create(userId: string, dto: SizeBodyDto): Promise<Size> {
    await this.assertUnique(userId, dto.name);
    const size = await this.sizes.save(this.sizes.create({ userId, name: dto.name, value: dto.value })).catch(rethrowUnique);
    const saved = await this.get(userId, size._id);
    this.emit(userId, 'created', saved);
    return saved;
  }

  async update(userId: string, id: string, dto: SizeBodyDto): Promise<Size> {
    await this.get(userId, id);
    await this.assertUnique(userId, dto.name, id);
    await this.sizes.update({ _id: id, userId }, { name: dto.name, value: dto.value }).catch(rethrowUnique);
    const saved = await this.get(userId, id);
    this.emit(userId, 'updated', saved);
    // notifications hook: a size that draft prints use was changed
    const drafts = (await this.printUsage.usageOfSizes([id])).get(id)?.open ?? 0; if (drafts) await this.notifications.notify(userId, { type: 'size', message: `Size "${saved.name}" is now ${saved.value} in; ${drafts === 1 ? '1 unprocessed print uses' : `${drafts} unprocessed prints use`} it.`, attachmentId: id });
    return saved;
  }

  /** Refused while any print (draft or finished) refers to the size: it would lose its meaning. */
  async remove(userId: string, id: string): Promise<void> {
    const size = await this.get(userId, id);
    const usage = (await this.printUsage.usageOfSizes([id])).get(id);
    const prints = (usage?.open ?? 0) + (usage?.finished ?? 0);
    if (prints > 0) {
      throw new ConflictException({
        message: `"${size.name}" is used by ${prints === 1 ? '1 print' : `${prints} prints`}. Change those print items to another size first.`,
        code: 'size_in_use',
      });
    }
    await this.sizes.delete({ _id: id, userId }).catch((e) => {
      if (e?.code === '23503') throw new ConflictException({ message: `"${size.name}" is used by a print.`, code: 'size_in_use' });
      throw e;
    });
    this.emit(userId, 'deleted', size);
  }

  private emit(userId: string, action: 'created' | 'updated' | 'deleted', size: Size) {
    this.realtime.emit(userId, 'size', { action, data: toSizeDto(size) });
  }

  private async assertUnique(userId: string, name: string, exceptId?: string) {
    const qb = this.sizes.createQueryBuilder('s').where('s.user_id = :userId AND lower(s.name) = lower(:name)', { userId, name });
    if (exceptId) qb.andWhere('s.id <> :exceptId', { exceptId });
    if (await qb.getExists()) throw new ConflictException({ message: EXISTS, code: 'size_exists' });
  }
}

function rethrowUnique(e: any): never {
  if (e?.code === '23505') throw new ConflictException({ message: EXISTS, code: 'size_exists' });
  throw e;
}
