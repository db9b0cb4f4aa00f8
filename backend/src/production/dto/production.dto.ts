import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { ListQueryDto } from '../../common/pagination';
import { PaginationDto } from '../../common/responses';
import { SheetSettingsDto, SheetSettingsInput } from '../../sheet-settings/dto/sheet-settings.dto';

export class ProductionTriggersDto {
  @ApiPropertyOptional({ nullable: true, type: Number, description: 'Batch when the ready items fill at least this much film (inches) at `density`; null: off', minimum: 1, maximum: 10000 })
  @IsOptional()
  @IsNumber({}, { message: 'Minimum film length must be a number of inches' })
  @Min(1, { message: 'Minimum film length must be at least 1 in' })
  @Max(10000, { message: 'Minimum film length must be at most 10000 in' })
  minLengthIn?: number | null;

  @ApiPropertyOptional({ description: 'Share of the film the designs cover, for the length estimate (0.1–1)', minimum: 0.1, maximum: 1 })
  @IsOptional()
  @IsNumber({}, { message: 'Density must be a number between 0.1 and 1' })
  @Min(0.1, { message: 'Density must be at least 0.1' })
  @Max(1, { message: 'Density must be at most 1' })
  density?: number;

  @ApiPropertyOptional({ type: [String], description: "Cut-off times 'HH:MM' (24 h) in the seller's time zone", example: ['09:00', '14:00'] })
  @IsOptional()
  @IsArray({ message: "Cut-off times must be a list of 'HH:MM' times" })
  @ArrayMaxSize(24, { message: 'At most 24 cut-off times' })
  @Matches(/^([01]\d|2[0-3]):[0-5]\d$/, { each: true, message: "Cut-off times must be 'HH:MM' (00:00–23:59)" })
  cutoffs?: string[];

  @ApiPropertyOptional({ nullable: true, type: Number, description: 'Batch when the oldest ready item has waited this many hours; null: off', minimum: 0.25, maximum: 720 })
  @IsOptional()
  @IsNumber({}, { message: 'Maximum wait must be a number of hours' })
  @Min(0.25, { message: 'Maximum wait must be at least 0.25 hours' })
  @Max(720, { message: 'Maximum wait must be at most 720 hours' })
  maxWaitHours?: number | null;
}

export class ProductionRushDto {
  @ApiPropertyOptional({ type: [String], description: "An order is rush when one of its shop tags, or an option of one of its items (name or value), is one of these (case-insensitive)" })
  @IsOptional()
  @IsArray({ message: 'Rush tags must be a list of words' })
  @ArrayMaxSize(50, { message: 'At most 50 rush tags' })
  @IsString({ each: true, message: 'Rush tags must be words' })
  @MaxLength(100, { each: true, message: 'A rush tag must be at most 100 characters' })
  tags?: string[];

  @ApiPropertyOptional({ type: [String], description: "An order is rush when its shop shipping method (name or id, e.g. 'Express' or 'flat_rate'), or an option of one of its items, is one of these (case-insensitive)" })
  @IsOptional()
  @IsArray({ message: 'Rush shipping methods must be a list of names' })
  @ArrayMaxSize(50, { message: 'At most 50 rush shipping methods' })
  @IsString({ each: true, message: 'Rush shipping methods must be names' })
  @MaxLength(100, { each: true, message: 'A shipping method name must be at most 100 characters' })
  shippingMethods?: string[];
}

/** PUT /api/production/settings: every field optional; what is sent replaces what was saved. */
export class ProductionSettingsInput {
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid', description: "Batch sheets use this preset instead of the seller's sheet settings" })
  @IsOptional()
  @IsUUID('all', { message: 'Sheet preset not found' })
  presetId?: string | null;

  @ApiPropertyOptional({ type: SheetSettingsInput, description: 'Changes on top of the sheet settings (or preset) for batch sheets' })
  @IsOptional()
  @ValidateNested()
  @Type(() => SheetSettingsInput)
  sheet?: SheetSettingsInput;

  @ApiPropertyOptional({ type: ProductionTriggersDto, description: 'When to batch automatically; all off: only by hand (Batch now)' })
  @IsOptional()
  @ValidateNested()
  @Type(() => ProductionTriggersDto)
  triggers?: ProductionTriggersDto;

  @ApiPropertyOptional({ description: 'IANA time zone of the cut-off times', example: 'Europe/Vienna' })
  @IsOptional()
  @IsString({ message: 'Time zone must be an IANA name such as Europe/Vienna' })
  @MaxLength(64, { message: 'Time zone must be an IANA name such as Europe/Vienna' })
  timeZone?: string;

  @ApiPropertyOptional({ type: ProductionRushDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => ProductionRushDto)
  rush?: ProductionRushDto;

  @ApiPropertyOptional({ description: 'Process each batch at once when the credits suffice' })
  @IsOptional()
  @IsBoolean({ message: 'Auto-process must be true or false' })
  autoProcess?: boolean;

  @ApiPropertyOptional({ description: 'Order labels beside every copy (default true)' })
  @IsOptional()
  @IsBoolean({ message: 'Labels must be true or false' })
  labels?: boolean;

  @ApiPropertyOptional({ description: 'Copies per batch at most; more ready copies make several batches', minimum: 1, maximum: 5000 })
  @IsOptional()
  @IsInt({ message: 'Copies per batch must be a whole number' })
  @Min(1, { message: 'Copies per batch must be at least 1' })
  @Max(5000, { message: 'Copies per batch must be at most 5000' })
  maxCopiesPerBatch?: number;
}

export class ProductionTriggersOut {
  @ApiProperty({ nullable: true, type: Number }) minLengthIn: number | null;
  @ApiProperty() density: number;
  @ApiProperty({ type: [String] }) cutoffs: string[];
  @ApiProperty({ nullable: true, type: Number }) maxWaitHours: number | null;
}

export class ProductionRushOut {
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ type: [String] }) shippingMethods: string[];
}

