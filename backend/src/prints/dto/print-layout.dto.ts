import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { SheetSettingsDto } from '../../sheet-settings/dto/sheet-settings.dto';
import { ProcessPrintDto } from './print.dto';

/** At most this many copies in an edited layout (the largest print: 500 items; copies are what the sheet holds). */
export const MAX_LAYOUT_COPIES = 20_000;

/** One copy where the seller put it. */
export class LayoutCopyInput {
  @ApiProperty({ description: 'The print item' })
  @IsString()
  itemId: string;

  @ApiProperty({ description: 'Which copy of the item, 0-based' })
  @IsInt()
  @Min(0)
  copy: number;

  @ApiProperty({ description: 'Sheet, 0-based' })
  @IsInt()
  @Min(0)
  sheet: number;

  @ApiProperty({ description: "Inches from the sheet's top-left corner to the art's top-left corner as placed" })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-1000)
  @Max(1000)
  x: number;

  @ApiProperty()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-1000)
  @Max(1000)
  y: number;

  @ApiProperty({ enum: [0, 90, 180, 270], description: 'Clockwise turn, degrees' })
  @IsIn([0, 90, 180, 270], { message: 'rotation must be 0, 90, 180 or 270' })
  rotation: 0 | 90 | 180 | 270;

  @ApiPropertyOptional({ description: 'Pinned: stays where it is when the rest is re-nested, and when the items change' })
  @IsOptional()
  @IsBoolean()
  pinned?: boolean;
}

/** Body of PUT layout, layout/check and layout/renest: the sheet settings (as for preview) and the copies. */
export class SaveLayoutDto extends ProcessPrintDto {
  @ApiProperty({
    type: [LayoutCopyInput],
    description:
      'PUT and check: every copy; renest: the pinned copies stay where they are, the others given (the current layout) are where the re-nest starts from ("shape" prints; copies a moved pin covers are laid out again); the pinned ones alone re-nest from scratch',
  })
  @IsArray()
  @ArrayMaxSize(MAX_LAYOUT_COPIES)
  @ValidateNested({ each: true })
  @Type(() => LayoutCopyInput)
  copies: LayoutCopyInput[];
}

export class LayoutCopyRefDto {
  @ApiProperty() itemId: string;
  @ApiProperty({ description: '0-based' }) copy: number;
}

export class LayoutProblemDto {
  @ApiProperty({ enum: ['unknown_copy', 'duplicate_copy', 'missing_copy', 'rotation', 'outside_margins', 'beyond_length', 'too_close', 'invalid'] })
  code: string;
  @ApiProperty({ type: [LayoutCopyRefDto], description: 'The copies concerned (two for too_close)' }) copies: LayoutCopyRefDto[];
  @ApiProperty() message: string;
}

export class LayoutCopyDto {
  @ApiProperty() itemId: string;
  @ApiProperty() imageId: string;
  @ApiProperty() copy: number;
  @ApiProperty() sheet: number;
  @ApiProperty({ description: 'Inches; exactly whole pixels at the DPI' }) x: number;
  @ApiProperty() y: number;
  @ApiProperty({ description: 'As placed (after rotation), inches' }) width: number;
  @ApiProperty() height: number;
  @ApiProperty({ enum: [0, 90, 180, 270] }) rotation: 0 | 90 | 180 | 270;
  @ApiProperty() pinned: boolean;
}

export class LayoutSheetDto {
  @ApiProperty() index: number;
  @ApiProperty({ description: 'Used length, inches (margins included)' }) length: number;
}

export class PrintLayoutDto {
  @ApiProperty({
    enum: ['saved', 'replaced', 'auto'],
    description:
      'saved: the edited layout, used as is; replaced: the items or settings changed since it was edited, these copies were laid out again around its pinned copies; auto: laid out by the engine (no edit, or a re-nest not saved yet)',
  })
  state: 'saved' | 'replaced' | 'auto';
  @ApiProperty({ nullable: true, type: String, description: 'What the seller should know about the state (replaced)' }) message: string | null;
  @ApiProperty({ type: SheetSettingsDto }) settings: SheetSettingsDto;
  @ApiProperty({ type: [LayoutSheetDto] }) sheets: LayoutSheetDto[];
  @ApiProperty({ type: [LayoutCopyDto] }) copies: LayoutCopyDto[];
  @ApiProperty({ nullable: true, type: String, description: 'When the edit was saved' }) savedAt: string | null;
}

export class PrintLayoutResponse {
  @ApiProperty({ type: PrintLayoutDto, nullable: true, description: 'null: the print has no edited layout' }) data: PrintLayoutDto | null;
  @ApiPropertyOptional() message?: string;
}

export class LayoutCheckDto {
  @ApiProperty({ type: [LayoutProblemDto], description: 'Empty when the layout can be saved' }) problems: LayoutProblemDto[];
}

export class LayoutCheckResponse {
  @ApiProperty({ type: LayoutCheckDto }) data: LayoutCheckDto;
}

export class LayoutShapeBoxDto {
  @ApiProperty() x: number;
  @ApiProperty() y: number;
  @ApiProperty() w: number;
  @ApiProperty() h: number;
}

export class DesignMaskDto {
  @ApiProperty({ description: 'Cells across the trimmed art' }) width: number;
  @ApiProperty({ description: 'Cells down the trimmed art' }) height: number;
  @ApiProperty({ description: 'Base64 of the rows, each ceil(width / 8) bytes, cell x at bit (x & 7) of byte x >> 3; a cell is ink when any pixel in it is' }) data: string;
}

export class LayoutShapeDesignDto {
  @ApiProperty() itemId: string;
  @ApiProperty({ description: 'Footprint (art and order label space), upright, printed pixels' }) w: number;
  @ApiProperty() h: number;
  @ApiProperty({ type: LayoutShapeBoxDto, description: 'The art within the footprint' }) art: LayoutShapeBoxDto;
  @ApiProperty({ type: LayoutShapeBoxDto, nullable: true, description: "The order label's space within the footprint, kept free like ink" }) label: LayoutShapeBoxDto | null;
  @ApiProperty({ type: DesignMaskDto, nullable: true, description: 'Ink of the trimmed art ("shape" prints); null: the whole art box counts' }) mask: DesignMaskDto | null;
  @ApiProperty({ description: "Pixels the rendered ink may reach beyond the mask's cells" }) reach: number;
}

export class LayoutShapesDto {
  @ApiProperty({ description: "The engine's grid cell for the gap check, sheet pixels (before its memory bound for very large designs)" }) cellPx: number;
  @ApiProperty() dpi: number;
  @ApiProperty({ description: 'Whole sheet pixels' }) gap: number;
  @ApiProperty({ description: 'Whole sheet pixels; the grid starts at the margin' }) margin: number;
  @ApiProperty() rotate: boolean;
  @ApiProperty({ type: [LayoutShapeDesignDto] }) designs: LayoutShapeDesignDto[];
}

export class LayoutShapesResponse {
  @ApiProperty({ type: LayoutShapesDto }) data: LayoutShapesDto;
}
