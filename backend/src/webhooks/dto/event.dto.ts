import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { WEBHOOK_EVENTS } from '../webhook-events';

export const EVENT_PAGE_DEFAULT = 50;
export const EVENT_PAGE_MAX = 200;

export class EventListQueryDto {
  @ApiPropertyOptional({ enum: WEBHOOK_EVENTS, description: 'Only events of this type' })
  @IsOptional()
  @IsIn(WEBHOOK_EVENTS, { message: `type must be one of: ${WEBHOOK_EVENTS.join(', ')}` })
  type?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The id of the last event you have: the list starts after it. Without it, the list starts at the oldest event kept.' })
  @IsOptional()
  @IsUUID('all', { message: 'after must be an event id' })
  after?: string;

  @ApiPropertyOptional({ default: EVENT_PAGE_DEFAULT, minimum: 1, maximum: EVENT_PAGE_MAX })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be at least 1' })
  @Max(EVENT_PAGE_MAX, { message: `limit must be at most ${EVENT_PAGE_MAX}` })
  limit?: number;
}

export class EventDto {
  @ApiProperty({ format: 'uuid', description: 'The event id: the "id" of every webhook delivery of this event' }) id: string;
  @ApiProperty({ enum: WEBHOOK_EVENTS }) type: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ description: 'false for an event of test mode: what a test key lists; true for the live ones a session or live key lists' }) livemode: boolean;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The same "data" the webhook delivery carries' }) data: Record<string, unknown>;
}

export class EventListResponse {
  @ApiProperty({ type: [EventDto], description: 'Oldest first' }) data: EventDto[];
  @ApiProperty({ description: 'More events follow: ask again with after = the last id of this page' }) hasMore: boolean;
}
