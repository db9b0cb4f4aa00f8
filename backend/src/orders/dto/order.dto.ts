import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDateString, IsIn, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { CursorQueryDto } from '../../common/pagination';
import { CursorPaginatedResponse } from '../../common/responses';
import { IntegrationType } from '../../integrations/entities/integration.entity';
import { OrderStatus } from '../entities/order.entity';
import { SHOP_STATES, ShopState } from '../shop-status';

export const DATE_TYPES = ['integrationOrderCreatedDate', 'createdAt', 'updatedAt'] as const;
export const FULFILMENT_STATUSES = ['none', 'pending', 'fulfilled', 'failed'] as const;

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() || undefined : value);

/** "Mark shipped": both optional; a tracking number needs its carrier. */
export class ShipOrderDto {
  @ApiPropertyOptional({ maxLength: 60, example: 'dhl', description: 'Carrier name (Etsy takes its carrier names such as usps, fedex, dhl, royal-mail, other)' })
  @IsOptional()
  @Transform(trimmed)
  @IsString({ message: 'carrier must be text' })
  @MaxLength(60, { message: 'carrier must be at most 60 characters' })
  carrier?: string;

  @ApiPropertyOptional({ maxLength: 100, example: '1Z999AA10123456784' })
  @IsOptional()
  @Transform(trimmed)
  @IsString({ message: 'trackingNumber must be text' })
  @MaxLength(100, { message: 'trackingNumber must be at most 100 characters' })
  @Matches(/^[A-Za-z0-9][A-Za-z0-9 ._/-]*$/, { message: 'trackingNumber may contain only letters, digits, spaces and . _ / -' })
  trackingNumber?: string;
}

export class OrderFulfilmentDto {
  @ApiProperty({ enum: FULFILMENT_STATUSES, description: 'none: never marked shipped; pending: being sent to the shop; fulfilled: the shop has it; failed: the shop refused (see error), retry with POST /orders/{id}/fulfilment/retry' })
  status: (typeof FULFILMENT_STATUSES)[number];
  @ApiProperty({ nullable: true, type: String, enum: ['batch', 'manual'], description: 'batch: its batch completed; manual: Mark shipped' }) source: string | null;
  @ApiProperty({ nullable: true, type: String }) carrier: string | null;
  @ApiProperty({ nullable: true, type: String }) trackingNumber: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The shop\'s refusal (failed), or the last transient error while pending' }) error: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) requestedAt: Date | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) fulfilledAt: Date | null;
}

export class FulfilmentResponse {
  @ApiProperty({ type: OrderFulfilmentDto }) data: OrderFulfilmentDto;
  @ApiProperty() message: string;
}

export class OrderListQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only this order (its _id): where a print item links to its order' })
  @IsOptional()
  @Transform(({ value }) => (value === '' ? undefined : value))
  @IsUUID('all', { message: 'Order not found' })
  id?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @Transform(({ value }) => (value === '' ? undefined : value))
  @IsUUID('all', { message: 'Integration not found' })
  integrationId?: string;

  @ApiPropertyOptional({ enum: OrderStatus })
  @IsOptional()
  @Transform(({ value }) => (value === '' ? undefined : value))
  @IsIn(Object.values(OrderStatus), { message: `status must be one of ${Object.values(OrderStatus).join(', ')}` })
  status?: OrderStatus;

  @ApiPropertyOptional({ enum: FULFILMENT_STATUSES, description: 'Only orders whose fulfilment back to the shop is in this state (none: never marked shipped)' })
  @IsOptional()
  @Transform(({ value }) => (value === '' ? undefined : value))
  @IsIn(FULFILMENT_STATUSES, { message: `fulfilment must be one of ${FULFILMENT_STATUSES.join(', ')}` })
  fulfilment?: (typeof FULFILMENT_STATUSES)[number];

  @ApiPropertyOptional({ enum: SHOP_STATES, description: "Only orders still open in the shop, or only those the shop has closed (cancelled, refunded, failed, trashed or completed there)" })
  @IsOptional()
  @Transform(({ value }) => (value === '' ? undefined : value))
  @IsIn(SHOP_STATES, { message: `shop must be one of ${SHOP_STATES.join(', ')}` })
  shop?: ShopState;

  @ApiPropertyOptional({ description: 'ISO date or date-time; a bare date means the start of that day (UTC)' })
  @IsOptional()
  @Transform(({ value }) => (value === '' ? undefined : value))
  @IsDateString({}, { message: 'startDate must be a date' })
  startDate?: string;

  @ApiPropertyOptional({ description: 'ISO date or date-time; a bare date includes that whole day (UTC)' })
  @IsOptional()
  @Transform(({ value }) => (value === '' ? undefined : value))
  @IsDateString({}, { message: 'endDate must be a date' })
  endDate?: string;

  @ApiPropertyOptional({ enum: DATE_TYPES, default: 'integrationOrderCreatedDate', description: 'Which date startDate/endDate filter: when the buyer ordered, or when the order was synced/changed here' })
  @IsOptional()
  @Transform(({ value }) => (value === '' ? undefined : value))
  @IsIn(DATE_TYPES, { message: `dateType must be one of ${DATE_TYPES.join(', ')}` })
  dateType?: (typeof DATE_TYPES)[number];

  @ApiPropertyOptional({ enum: DATE_TYPES, description: 'The date the list is ordered by (with sort: asc or desc, newest first by default); defaults to dateType' })
  @IsOptional()
  @Transform(({ value }) => (value === '' ? undefined : value))
  @IsIn(DATE_TYPES, { message: `sortBy must be one of ${DATE_TYPES.join(', ')}` })
  declare sortBy?: (typeof DATE_TYPES)[number];

  @ApiPropertyOptional({ maxLength: 200, description: "Orders whose number, buyer's name or email, or an item's SKU or title contains this text (any case)" })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  declare search?: string;
}

