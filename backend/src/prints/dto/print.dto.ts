import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDateString, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, IsUUID, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { IsStringMap } from '../../common/string-map.validator';
import { CursorQueryDto } from '../../common/pagination';
import { SheetSettingsDto, SheetSettingsInput } from '../../sheet-settings/dto/sheet-settings.dto';
import { PRINT_FILE_FORMATS, PrintFileFormat } from '../../sheet-settings/entities/sheet-settings.entity';
import { CursorPaginatedResponse } from '../../common/responses';
import { PrintStatus, PrintType } from '../entities/print.entity';

export const MAX_QUANTITY = 10_000;

export class PrintItemInput {
  @ApiProperty({ format: 'uuid' })
  @IsNotEmpty({ message: 'Image is required' })
  @IsUUID('all', { message: 'Image not found' })
  imageId: string;

  @ApiProperty({ format: 'uuid' })
  @IsNotEmpty({ message: 'Size is required' })
  @IsUUID('all', { message: 'Size not found' })
  sizeId: string;

  @ApiProperty({ minimum: 1, maximum: MAX_QUANTITY })
  @IsNotEmpty({ message: 'Quantity is required' })
  @IsInt({ message: 'Quantity must be a whole number of at least 1' })
  @Min(1, { message: 'Quantity must be a whole number of at least 1' })
  @Max(MAX_QUANTITY, { message: `Quantity must be at most ${MAX_QUANTITY}` })
  quantity: number;
}

export class CreatePrintDto {
  @ApiProperty({ type: [PrintItemInput] })
  @IsArray({ message: 'Add at least one item' })
  @ArrayMinSize(1, { message: 'Add at least one item' })
  @ArrayMaxSize(500, { message: 'A print can have at most 500 items' })
  @ValidateNested({ each: true })
  @Type(() => PrintItemInput)
  printItems: PrintItemInput[];

  @ApiPropertyOptional({ maxLength: 200, example: 'order-5012', description: 'Your own reference (an order number…): unique among your prints; GET /api/print?externalId= finds it' })
  @IsOptional()
  @IsString({ message: 'externalId must be text' })
  @Matches(/^[\x21-\x7e]{1,200}$/, { message: 'externalId must be 1–200 visible ASCII characters without spaces' })
  externalId?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string', maxLength: 500 }, maxProperties: 20, example: { channel: 'shopify', batch: 'B-77' }, description: 'Up to 20 string pairs of yours (keys 1–40 characters, values up to 500), returned with the print and in its webhook events' })
  @IsOptional()
  @IsStringMap({ maxKeys: 20, maxKeyLength: 40, maxValueLength: 500 })
  metadata?: Record<string, string>;
}

/** Any subset; a changed image/size that equals another item's merges into it. */
export class UpdatePrintItemDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all', { message: 'Image not found' })
  imageId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all', { message: 'Size not found' })
  sizeId?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_QUANTITY })
  @IsOptional()
  @IsInt({ message: 'Quantity must be a whole number of at least 1' })
  @Min(1, { message: 'Quantity must be a whole number of at least 1' })
  @Max(MAX_QUANTITY, { message: `Quantity must be at most ${MAX_QUANTITY}` })
  quantity?: number;
}

/** Body of preview and process: which sheet settings to use (all optional). */
export class ProcessPrintDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Start from this preset instead of the saved sheet settings' })
  @IsOptional()
  @IsUUID('all', { message: 'Sheet preset not found' })
  presetId?: string;

  @ApiPropertyOptional({ type: SheetSettingsInput, description: 'One-off changes on top of the settings/preset' })
  @IsOptional()
  @ValidateNested()
  @Type(() => SheetSettingsInput)
  settings?: SheetSettingsInput;
}

/** Preview of items not saved as a print yet (manual create). */
export class PreviewDraftDto extends ProcessPrintDto {
  @ApiProperty({ type: [PrintItemInput] })
  @IsArray({ message: 'Add at least one item' })
  @ArrayMinSize(1, { message: 'Add at least one item' })
  @ArrayMaxSize(500, { message: 'A print can have at most 500 items' })
  @ValidateNested({ each: true })
  @Type(() => PrintItemInput)
  printItems: PrintItemInput[];
}

export const PRINT_SORT_KEYS = ['createdAt', 'printedAt', 'status', 'type', 'updatedAt'] as const;

