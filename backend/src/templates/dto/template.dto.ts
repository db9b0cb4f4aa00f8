import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsNotEmpty, IsNumber, IsOptional, IsString, IsUUID, Max, MaxLength, Min, ValidateIf, ValidateNested,
} from 'class-validator';
import { ListQueryDto } from '../../common/pagination';
import { PaginatedResponse } from '../../common/responses';
import { SheetSettingsDto, SheetSettingsInput } from '../../sheet-settings/dto/sheet-settings.dto';
import { SheetTemplate } from '../entities/sheet-template.entity';

/** At most this many slots in a template (a print has at most 500 items; a template's slots are copies). */
export const MAX_TEMPLATE_SLOTS = 500;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class TemplateSlotDto {
  @ApiProperty({ description: '0-based sheet of the template' })
  @IsInt({ message: 'sheet must be a whole number' })
  @Min(0)
  @Max(99)
  sheet: number;

  @ApiProperty({ description: "Inches from the sheet's top-left corner to the slot's top-left corner" })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1000)
  x: number;

  @ApiProperty()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1000)
  y: number;

  @ApiProperty({ description: 'The slot as placed (after the turn), inches', exclusiveMinimum: true, minimum: 0 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.01, { message: 'width must be greater than 0' })
  @Max(1000)
  width: number;

  @ApiProperty({ exclusiveMinimum: true, minimum: 0 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.01, { message: 'height must be greater than 0' })
  @Max(1000)
  height: number;

  @ApiProperty({ enum: [0, 90, 180, 270], description: 'Clockwise turn of the copy in the slot, degrees' })
  @IsIn([0, 90, 180, 270], { message: 'rotation must be 0, 90, 180 or 270' })
  rotation: 0 | 90 | 180 | 270;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, description: 'What went there (the design name): a hint when filling the slot' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  label?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100, description: 'The size it was printed at (name)' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  sizeName?: string | null;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'The printed width of that size, inches: a new print picks your size of this width by default' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.001)
  @Max(1000)
  sizeValue?: number | null;
}

export class TemplateDto {
  @ApiProperty() _id: string;
  @ApiProperty({ example: 'Team set: front, back, sleeve' }) name: string;
  @ApiProperty({ type: SheetSettingsDto, description: 'The sheet settings a print made from the template uses (formats: chosen when processing)' }) settings: SheetSettingsDto;
  @ApiProperty({ type: [TemplateSlotDto], description: 'By sheet, top to bottom, left to right; numbered from 1 in messages' }) slots: TemplateSlotDto[];
  @ApiProperty({ description: 'How many sheets the slots cover' }) sheets: number;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export function toTemplateDto(t: SheetTemplate): TemplateDto {
  return {
    _id: t._id,
    name: t.name,
    settings: { ...t.settings, formats: ['png'] },
    slots: t.slots.map((s) => ({ ...s })),
    sheets: Math.max(0, ...t.slots.map((s) => s.sheet + 1)),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

export class TemplateResponse {
  @ApiProperty({ type: TemplateDto }) data: TemplateDto;
  @ApiPropertyOptional() message?: string;
}

export class TemplateListResponse extends PaginatedResponse(TemplateDto) {}

export const TEMPLATE_SORT_KEYS = ['name', 'createdAt'] as const;

export class TemplateListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: TEMPLATE_SORT_KEYS, default: 'createdAt' })
  @IsOptional()
  @IsIn(TEMPLATE_SORT_KEYS, { message: `sortBy must be one of ${TEMPLATE_SORT_KEYS.join(', ')}` })
  declare sortBy?: (typeof TEMPLATE_SORT_KEYS)[number];
}

class TemplateName {
  @ApiProperty({ maxLength: 100 })
  @Transform(trim)
  @IsNotEmpty({ message: 'Name is required' })
  @IsString({ message: 'Name is required' })
  @MaxLength(100, { message: 'Name must be at most 100 characters' })
  name: string;
}

/**
 * A template from one of your prints (`printId`: the layout its detail shows — the saved
 * edit, the rendered layout of a Completed print, or the engine's), or from explicit
 * `settings` and `slots` (the layout editor's current arrangement).
 */
export class CreateTemplateDto extends TemplateName {
  @ApiPropertyOptional({ format: 'uuid', description: 'Take the layout of this print (give either printId, or slots)' })
  @ValidateIf((o: CreateTemplateDto) => o.printId !== undefined || o.slots === undefined)
  @IsUUID('all', { message: 'Give printId, or slots' })
  printId?: string;

  @ApiPropertyOptional({ description: "With printId: only this sheet (0-based) of the print's layout; all sheets when absent" })
  @IsOptional()
  @IsInt({ message: 'sheet must be a whole number' })
  @Min(0)
  sheet?: number;

  @ApiPropertyOptional({ type: SheetSettingsInput, description: 'With slots: the sheet settings (on top of your saved ones)' })
  @IsOptional()
  @ValidateNested()
  @Type(() => SheetSettingsInput)
  settings?: SheetSettingsInput;

  @ApiPropertyOptional({ type: [TemplateSlotDto], description: 'The slots, when no printId is given' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1, { message: 'A template needs at least one slot' })
  @ArrayMaxSize(MAX_TEMPLATE_SLOTS, { message: `A template can have at most ${MAX_TEMPLATE_SLOTS} slots` })
  @ValidateNested({ each: true })
  @Type(() => TemplateSlotDto)
  slots?: TemplateSlotDto[];
}

export class RenameTemplateDto extends TemplateName {}

/** The artwork for one slot: an image of your library, at a size (default: your size of the slot's printed width). */
export class TemplateFillInput {
  @ApiProperty({ description: 'The slot, 0-based (slot 1 in messages is 0)' })
  @IsInt({ message: 'slot must be a whole number' })
  @Min(0)
  slot: number;

  @ApiProperty({ format: 'uuid' })
  @IsNotEmpty({ message: 'Image is required' })
  @IsUUID('all', { message: 'Image not found' })
  imageId: string;

  @ApiPropertyOptional({ format: 'uuid', description: "Default: your size whose width is the slot's sizeValue" })
  @IsOptional()
  @IsUUID('all', { message: 'Size not found' })
  sizeId?: string;
}

export class CreatePrintFromTemplateDto {
  @ApiProperty({ type: [TemplateFillInput], description: 'The slots to fill (each at most once; slots left out stay empty)' })
  @IsArray({ message: 'Choose an image for at least one slot' })
  @ArrayMinSize(1, { message: 'Choose an image for at least one slot' })
  @ArrayMaxSize(MAX_TEMPLATE_SLOTS)
  @ValidateNested({ each: true })
  @Type(() => TemplateFillInput)
  items: TemplateFillInput[];
}
