import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { CursorQueryDto } from '../../common/pagination';
import { CursorPaginatedResponse } from '../../common/responses';
import { Image, ImageStatus } from '../entities/image.entity';
import { ImageCategory } from '../entities/image-category.entity';

export const imageFilePath = (id: string) => `/api/images/${id}/file`;
export const imagePreviewPath = (id: string) => `/api/images/${id}/preview`;

export class ImageFileDto {
  @ApiProperty({ example: '/api/images/0b7c…/file', description: 'Loads with the session cookie; owner or admin only' })
  path: string;
  @ApiProperty({ example: 'tiger.png', description: 'The name the file was uploaded with' })
  name: string;
}

export class ImagePreviewFileDto {
  @ApiProperty({ example: '/api/images/0b7c…/preview', description: 'WebP thumbnail, long side 512 px' })
  path: string;
}

export class ImageCategoryRefDto {
  @ApiProperty() _id: string;
  @ApiProperty() name: string;
}

export class TrimDto {
  @ApiProperty() left: number;
  @ApiProperty() top: number;
  @ApiProperty() width: number;
  @ApiProperty() height: number;
}

export class ImageDto {
  @ApiProperty() _id: string;
  @ApiProperty({ description: 'Display name, without the extension' }) name: string;
  @ApiProperty({ type: ImageFileDto }) file: ImageFileDto;
  @ApiProperty({ type: ImagePreviewFileDto, nullable: true, description: 'null until the preview job has run' })
  previewFile: ImagePreviewFileDto | null;
  @ApiProperty({ type: ImageCategoryRefDto, nullable: true }) imageCategory: ImageCategoryRefDto | null;
  @ApiProperty({ minimum: 0, maximum: 5, multipleOf: 0.5 }) score: number;
  @ApiProperty({ description: 'Copies of this image in completed prints' }) usedInPrint: number;
  @ApiProperty({ enum: ['image/png', 'image/jpeg', 'image/svg+xml'] }) mime: string;
  @ApiProperty() bytes: number;
  @ApiProperty({ nullable: true, type: Number, description: 'Pixels (SVG: its own units, i.e. pixels at 72 dpi)' }) width: number | null;
  @ApiProperty({ nullable: true, type: Number }) height: number | null;
  @ApiProperty({ type: TrimDto, nullable: true, description: 'Visible art (transparent edges trimmed), source pixels; null until processed or when fully transparent' })
  trim: TrimDto | null;
  @ApiProperty({ enum: ImageStatus }) status: ImageStatus;
  @ApiProperty({ nullable: true, type: String }) error: string | null;
  @ApiProperty({ nullable: true, type: Date, description: 'Set when deleted but kept for completed prints' }) deletedAt: Date | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export function toImageDto(i: Image, category?: ImageCategory | null): ImageDto {
  const cat = category === undefined ? i.category : category;
  return {
    _id: i._id,
    name: i.name,
    file: { path: imageFilePath(i._id), name: i.originalName },
    previewFile: i.previewKey ? { path: imagePreviewPath(i._id) } : null,
    imageCategory: cat ? { _id: cat._id, name: cat.name } : null,
    score: i.score,
    usedInPrint: i.usedInPrint,
    mime: i.mime,
    bytes: i.bytes,
    width: i.width,
    height: i.height,
    trim: i.trim,
    status: i.status,
    error: i.error,
    deletedAt: i.deletedAt,
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
  };
}

export class ImageResponse {
  @ApiProperty({ type: ImageDto }) data: ImageDto;
  @ApiPropertyOptional() message?: string;
}

export class ImageListResponse extends CursorPaginatedResponse(ImageDto) {}

export class UploadErrorDto {
  @ApiProperty({ description: 'The file name as uploaded' }) name: string;
  @ApiProperty() message: string;
}

export class UploadResponse {
  @ApiProperty({ type: [ImageDto] }) data: ImageDto[];
  @ApiProperty({ type: [UploadErrorDto] }) errors: UploadErrorDto[];
  @ApiPropertyOptional() message?: string;
}

export class ImagesResponse {
  @ApiProperty({ type: [ImageDto] }) data: ImageDto[];
  @ApiPropertyOptional() message?: string;
}

export class BulkDeleteResult {
  @ApiProperty({ type: [String], description: 'Removed with their files' }) deleted: string[];
  @ApiProperty({ type: [String], description: 'Hidden from the library but kept for completed prints' }) kept: string[];
}

export class BulkDeleteResponse {
  @ApiProperty({ type: BulkDeleteResult }) data: BulkDeleteResult;
  @ApiProperty() message: string;
}

/** '' and 'null' (multipart has no null) mean "no category". */
const nullableId = ({ value }: { value: unknown }) => (value === '' || value === 'null' || value === undefined ? null : value);

@ValidatorConstraint({ name: 'halfStep' })
class HalfStep implements ValidatorConstraintInterface {
  validate(v: unknown) {
    return typeof v === 'number' && Number.isInteger(v * 2);
  }
}

const SCORE_MESSAGE = 'Score must be between 0 and 5 in steps of 0.5';
const toNumber = ({ value }: { value: unknown }) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value);