export class BuyerInfoDto {
  @ApiProperty() name: string;
  @ApiProperty({ nullable: true, type: String }) email: string | null;
  @ApiProperty({ nullable: true, type: String }) phone: string | null;
  @ApiProperty({ nullable: true, type: String }) address: string | null;
  @ApiProperty({ nullable: true, type: String }) country: string | null;
}

export class MoneyDto {
  @ApiProperty() amount: number;
  @ApiProperty() currency: string;
}

export class AttributeDto {
  @ApiProperty() name: string;
  @ApiProperty() value: string;
  @ApiPropertyOptional({ description: 'The buyer\'s design file, when this attribute holds it' }) fileUrl?: string;
}

export class OrderItemDto {
  @ApiProperty() _id: string;
  @ApiProperty({ description: 'The shop\'s order number' }) orderId: string;
  @ApiProperty({ description: 'The shop\'s id of this line (transaction / line item)' }) reference: string;
  @ApiProperty() title: string;
  @ApiProperty({ nullable: true, type: String }) sku: string | null;
  @ApiProperty({ nullable: true, type: String }) size: string | null;
  @ApiProperty() quantity: number;
  @ApiProperty({ description: 'Unit price in the order\'s currency' }) price: number;
  @ApiProperty() currency: string;
  @ApiProperty({ nullable: true, type: String }) designUrl: string | null;
  @ApiProperty({ type: [AttributeDto], description: 'attributes[0].fileUrl is the design file URL when there is one' }) attributes: AttributeDto[];
  @ApiProperty({ enum: [OrderStatus.Pending, OrderStatus.InDraft, OrderStatus.Completed] }) status: OrderStatus;
  @ApiProperty({ type: [String], description: 'Prints holding this item' }) printIds: string[];
}

export class OrderIntegrationDto {
  @ApiProperty() _id: string;
  @ApiProperty({ enum: IntegrationType }) type: IntegrationType;
  @ApiProperty() name: string;
}

export class OrderDto {
  @ApiProperty() _id: string;
  @ApiProperty({ description: 'The shop\'s order number' }) orderId: string;
  @ApiProperty({ type: OrderIntegrationDto }) integrationId: OrderIntegrationDto;
  @ApiProperty({ type: BuyerInfoDto }) buyerInfo: BuyerInfoDto;
  @ApiProperty({ type: String, format: 'date-time' }) integrationOrderCreatedDate: Date;
  @ApiProperty({ type: MoneyDto }) total: MoneyDto;
  @ApiProperty({ enum: OrderStatus }) status: OrderStatus;
  @ApiProperty({ description: 'The order\'s status in the shop (processing, paid, cancelled…)' }) shopStatus: string;
  @ApiProperty({ type: [OrderItemDto] }) orderItems: OrderItemDto[];
  @ApiProperty({ type: OrderFulfilmentDto, description: 'Fulfilment back to the shop (Mark shipped, or a completed batch)' }) fulfilment: OrderFulfilmentDto;
}

export class OrderListResponse extends CursorPaginatedResponse(OrderDto) {}

export class OrderItemIdsDto {
  @ApiProperty({ type: [String], format: 'uuid' })
  @IsArray({ message: 'Select at least one order item' })
  @ArrayMinSize(1, { message: 'Select at least one order item' })
  @ArrayMaxSize(500, { message: 'A print can have at most 500 items' })
  @IsUUID('all', { each: true, message: 'Order item not found' })
  orderItems: string[];
}

export class CreateOrderPrintDto extends OrderItemIdsDto {
  @ApiPropertyOptional({ description: 'Add items that are already in another print (printing them again on purpose)' })
  @IsOptional()
  @IsBoolean()
  allowReprint?: boolean;
}

export class ReviewItemDto extends OrderItemDto {
  @ApiProperty({ nullable: true, type: String, enum: ['designUrl', 'sku', 'imported'], description: 'Where the image will come from' }) imageSource: string | null;
  @ApiProperty({ nullable: true, type: String }) imageId: string | null;
  @ApiProperty({ nullable: true, type: String }) imageName: string | null;
  @ApiProperty({ nullable: true, type: String }) sizeId: string | null;
  @ApiProperty({ nullable: true, type: String }) sizeName: string | null;
  @ApiProperty({ type: [String], description: 'What still has to be completed by hand' }) problems: string[];
}

export class ReviewResponse {
  @ApiProperty({ type: [ReviewItemDto] }) data: ReviewItemDto[];
}

export class UnresolvedItemDto {
  @ApiProperty() orderItemId: string;
  @ApiProperty() title: string;
  @ApiProperty({ type: [String] }) problems: string[];
}

export class OrderPrintResponse {
  @ApiProperty({ description: 'The new draft print' }) _id: string;
  @ApiProperty() type: string;
  @ApiProperty({ type: [UnresolvedItemDto], description: 'Items without image or size, to complete on the print' }) unresolved: UnresolvedItemDto[];
  @ApiProperty() message: string;
}

export class SyncResponse {
  @ApiProperty() message: string;
  @ApiProperty({ enum: ['queued', 'running'] }) status: string;
}

export class OrderCountsDto {
  @ApiProperty() pendingOrders: number;
  @ApiProperty() totalOrders: number;
  @ApiProperty() completedOrders: number;
  @ApiProperty() totalIntegrations: number;
}
