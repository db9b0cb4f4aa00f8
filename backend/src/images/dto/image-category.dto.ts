import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { PaginatedResponse } from '../../common/responses';

export class ImageCategoryDto {
  @ApiProperty() _id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Images in the library (deleted ones not counted)' }) imageCount: number;
  @ApiProperty() createdAt: Date;
}

export class ImageCategoryResponse {
  @ApiProperty({ type: ImageCategoryDto }) data: ImageCategoryDto;
  @ApiPropertyOptional() message?: string;
}

export class ImageCategoryListResponse extends PaginatedResponse(ImageCategoryDto) {}

export class ImageCategoryBodyDto {
  @ApiProperty({ maxLength: 100 })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsNotEmpty({ message: 'Name is required' })
  @IsString({ message: 'Name is required' })
  @MaxLength(100, { message: 'Name must be at most 100 characters' })
  name: string;
}