export class PrintListQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ description: 'Only the print with this externalId of yours' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  externalId?: string;

  @ApiPropertyOptional({ enum: PRINT_SORT_KEYS, default: 'createdAt' })
  @IsOptional()
  @IsIn(PRINT_SORT_KEYS, { message: `sortBy must be one of ${PRINT_SORT_KEYS.join(', ')}` })
  declare sortBy?: (typeof PRINT_SORT_KEYS)[number];

  @ApiPropertyOptional({ enum: PrintStatus })
  @IsOptional()
  @IsIn(Object.values(PrintStatus), { message: `status must be one of ${Object.values(PrintStatus).join(', ')}` })
  status?: PrintStatus;

  @ApiPropertyOptional({ enum: PrintType })
  @IsOptional()
  @IsIn(Object.values(PrintType), { message: 'type must be Manual, Etsy or WooCommerce' })
  type?: PrintType;

  @ApiPropertyOptional({ description: 'ISO date or date-time; a bare date means the start of that day (UTC)' })
  @IsOptional()
  @IsDateString({}, { message: 'startDate must be a date' })
  startDate?: string;

  @ApiPropertyOptional({ description: 'ISO date or date-time; a bare date includes that whole day (UTC)' })
  @IsOptional()
  @IsDateString({}, { message: 'endDate must be a date' })
  endDate?: string;

  @ApiPropertyOptional({ enum: ['createdAt', 'printedAt'], default: 'createdAt' })
  @IsOptional()
  @Transform(({ value }) => (value === '' ? undefined : value))
  @IsIn(['createdAt', 'printedAt'], { message: 'dateType must be createdAt or printedAt' })
  dateType?: 'createdAt' | 'printedAt';
}

// ---- responses ----

export class FileRefDto {
  @ApiProperty() path: string;
  @ApiPropertyOptional() name?: string;
}

export class TrimDto {
  @ApiProperty() left: number;
  @ApiProperty() top: number;
  @ApiProperty() width: number;
  @ApiProperty() height: number;
}

export class PrintImageDto {
  @ApiProperty() _id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: FileRefDto }) file: FileRefDto;
  @ApiProperty({ type: FileRefDto, nullable: true }) previewFile: FileRefDto | null;
  @ApiProperty({ nullable: true, type: Number }) width: number | null;
  @ApiProperty({ nullable: true, type: Number }) height: number | null;
  @ApiProperty({ type: TrimDto, nullable: true }) trim: TrimDto | null;
  @ApiProperty({ description: 'processing | ready | error' }) status: string;
  @ApiProperty({ description: 'True when the image was deleted from the library' }) deleted: boolean;
}

export class PrintSizeDto {
  @ApiProperty() _id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Printed width, inches' }) value: number;
}

export class PrintItemOrderLineDto {
  @ApiProperty({ description: 'The order (GET /api/orders?id=…)' }) orderId: string;
  @ApiProperty({ description: 'The shop\'s order number' }) orderNumber: string;
  @ApiProperty() buyerName: string;
  @ApiProperty({ description: 'The order line\'s title in the shop' }) title: string;
}

export class PrintItemDto {
  @ApiProperty() _id: string;
  @ApiProperty({ nullable: true, type: String }) imageId: string | null;
  @ApiProperty({ nullable: true, type: PrintImageDto }) image: PrintImageDto | null;
  @ApiProperty({ nullable: true, type: String }) sizeId: string | null;
  @ApiProperty({ nullable: true, type: PrintSizeDto }) size: PrintSizeDto | null;
  @ApiProperty() quantity: number;
  @ApiProperty({ nullable: true, type: String }) orderItemId: string | null;
  @ApiProperty({ nullable: true, type: PrintItemOrderLineDto, description: 'The shop order line this item came from; null for items added by hand (or when the shop\'s order was removed)' })
  orderLine: PrintItemOrderLineDto | null;
}

export class PrintFileDto {
  @ApiProperty({ enum: PRINT_FILE_FORMATS, description: 'File format: "png" or "pdf"' }) format: PrintFileFormat;
  @ApiProperty({ description: 'Sheet number, 1-based' }) sheet: number;
  @ApiProperty({ description: 'Download URL of the sheet file in this format (owner or admin)' }) path: string;
  @ApiProperty({ description: 'URL of a small WebP preview of the sheet' }) previewPath: string;
  @ApiProperty() widthPx: number;
  @ApiProperty() heightPx: number;
  @ApiProperty() lengthIn: number;
  @ApiProperty() bytes: number;
}

export class PrintDto {
  @ApiProperty() _id: string;
  @ApiProperty({ enum: PrintType }) type: PrintType;
  @ApiProperty({ enum: PrintStatus }) status: PrintStatus;
  @ApiProperty({ nullable: true, type: Date }) printedAt: Date | null;
  @ApiProperty({ type: [PrintFileDto], description: 'One entry per sheet and format (every PNG, then every PDF); empty until Completed and after the files are deleted' })
  fileId: PrintFileDto[];
  @ApiProperty({ type: [PrintItemDto] }) printItems: PrintItemDto[];
  @ApiProperty({ description: 'Credits: the sum of the quantities (charged when processing starts); 0 for a test print' }) creditCost: number;
  @ApiProperty({ description: 'Made with a test API key: free, its sheets watermarked TEST, its events sent to test webhooks only (docs/api.md "Test keys")' })
  test: boolean;
  @ApiProperty({ nullable: true, type: String }) error: string | null;
  @ApiProperty({ nullable: true, type: SheetSettingsDto, description: 'Sheet settings of the last processing' }) settings: SheetSettingsDto | null;
  @ApiProperty({ nullable: true, type: Date, description: 'When the sheet files are (or were) deleted by retention' }) filesExpireAt: Date | null;
  @ApiProperty({ nullable: true, type: Date }) filesDeletedAt: Date | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
  @ApiProperty({ type: String, nullable: true, description: 'Your own reference, as given when the print was created' }) externalId: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'Your string pairs, as given when the print was created' }) metadata: Record<string, string>;
}

