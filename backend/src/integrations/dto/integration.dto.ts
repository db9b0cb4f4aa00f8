import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { DEFAULT_WOO_FULFILMENT_STATUS, Integration, IntegrationType } from '../entities/integration.entity';
import { AcceptUnknownFields } from '../../common/validation';

export class KeyValueDto {
  @ApiProperty({ example: 'baseUrl' })
  @IsString()
  @MaxLength(100)
  key: string;

  @ApiProperty({ example: 'https://shop.example.com', description: 'Secrets (consumerSecret, sharedSecret) are write-only: answered as an empty string' })
  @IsString()
  @MaxLength(2000)
  value: string;
}

export class IntegrationBodyDto {
  @ApiProperty({ maxLength: 100 })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsNotEmpty({ message: 'Name is required' })
  @IsString()
  @MaxLength(100, { message: 'Name must be at most 100 characters' })
  name: string;

  @ApiProperty({ enum: IntegrationType })
  @IsNotEmpty({ message: 'Type is required' })
  @IsIn(Object.values(IntegrationType), { message: 'Type must be Etsy or WordPress' })
  type: IntegrationType;

  @ApiPropertyOptional({
    type: [KeyValueDto],
    description: 'WordPress: baseUrl, consumerKey, consumerSecret (without keys: the /wc-auth/v1/authorize flow). Etsy: optional keystring, sharedSecret (default: the server\'s Etsy app)',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => KeyValueDto)
  keys?: KeyValueDto[];

  @ApiPropertyOptional({
    maxLength: 40,
    example: 'completed',
    description: 'WooCommerce: the order status a fulfilled order is given in the shop (default completed; a plugin status such as shipped works when the shop knows it)',
  })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsString({ message: 'fulfilmentStatus must be a WooCommerce order status such as completed' })
  @Matches(/^[a-z0-9_-]{1,40}$/, { message: 'fulfilmentStatus must be a WooCommerce order status such as completed (letters, digits, - and _; at most 40)' })
  fulfilmentStatus?: string;
}

export class IntegrationSessionDto {
  @ApiProperty() connected: boolean;
  @ApiPropertyOptional({ nullable: true, type: String }) shopId: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'date-time' }) expiresAt: Date | null;
}

export class IntegrationDto {
  @ApiProperty() _id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: IntegrationType }) type: IntegrationType;
  @ApiProperty({ type: [KeyValueDto] }) keys: KeyValueDto[];
  @ApiProperty({ description: 'Connected: a working session with the shop' }) connected: boolean;
  @ApiProperty({ type: IntegrationSessionDto, nullable: true }) session: IntegrationSessionDto | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) lastSync: Date | null;
  @ApiProperty({ nullable: true, type: String, enum: ['queued', 'running', 'done', 'failed'] }) syncStatus: string | null;
  @ApiProperty({ nullable: true, type: String }) syncError: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'WooCommerce: the status fulfilment gives an order in the shop (null for Etsy)' }) fulfilmentStatus: string | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class IntegrationResponse {
  @ApiProperty({ type: IntegrationDto }) data: IntegrationDto;
  @ApiPropertyOptional({ description: 'Where to send the browser to authorise (Etsy consent, WooCommerce key approval)' }) connectUrl?: string;
  @ApiPropertyOptional() message?: string;
}

export class IntegrationListResponse {
  @ApiProperty({ type: [IntegrationDto] }) data: IntegrationDto[];
}

export class ConnectResponse {
  @ApiPropertyOptional() connectUrl?: string;
  @ApiProperty() connected: boolean;
  @ApiProperty() message: string;
}

export class IntegrationTypeDto {
  @ApiProperty({ enum: IntegrationType }) type: IntegrationType;
  @ApiProperty({ example: 'Etsy' }) label: string;
  @ApiProperty({ description: 'Whether a shop of this type can be added on this server' }) available: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'Why the type is unavailable (null when available)' }) reason: string | null;
}

export class IntegrationTypesResponse {
  @ApiProperty({ type: [IntegrationTypeDto] }) data: IntegrationTypeDto[];
}

/** What WooCommerce POSTs to our callback_url after the owner approved. */
/** What WooCommerce's key approval POSTs; a field a newer WooCommerce adds is dropped, not refused. */
@AcceptUnknownFields()
export class WooAuthCallbackDto {
  @ApiProperty() @IsOptional() key_id?: number;
  @ApiProperty() @IsString() user_id: string;
  @ApiProperty() @IsString() consumer_key: string;
  @ApiProperty() @IsString() consumer_secret: string;
  @ApiPropertyOptional() @IsOptional() @IsString() key_permissions?: string;
}

export const SECRET_KEYS = new Set(['consumerSecret', 'sharedSecret']);

export function toIntegrationDto(i: Integration): IntegrationDto {
  const keys = i.keys.filter((k) => !SECRET_KEYS.has(k.key));
  return {
    _id: i._id,
    name: i.name,
    type: i.type,
    keys,
    connected: i.connected,
    session: i.connected ? { connected: true, shopId: i.shopKey, expiresAt: i.tokenExpiresAt } : null,
    lastSync: i.lastSync,
    syncStatus: i.syncStatus,
    syncError: i.syncError,
    fulfilmentStatus: i.type === IntegrationType.WordPress ? (i.settings?.fulfilmentStatus ?? DEFAULT_WOO_FULFILMENT_STATUS) : null,
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
  };
}
