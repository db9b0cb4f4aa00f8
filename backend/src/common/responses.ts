import { Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The answer of a route that only confirms (`{ message }`), e.g. a delete. */
export class MessageResponse {
  @ApiProperty() message: string;
}

/** The `pagination` of every list answer. */
export class PaginationDto {
  @ApiProperty() totalDocuments: number;
  @ApiProperty() totalPages: number;
  @ApiPropertyOptional({
    description: 'Present and true when a search matched more than the total counts up to (1,000 for the image search): totalDocuments is then that cap, a lower bound',
  })
  totalCapped?: boolean;
}

/**
 * The one list answer: `{ data: Item[], pagination }`. A feature declares its list type as
 * `export class SizeListResponse extends PaginatedResponse(SizeDto) {}`, so the OpenAPI
 * document (and the frontend types generated from it) names the item type of each list.
 */
export function PaginatedResponse<T>(item: Type<T>) {
  class Paginated {
    @ApiProperty({ type: [item] }) data: T[];
    @ApiProperty({ type: PaginationDto }) pagination: PaginationDto;
  }
  return Paginated;
}

/** A list that can also be paged by cursor (`startingAfter`): the page answer plus `hasMore`. */
export function CursorPaginatedResponse<T>(item: Type<T>) {
  class CursorPaginated extends PaginatedResponse(item) {
    @ApiProperty({ description: 'More items follow this page: ask again with startingAfter = the last _id of data' }) hasMore: boolean;
  }
  return CursorPaginated;
}