export class PrintResponse {
  @ApiProperty({ type: PrintDto }) data: PrintDto;
  @ApiPropertyOptional() message?: string;
}

export class PrintListResponse extends CursorPaginatedResponse(PrintDto) {}

export class LabelBoxDto {
  @ApiProperty({ description: 'Inches from the sheet top-left' }) x: number;
  @ApiProperty() y: number;
  @ApiProperty({ description: 'inches' }) width: number;
  @ApiProperty() height: number;
}

export class PreviewPlacementDto {
  @ApiProperty() itemId: string;
  @ApiProperty() imageId: string;
  @ApiProperty({ description: 'Which copy of the item, 0-based' }) copy: number;
  @ApiProperty({ description: 'A copy pinned in the edited layout' }) pinned: boolean;
  @ApiProperty({ description: 'Inches from the sheet top-left' }) x: number;
  @ApiProperty() y: number;
  @ApiProperty({ description: 'As placed (after rotation), inches' }) width: number;
  @ApiProperty() height: number;
  @ApiProperty({ description: 'Turned by 90° or 270° (width and height swapped)' }) rotated: boolean;
  @ApiProperty({ enum: [0, 90, 180, 270], description: 'Clockwise turn of the design, degrees' }) rotation: 0 | 90 | 180 | 270;
  @ApiPropertyOptional({ type: LabelBoxDto, description: "The order label's reserved space beside the copy (prints with order labels)" }) label?: LabelBoxDto;
}

export class ShapeSavingDto {
  @ApiProperty({ description: 'Film length of the same order packed as rectangles, inches' }) boxLength: number;
  @ApiProperty({ description: 'Film the true-shape layout saves against rectangles, inches (0: none)' }) savedLength: number;
  @ApiProperty({ description: 'savedLength / boxLength, 0..1' }) savedFraction: number;
}

export class PreviewSheetDto {
  @ApiProperty() index: number;
  @ApiProperty({ description: 'inches' }) width: number;
  @ApiProperty({ description: 'Used length, inches' }) length: number;
  @ApiProperty() widthPx: number;
  @ApiProperty() lengthPx: number;
  @ApiProperty() copies: number;
  @ApiProperty({ type: [PreviewPlacementDto] }) placements: PreviewPlacementDto[];
}

export class PreviewItemDto {
  @ApiProperty() itemId: string;
  @ApiProperty() imageId: string;
  @ApiProperty() quantity: number;
  @ApiProperty() printedWidth: number;
  @ApiProperty() printedHeight: number;
  @ApiProperty({ nullable: true, type: Number, description: 'Source pixels per printed inch; null for SVG' }) effectiveDpi: number | null;
  @ApiProperty({ description: 'effectiveDpi below 150' }) lowResolution: boolean;
}

export class PreviewWarningDto {
  @ApiProperty() itemId: string;
  @ApiProperty({ enum: ['low_resolution', 'image_missing', 'size_missing', 'image_not_ready', 'too_large'] }) code: string;
  @ApiProperty() message: string;
}

export class PrintPreviewDto {
  @ApiProperty({ description: 'True when this is the stored layout a Completed print was rendered with (its settings, not the body)' })
  rendered: boolean;
  @ApiProperty({
    enum: ['auto', 'saved', 'replaced'],
    description:
      "auto: the engine's layout; saved: the seller's edited layout (PUT /api/print/{id}/layout), which processing prints as is; replaced: the items or settings changed since the edit, so the copies were laid out again around its pinned copies (layoutMessage says so)",
  })
  layoutState: 'auto' | 'saved' | 'replaced';
  @ApiProperty({ nullable: true, type: String, description: 'For the seller: why the edited layout was replaced' }) layoutMessage: string | null;
  @ApiProperty({ type: SheetSettingsDto }) settings: SheetSettingsDto;
  @ApiProperty({ type: [PreviewSheetDto] }) sheets: PreviewSheetDto[];
  @ApiProperty({ description: 'inches over all sheets' }) totalLength: number;
  @ApiProperty({
    type: ShapeSavingDto,
    nullable: true,
    description: 'With nesting "shape": the film saved against rectangles. Null for "box" and for the stored layout of a Completed print',
  })
  shapeSaving: ShapeSavingDto | null;
  @ApiProperty({ description: 'Printed design area / film area, 0..1' }) density: number;
  @ApiProperty({ description: 'Copies laid out (items with a blocking warning are left out)' }) copies: number;
  @ApiProperty({ description: 'Credits processing would cost: one per copy laid out; for a Completed print what its layout holds' }) creditCost: number;
  @ApiProperty({ type: [PreviewItemDto] }) items: PreviewItemDto[];
  @ApiProperty({ type: [PreviewWarningDto] }) warnings: PreviewWarningDto[];
  @ApiProperty({ description: 'False when an item blocks processing (missing image/size, too large)' }) canProcess: boolean;
}

export class PrintPreviewResponse {
  @ApiProperty({ type: PrintPreviewDto }) data: PrintPreviewDto;
}
