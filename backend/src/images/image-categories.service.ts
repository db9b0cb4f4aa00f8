import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { likePattern, ListQueryDto, paginate } from '../common/pagination';
import { ImageCategoryDto } from './dto/image-category.dto';
import { ImageCategory } from './entities/image-category.entity';

const EXISTS = 'Category already exists';

@Injectable()
export class ImageCategoriesService {
  constructor(@InjectRepository(ImageCategory) private readonly categories: Repository<ImageCategory>) {}

  /** All of the user's categories by name (the chips), each with its count of live images. */
  async list(userId: string, q: ListQueryDto) {
    const page = q.page ?? 1;
    const limit = q.limit ?? 999;
    const qb = this.categories.createQueryBuilder('c').where('c.user_id = :userId', { userId });
    if (q.search?.trim()) qb.andWhere('c.name ILIKE :s', { s: likePattern(q.search.trim()) });
    const total = await qb.clone().getCount();
    const rows = await qb
      .select(['c.id AS "_id"', 'c.name AS "name"', 'c.created_at AS "createdAt"'])
      .addSelect((sub) => sub.select('coalesce(max(n.images), 0)::int').from('image_library_counts', 'n').where('n.user_id = c.user_id AND n.category_key = c.id'), 'imageCount')
      .orderBy('lower(c.name)', q.sort === 'desc' ? 'DESC' : 'ASC')
      .addOrderBy('c.id', 'ASC')
      .offset((page - 1) * limit)
      .limit(limit)
      .getRawMany<ImageCategoryDto>();
    return paginate(rows, total, limit);
  }

  async get(userId: string, id: string): Promise<ImageCategoryDto> {
    const row = await this.categories
      .createQueryBuilder('c')
      .select(['c.id AS "_id"', 'c.name AS "name"', 'c.created_at AS "createdAt"'])
      .addSelect((sub) => sub.select('coalesce(max(n.images), 0)::int').from('image_library_counts', 'n').where('n.user_id = c.user_id AND n.category_key = c.id'), 'imageCount')
      .where('c.id = :id AND c.user_id = :userId', { id, userId })
      .getRawOne<ImageCategoryDto>();
    if (!row) throw new NotFoundException('Category not found');
    return row;
  }

  async create(userId: string, name: string): Promise<ImageCategoryDto> {
    await this.assertUnique(userId, name);
    const saved = await this.categories.save(this.categories.create({ userId, name })).catch(rethrowUnique);
    return this.get(userId, saved._id);
  }

  async update(userId: string, id: string, name: string): Promise<ImageCategoryDto> {
    await this.get(userId, id);
    await this.assertUnique(userId, name, id);
    await this.categories.update({ _id: id, userId }, { name }).catch(rethrowUnique);
    return this.get(userId, id);
  }

  /** Its images stay, without a category (foreign key ON DELETE SET NULL). */
  async remove(userId: string, id: string): Promise<void> {
    await this.get(userId, id);
    await this.categories.delete({ _id: id, userId });
  }

  private async assertUnique(userId: string, name: string, exceptId?: string) {
    const qb = this.categories.createQueryBuilder('c').where('c.user_id = :userId AND lower(c.name) = lower(:name)', { userId, name });
    if (exceptId) qb.andWhere('c.id <> :exceptId', { exceptId });
    if (await qb.getExists()) throw new ConflictException({ message: EXISTS, code: 'category_exists' });
  }
}

function rethrowUnique(e: any): never {
  if (e?.code === '23505') throw new ConflictException({ message: EXISTS, code: 'category_exists' });
  throw e;
}
