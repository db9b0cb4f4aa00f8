import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
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
