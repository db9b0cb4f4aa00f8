import { Body, Controller, Delete, Get, NotFoundException, Param, ParseUUIDPipe, Post, Put, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../auth/auth.decorators';
import { ListQueryDto } from '../common/pagination';
import { MessageResponse } from '../common/responses';
import { User } from '../users/entities/user.entity';
import { ImageCategoryBodyDto, ImageCategoryListResponse, ImageCategoryResponse } from './dto/image-category.dto';
import { ImageCategoriesService } from './image-categories.service';
import { Idempotent } from '../idempotency/idempotency.decorators';

const uuid = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('Category not found') });

@ApiTags('image-categories')
@ApiCookieAuth()
@Controller('image-categories')
export class ImageCategoriesController {
  constructor(private readonly categories: ImageCategoriesService) {}

  @Get()
  @ApiOkResponse({ type: ImageCategoryListResponse, description: 'All categories by name (default limit 999)' })
  listImageCategories(@CurrentUser() user: User, @Query() q: ListQueryDto) {
    return this.categories.list(user._id, q);
  }

  @Get(':id')
  @ApiOkResponse({ type: ImageCategoryResponse })
  async getImageCategory(@CurrentUser() user: User, @Param('id', uuid) id: string) {
    return { data: await this.categories.get(user._id, id) };
  }

  @Post()
  @Idempotent()
  @ApiCreatedResponse({ type: ImageCategoryResponse })
  async createImageCategory(@CurrentUser() user: User, @Body() dto: ImageCategoryBodyDto) {
    return { data: await this.categories.create(user._id, dto.name), message: 'Category created' };
  }

  @Put(':id')
  @ApiOkResponse({ type: ImageCategoryResponse })
  async updateImageCategory(@CurrentUser() user: User, @Param('id', uuid) id: string, @Body() dto: ImageCategoryBodyDto) {
    return { data: await this.categories.update(user._id, id, dto.name), message: 'Category updated' };
  }

  @Delete(':id')
  @ApiOkResponse({ type: MessageResponse })
  async deleteImageCategory(@CurrentUser() user: User, @Param('id', uuid) id: string) {
    await this.categories.remove(user._id, id);
    return { message: 'Category deleted' };
  }
}