export class ProductionSettingsDto {
  @ApiProperty({ nullable: true, type: String }) presetId: string | null;
  @ApiProperty({ type: SheetSettingsInput, description: 'The saved changes on top of the sheet settings or preset' }) sheet: SheetSettingsInput;
  @ApiProperty({ type: SheetSettingsDto, description: 'The sheet settings a batch made now would get' }) resolvedSheet: SheetSettingsDto;
  @ApiProperty({ type: ProductionTriggersOut }) triggers: ProductionTriggersOut;
  @ApiProperty() timeZone: string;
  @ApiProperty({ type: ProductionRushOut }) rush: ProductionRushOut;
  @ApiProperty() autoProcess: boolean;
  @ApiProperty() labels: boolean;
  @ApiProperty() maxCopiesPerBatch: number;
  @ApiProperty({ description: 'True when a trigger is on (batching runs by itself); false: only by hand' }) auto: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'The next cut-off, ISO time (null without cut-offs)' }) nextCutoffAt: string | null;
}

export class ProductionSettingsResponse {
  @ApiProperty({ type: ProductionSettingsDto }) data: ProductionSettingsDto;
}

export const QUEUE_FILTERS = ['all', 'ready', 'blocked'] as const;

export class ProductionQueueQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: QUEUE_FILTERS, default: 'all' })
  @IsOptional()
  @IsIn(QUEUE_FILTERS, { message: 'status must be all, ready or blocked' })
  status?: (typeof QUEUE_FILTERS)[number];
}

export class QueueItemDto {
  @ApiProperty({ description: 'Order item id' }) _id: string;
  @ApiProperty() orderId: string;
  @ApiProperty({ description: "The shop's order number" }) orderNumber: string;
  @ApiProperty() orderedAt: string;
  @ApiProperty({ description: 'Hours since the order was placed' }) ageHours: number;
  @ApiProperty() shop: string;
  @ApiProperty() shopType: string;
  @ApiProperty() title: string;
  @ApiProperty({ nullable: true, type: String }) sku: string | null;
  @ApiProperty({ nullable: true, type: String, description: "The size option as the shop sent it" }) size: string | null;
  @ApiProperty() copies: number;
  @ApiProperty({ description: "Rush order (the rules' rush tags or shipping methods): batched first" }) rush: boolean;
  @ApiProperty({ nullable: true, type: String, description: "The order's shipping method as the shop named it" }) shipping: string | null;
  @ApiProperty({ nullable: true, type: String }) imageId: string | null;
  @ApiProperty({ nullable: true, type: String }) imageName: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'GET with the session for the thumbnail' }) previewUrl: string | null;
  @ApiProperty({ nullable: true, type: String }) sizeId: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'Printed width, inches' }) widthIn: number | null;
  @ApiProperty({ description: 'The design file is downloaded when the item is batched' }) designToDownload: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'Why the item cannot be batched; null: ready' }) reason: string | null;
}

export class QueueSummaryDto {
  @ApiProperty() readyItems: number;
  @ApiProperty() readyCopies: number;
  @ApiProperty() blockedItems: number;
  @ApiProperty() blockedCopies: number;
  @ApiProperty({ description: 'Orders with a ready item' }) readyOrders: number;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'Film the ready items with a measured design would take at the density of the rules, inches; null when ready items exist and none is measured yet (designs still to download)',
  })
  estimatedLengthIn: number | null;
  @ApiProperty({ description: 'Ready items whose design is not measured yet (to download when batched): not in estimatedLengthIn' }) unmeasuredItems: number;
  @ApiProperty({ nullable: true, type: String }) oldestReadyAt: string | null;
}

export class ProductionQueueResponse {
  @ApiProperty({ type: [QueueItemDto] }) data: QueueItemDto[];
  @ApiProperty({ type: PaginationDto }) pagination: PaginationDto;
  @ApiProperty({ type: QueueSummaryDto }) summary: QueueSummaryDto;
}

export class BatchDto {
  @ApiProperty({ description: 'The Batch print' }) printId: string;
  @ApiProperty({ description: 'The print status' }) status: string;
  @ApiProperty({ description: 'manual, length, cutoff or wait' }) trigger: string;
  @ApiProperty() orders: number;
  @ApiProperty() items: number;
  @ApiProperty() copies: number;
  @ApiProperty({ nullable: true, type: String, description: 'Why it was left In Draft (credits, a refusal)' }) note: string | null;
  @ApiProperty() createdAt: string;
}

export class BatchListResponse {
  @ApiProperty({ type: [BatchDto] }) data: BatchDto[];
}

export class BatchNowResponse {
  @ApiProperty({ type: [BatchDto], description: 'The batches made (none when nothing was ready)' }) data: BatchDto[];
  @ApiProperty() message: string;
}
