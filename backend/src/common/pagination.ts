import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { BadRequestException } from '@nestjs/common';
import { IsIn, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { PaginationDto } from './responses';

export const MAX_PAGE = 1_000_000;

export class ListQueryDto {
  // Bounded: 1e308 or 99999999999999999999 are whole numbers to JavaScript, but not an
  // offset PostgreSQL can take (they used to answer 500).
  @ApiPropertyOptional({ default: 1, minimum: 1, maximum: MAX_PAGE })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be a whole number' })
  @Min(1, { message: 'page must be at least 1' })
  @Max(MAX_PAGE, { message: `page must be at most ${MAX_PAGE}` })
  page?: number;

  @ApiPropertyOptional({ default: 10, minimum: 1, maximum: 999 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be at least 1' })
  @Max(999, { message: 'limit must be at most 999' })
  limit?: number;

  @ApiPropertyOptional({ enum: ['asc', 'desc'] })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @IsIn(['asc', 'desc'], { message: 'sort must be asc or desc' })
  sort?: 'asc' | 'desc';

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  sortBy?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;
}

/**
 * Cursor paging beside `page`: `startingAfter` (an item id from the previous answer) and
 * `limit`. Unlike a page number it neither skips nor repeats items when rows are added or
 * removed between two requests, and it costs the same however deep the list is read.
 */
export class CursorQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'The _id of the last item you have: the answer starts after it, in the same order (page is then ignored)' })
  @IsOptional()
  @IsUUID('all', { message: 'startingAfter must be an id from this list' })
  startingAfter?: string;
}

/**
 * The WHERE condition of a keyset page: rows after the cursor row's `(sort, id)` in the list's
 * order, read in SQL so no precision is lost (timestamps have microseconds). `sortExpr` is the
 * ORDER BY expression over `alias`, ordered with `alias.id` in `dir`; `param` is the id's
 * placeholder (`:cursor` for a query builder, `$n` in plain SQL).
 */
export function afterCursor(table: string, alias: string, sortExpr: string, dir: 'ASC' | 'DESC', param = ':cursor'): string {
  const cursorExpr = sortExpr.replace(new RegExp(`\\b${alias}\\.`, 'g'), 'cur.');
  return `(${sortExpr}, ${alias}.id) ${dir === 'DESC' ? '<' : '>'} (SELECT ${cursorExpr}, cur.id FROM ${table} cur WHERE cur.id = ${param})`;
}

export const invalidCursor = () =>
  new BadRequestException({ message: 'startingAfter is not an item of this list: start again without it.', code: 'invalid_cursor' });

export interface Paginated<T> {
  data: T[];
  pagination: PaginationDto;
}

export function paginate<T>(data: T[], totalDocuments: number, limit: number, totalCapped = false): Paginated<T> {
  return { data, pagination: { totalDocuments, totalPages: Math.ceil(totalDocuments / limit), ...(totalCapped ? { totalCapped } : {}) } };
}

/** Escapes LIKE wildcards so a search for "50%" finds "50%", not everything. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
}
