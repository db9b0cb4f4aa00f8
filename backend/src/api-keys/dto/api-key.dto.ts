import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDateString, IsEnum, IsNotEmpty, IsOptional, MaxLength } from 'class-validator';
import { ApiKey, ApiKeyMode, ApiKeyScope } from '../entities/api-key.entity';

export class CreateApiKeyDto {
  @ApiProperty({ example: 'Shop backend', maxLength: 100 })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsNotEmpty({ message: 'Name is required' })
  @MaxLength(100, { message: 'Name must be at most 100 characters' })
  name: string;

  @ApiProperty({ enum: ApiKeyScope, example: ApiKeyScope.ReadWrite, description: 'read: GET requests only; read-write: everything, including spending credits' })
  @IsEnum(ApiKeyScope, { message: 'Scope must be read or read-write' })
  scope: ApiKeyScope;

  @ApiPropertyOptional({
    enum: ApiKeyMode,
    default: ApiKeyMode.Live,
    description: 'test: a gsk_test_… key. Its prints cost no credits and their sheets carry a TEST watermark, its events go to test webhooks only, and it cannot buy credits or touch shops (see docs/api.md "Test keys")',
  })
  @IsOptional()
  @IsEnum(ApiKeyMode, { message: 'Mode must be live or test' })
  mode?: ApiKeyMode;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, example: '2027-01-01T00:00:00.000Z', description: 'No expiry when omitted' })
  @IsOptional()
  @IsDateString({}, { message: 'Expiry must be a date' })
  expiresAt?: string | null;
}

export class ApiKeyDto {
  @ApiProperty() _id: string;
  @ApiProperty({ example: 'Shop backend' }) name: string;
  @ApiProperty({ example: 'gsk_3fQk9aZt', description: 'The first characters of the secret, to recognise the key (gsk_test_ and 8 more for a test key)' }) prefix: string;
  @ApiProperty({ enum: ApiKeyScope }) scope: ApiKeyScope;
  @ApiProperty({ enum: ApiKeyMode, description: 'live, or test: free watermarked prints, test webhooks only' }) mode: ApiKeyMode;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt: Date | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastUsedAt: Date | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revokedAt: Date | null;
  @ApiProperty({ enum: ['active', 'expired', 'revoked'] }) status: 'active' | 'expired' | 'revoked';
  @ApiProperty() createdAt: Date;
}

export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ example: 'gsk_3fQk9aZtB0xJw1qv2m5T8nRc4LpYhE7uKs6DgWo0', description: 'The secret, shown only in this answer' })
  secret: string;
}

export class ApiKeyListResponse {
  @ApiProperty({ type: [ApiKeyDto] }) data: ApiKeyDto[];
}

export class CreatedApiKeyResponse {
  @ApiProperty({ type: CreatedApiKeyDto }) data: CreatedApiKeyDto;
  @ApiProperty({ example: 'API key created. Copy it now: it will not be shown again.' }) message: string;
}

export class ApiKeyResponse {
  @ApiProperty({ type: ApiKeyDto }) data: ApiKeyDto;
  @ApiPropertyOptional() message?: string;
}

export function toApiKeyDto(k: ApiKey, now = new Date()): ApiKeyDto {
  return {
    _id: k._id,
    name: k.name,
    prefix: k.prefix,
    scope: k.scope,
    mode: k.mode,
    expiresAt: k.expiresAt,
    lastUsedAt: k.lastUsedAt,
    revokedAt: k.revokedAt,
    status: k.revokedAt ? 'revoked' : k.expiresAt && k.expiresAt <= now ? 'expired' : 'active',
    createdAt: k.createdAt,
  };
}
