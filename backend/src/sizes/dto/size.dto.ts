import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ListQueryDto } from '../../common/pagination';
import { PaginatedResponse } from '../../common/responses';
import { Size } from '../entities/size.entity';

export const MAX_SIZE_INCHES = 200;

export class SizeDto {
  @ApiProperty() _id: string;
  @ApiProperty({ example: 'Adult front' }) name: string;
  @ApiProperty({ example: 11, description: 'Printed width of the design, inches' }) value: number;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export function toSizeDto(s: Size): SizeDto {
  return { _id: s._id, name: s.name, value: s.value, createdAt: s.createdAt, updatedAt: s.updatedAt };
}

export class SizeResponse {
  @ApiProperty({ type: SizeDto }) data: SizeDto;
  @ApiPropertyOptional() message?: string;
}

export class SizeListResponse extends PaginatedResponse(SizeDto) {}

const VALUE_MESSAGE = 'Value must be a positive number';

export class SizeBodyDto {
  @ApiProperty({ maxLength: 100 })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsNotEmpty({ message: 'Name is required' })
  @IsString({ message: 'Name is required' })
  @MaxLength(100, { message: 'Name must be at most 100 characters' })
  name: string;

  @ApiProperty({ description: 'Inches, greater than 0, at most 200 (3 decimals kept)', exclusiveMinimum: true, minimum: 0, maximum: MAX_SIZE_INCHES })
  @Transform(({ value }) => (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value))
  @IsNotEmpty({ message: 'Value is required' })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: VALUE_MESSAGE })
  @Min(0.001, { message: VALUE_MESSAGE })
  @Max(MAX_SIZE_INCHES, { message: `Value must be at most ${MAX_SIZE_INCHES} inches` })
  value: number;
}

export const SIZE_SORT_KEYS = ['name', 'value', 'createdAt'] as const;

export class SizeListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: SIZE_SORT_KEYS, default: 'createdAt' })
  @IsOptional()
  @IsIn(SIZE_SORT_KEYS, { message: `sortBy must be one of ${SIZE_SORT_KEYS.join(', ')}` })
  declare sortBy?: (typeof SIZE_SORT_KEYS)[number];
}
