import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsEnum, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ListQueryDto } from '../../common/pagination';
import { PaginatedResponse } from '../../common/responses';
import { DeliveryStatus, WebhookDelivery } from '../entities/webhook-delivery.entity';
import { WebhookEndpoint, WebhookMode } from '../entities/webhook-endpoint.entity';
import { WEBHOOK_EVENTS } from '../webhook-events';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateWebhookDto {
  @ApiProperty({ example: 'https://shop.example.com/hooks/gangsheet', maxLength: 2000 })
  @Transform(trim)
  @IsString()
  @IsNotEmpty({ message: 'URL is required' })
  @MaxLength(2000, { message: 'The URL must be at most 2000 characters' })
  url: string;

  @ApiProperty({ enum: WEBHOOK_EVENTS, isArray: true, example: ['print.completed', 'print.failed'] })
  @IsArray({ message: 'Choose at least one event' })
  @ArrayMinSize(1, { message: 'Choose at least one event' })
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENTS, { each: true, message: `Events must be among: ${WEBHOOK_EVENTS.join(', ')}` })
  events: string[];

  @ApiPropertyOptional({ example: 'Order system', maxLength: 200 })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(200, { message: 'The description must be at most 200 characters' })
  description?: string;

  @ApiPropertyOptional({
    enum: WebhookMode,
    description: 'live: events of live activity; test: events of test mode only (test prints). Default: the mode of the request (test with a test key, else live). Cannot be changed later.',
  })
  @IsOptional()
  @IsEnum(WebhookMode, { message: 'Mode must be live or test' })
  mode?: WebhookMode;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional({ example: 'https://shop.example.com/hooks/gangsheet' })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @IsNotEmpty({ message: 'URL is required' })
  @MaxLength(2000)
  url?: string;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENTS, isArray: true })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1, { message: 'Choose at least one event' })
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENTS, { each: true, message: `Events must be among: ${WEBHOOK_EVENTS.join(', ')}` })
  events?: string[];

  @ApiPropertyOptional()
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(200)
  description?: string;

  @ApiPropertyOptional({ description: 'false pauses deliveries to this endpoint' })
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

/** The longest overlap a roll allows, in hours (three days: a weekend and a working day). */
export const MAX_SECRET_OVERLAP_HOURS = 72;
/** The overlap when the request names none: a working day to switch the receiver. */
export const DEFAULT_SECRET_OVERLAP_HOURS = 24;

export class RollWebhookSecretDto {
  @ApiPropertyOptional({
    minimum: 0,
    maximum: MAX_SECRET_OVERLAP_HOURS,
    default: DEFAULT_SECRET_OVERLAP_HOURS,
    description: 'Hours the replaced secret keeps signing deliveries beside the new one (0: stop at once)',
  })
  @IsOptional()
  @IsInt({ message: 'The overlap must be a whole number of hours' })
  @Min(0, { message: `The overlap must be 0 to ${MAX_SECRET_OVERLAP_HOURS} hours` })
  @Max(MAX_SECRET_OVERLAP_HOURS, { message: `The overlap must be 0 to ${MAX_SECRET_OVERLAP_HOURS} hours` })
  overlapHours?: number;
}

export class WebhookDto {
  @ApiProperty() _id: string;
  @ApiProperty({ example: 'https://shop.example.com/hooks/gangsheet' }) url: string;
  @ApiProperty() description: string;
  @ApiProperty({ enum: WEBHOOK_EVENTS, isArray: true }) events: string[];
  @ApiProperty() active: boolean;
  @ApiProperty({ enum: WebhookMode, description: 'live: receives live events; test: only the events of test mode' }) mode: WebhookMode;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'After a secret roll: the replaced secret also signs deliveries until then',
  })
  previousSecretExpiresAt: Date | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class CreatedWebhookDto extends WebhookDto {
  @ApiProperty({ example: 'whsec_9J2k…', description: 'Signing secret, shown only in this answer' }) secret: string;
}

export class WebhookListResponse {
  @ApiProperty({ type: [WebhookDto] }) data: WebhookDto[];
}

export class WebhookResponse {
  @ApiProperty({ type: WebhookDto }) data: WebhookDto;
  @ApiPropertyOptional() message?: string;
}

export class CreatedWebhookResponse {
  @ApiProperty({ type: CreatedWebhookDto }) data: CreatedWebhookDto;
  @ApiProperty() message: string;
}

export class WebhookDeliveryDto {
  @ApiProperty() _id: string;
  @ApiProperty() endpointId: string;
  @ApiProperty({ example: 'print.completed' }) event: string;
  @ApiProperty({ description: 'The event id (the body\'s "id"); the same on every retry and redelivery' }) eventId: string;
  @ApiProperty({ enum: DeliveryStatus }) status: DeliveryStatus;
  @ApiProperty() attempts: number;
  @ApiProperty({ type: Number, nullable: true, description: 'HTTP status of the last attempt' }) lastStatusCode: number | null;
  @ApiProperty({ type: String, nullable: true }) lastError: string | null;
  @ApiProperty({ description: 'The last attempt got a 2xx answer (a delivery that succeeded once may fail on a redelivery)' }) lastAttemptOk: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastAttemptAt: Date | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deliveredAt: Date | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The body sent: { id, type, createdAt, data }' }) payload: Record<string, unknown>;
  @ApiProperty() createdAt: Date;
}

export class WebhookDeliveryListResponse extends PaginatedResponse(WebhookDeliveryDto) {}

export class WebhookDeliveryResponse {
  @ApiProperty({ type: WebhookDeliveryDto }) data: WebhookDeliveryDto;
  @ApiPropertyOptional() message?: string;
}

export class DeliveryListQueryDto extends ListQueryDto {}

export function toWebhookDto(e: WebhookEndpoint): WebhookDto {
  const previous = e.previousSecretExpiresAt && new Date(e.previousSecretExpiresAt) > new Date() ? e.previousSecretExpiresAt : null;
  return { _id: e._id, url: e.url, description: e.description, events: e.events, active: e.active, mode: e.mode, previousSecretExpiresAt: previous, createdAt: e.createdAt, updatedAt: e.updatedAt };
}

export function toDeliveryDto(d: WebhookDelivery): WebhookDeliveryDto {
  return {
    _id: d._id,
    endpointId: d.endpointId,
    event: d.event,
    eventId: d.eventId,
    status: d.status,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    lastAttemptOk: d.lastStatusCode !== null && d.lastStatusCode >= 200 && d.lastStatusCode < 300,
    lastAttemptAt: d.lastAttemptAt,
    deliveredAt: d.deliveredAt,
    payload: d.payload,
    createdAt: d.createdAt,
  };
}
