import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsBoolean, IsIn, IsInt, IsNotEmpty, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PaginatedResponse } from '../../common/responses';
import { Nesting, NESTING_VALUES, PRINT_FILE_FORMATS, PrintFileFormat } from '../entities/sheet-settings.entity';

/** Every field optional: a PUT changes what it sends; a process/preview override likewise. */
export class SheetSettingsInput {
  @ApiPropertyOptional({ description: 'Film width, inches', minimum: 1, maximum: 120 })
  @IsOptional()
  @IsNumber({}, { message: 'Sheet width must be a number' })
  @Min(1, { message: 'Sheet width must be at least 1 in' })
  @Max(120, { message: 'Sheet width must be at most 120 in' })
  width?: number;

  @ApiPropertyOptional({ description: 'Maximum sheet length, inches', minimum: 1, maximum: 1000 })
  @IsOptional()
  @IsNumber({}, { message: 'Maximum length must be a number' })
  @Min(1, { message: 'Maximum length must be at least 1 in' })
  @Max(1000, { message: 'Maximum length must be at most 1000 in' })
  maxLength?: number;

  @ApiPropertyOptional({ description: 'Gap between designs, inches', minimum: 0, maximum: 5 })
  @IsOptional()
  @IsNumber({}, { message: 'Gap must be a number' })
  @Min(0, { message: 'Gap must be 0 or more' })
  @Max(5, { message: 'Gap must be at most 5 in' })
  gap?: number;

  @ApiPropertyOptional({ description: 'Empty border at every edge, inches', minimum: 0, maximum: 5 })
  @IsOptional()
  @IsNumber({}, { message: 'Margin must be a number' })
  @Min(0, { message: 'Margin must be 0 or more' })
  @Max(5, { message: 'Margin must be at most 5 in' })
  margin?: number;

  @ApiPropertyOptional({ minimum: 72, maximum: 1200 })
  @IsOptional()
  @IsInt({ message: 'DPI must be a whole number' })
  @Min(72, { message: 'DPI must be at least 72' })
  @Max(1200, { message: 'DPI must be at most 1200' })
  dpi?: number;

  @ApiPropertyOptional({ description: 'Allow 90° rotation' })
  @IsOptional()
  @IsBoolean({ message: 'Rotate must be true or false' })
  rotate?: boolean;

  @ApiPropertyOptional({ enum: NESTING_VALUES, description: '"shape": nest copies by their ink outline (true shape); "box": as rectangles' })
  @IsOptional()
  @IsIn(NESTING_VALUES, { message: 'Nesting must be "shape" (true shape) or "box" (rectangles)' })
  nesting?: Nesting;

  @ApiPropertyOptional({ enum: PRINT_FILE_FORMATS, isArray: true, description: 'Print files per sheet: ["png"], ["pdf"] or ["png", "pdf"]' })
  @IsOptional()
  @IsArray({ message: 'Choose PNG, PDF or both as file formats' })
  @ArrayNotEmpty({ message: 'Choose at least one file format (PNG or PDF)' })
  @ArrayMaxSize(2, { message: 'Choose PNG, PDF or both as file formats' })
  @IsIn(PRINT_FILE_FORMATS, { each: true, message: 'File formats must be "png" or "pdf"' })
  formats?: PrintFileFormat[];

  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    description: 'Order labels ("#5012 · 2/3") beside each copy of an order\'s item; null: on for batches, off for other prints',
  })
  @IsOptional()
  @IsBoolean({ message: 'Order labels must be true, false or null' })
  orderLabels?: boolean | null;
}

export class SheetSettingsDto {
  @ApiProperty() width: number;
  @ApiProperty() maxLength: number;
  @ApiProperty() gap: number;
  @ApiProperty() margin: number;
  @ApiProperty() dpi: number;
  @ApiProperty() rotate: boolean;
  @ApiProperty({ enum: NESTING_VALUES }) nesting: Nesting;
  @ApiProperty({ enum: PRINT_FILE_FORMATS, isArray: true, description: 'Print files per sheet (PNG first)' }) formats: PrintFileFormat[];
  @ApiPropertyOptional({ type: Boolean, nullable: true, description: 'Order labels; null: on for batches, off for other prints' }) orderLabels?: boolean | null;
}

export class SheetSettingsResponse {
  @ApiProperty({ type: SheetSettingsDto }) data: SheetSettingsDto;
  @ApiPropertyOptional() message?: string;
}

export class CreatePresetDto extends SheetSettingsInput {
  @ApiProperty({ maxLength: 100 })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsNotEmpty({ message: 'Name is required' })
  @IsString({ message: 'Name is required' })
  @MaxLength(100, { message: 'Name must be at most 100 characters' })
  name: string;
}

export class UpdatePresetDto extends SheetSettingsInput {
  @ApiPropertyOptional({ maxLength: 100 })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsOptional()
  @IsNotEmpty({ message: 'Name is required' })
  @IsString({ message: 'Name is required' })
  @MaxLength(100, { message: 'Name must be at most 100 characters' })
  name?: string;
}

export class SheetPresetDto extends SheetSettingsDto {
  @ApiProperty() _id: string;
  @ApiProperty() name: string;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class SheetPresetResponse {
  @ApiProperty({ type: SheetPresetDto }) data: SheetPresetDto;
  @ApiPropertyOptional() message?: string;
}

export class SheetPresetListResponse extends PaginatedResponse(SheetPresetDto) {}