export class UploadImagesDto {
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String })
  @Transform(nullableId)
  @IsOptional()
  @IsUUID('all', { message: 'Category not found' })
  imageCategoryId?: string | null;

  @ApiPropertyOptional({ minimum: 0, maximum: 5, multipleOf: 0.5, default: 0 })
  @Transform(toNumber)
  @IsOptional()
  @IsNumber({}, { message: SCORE_MESSAGE })
  @Min(0, { message: SCORE_MESSAGE })
  @Max(5, { message: SCORE_MESSAGE })
  @Validate(HalfStep, { message: SCORE_MESSAGE })
  score?: number;
}

export class UpdateImageDto {
  @ApiProperty({ maxLength: 200 })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsNotEmpty({ message: 'Name is required' })
  @IsString({ message: 'Name is required' })
  @MaxLength(200, { message: 'Name must be at most 200 characters' })
  name: string;

  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String, description: 'null removes the category; omitted leaves it' })
  @Transform(({ value }) => (value === '' ? null : value))
  @IsOptional()
  @IsUUID('all', { message: 'Category not found' })
  imageCategoryId?: string | null;

  @ApiPropertyOptional({ minimum: 0, maximum: 5, multipleOf: 0.5 })
  @Transform(toNumber)
  @IsOptional()
  @IsNumber({}, { message: SCORE_MESSAGE })
  @Min(0, { message: SCORE_MESSAGE })
  @Max(5, { message: SCORE_MESSAGE })
  @Validate(HalfStep, { message: SCORE_MESSAGE })
  score?: number;
}

export class BulkImageCategoryDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'Image not found' })
  _id: string;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  @Transform(({ value }) => (value === '' || value === undefined ? null : value))
  @IsOptional()
  @IsUUID('all', { message: 'Category not found' })
  imageCategoryId: string | null;
}

export class BulkUpdateImagesDto {
  @ApiProperty({ type: [BulkImageCategoryDto] })
  @IsArray({ message: 'Select at least one image' })
  @ArrayNotEmpty({ message: 'Select at least one image' })
  @ArrayMaxSize(1000, { message: 'At most 1000 images at once' })
  @ValidateNested({ each: true })
  @Type(() => BulkImageCategoryDto)
  images: BulkImageCategoryDto[];
}

export class BulkDeleteImagesDto {
  @ApiProperty({ type: [String], format: 'uuid' })
  @IsArray({ message: 'Select at least one image' })
  @ArrayNotEmpty({ message: 'Select at least one image' })
  @ArrayMaxSize(1000, { message: 'At most 1000 images at once' })
  @IsUUID('all', { each: true, message: 'Image not found' })
  ids: string[];
}

export const IMAGE_SORT_KEYS = ['name', 'createdAt', 'score', 'usedInPrint'] as const;
export type ImageSortKey = (typeof IMAGE_SORT_KEYS)[number];

export class ImageListQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ enum: IMAGE_SORT_KEYS, default: 'createdAt' })
  @IsOptional()
  @IsIn(IMAGE_SORT_KEYS, { message: `sortBy must be one of ${IMAGE_SORT_KEYS.join(', ')}` })
  declare sortBy?: ImageSortKey;

  @ApiPropertyOptional({ description: "A category id, or 'none' for images without a category" })
  @IsOptional()
  @IsString()
  imageCategory?: string;
}
