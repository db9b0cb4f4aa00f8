import { Body, Controller, Delete, Get, NotFoundException, Param, ParseUUIDPipe, Post, Put, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../auth/auth.decorators';
import { MessageResponse } from '../common/responses';
import { User } from '../users/entities/user.entity';
import { SizeBodyDto, SizeListQueryDto, SizeListResponse, SizeResponse, toSizeDto } from './dto/size.dto';
import { SizesService } from './sizes.service';

const uuid = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('Size not found') });

@ApiTags('sizes')
@ApiCookieAuth()
@Controller('sizes')
export class SizesController {
  constructor(private readonly sizes: SizesService) {}

  @Get()
  @ApiOkResponse({ type: SizeListResponse, description: 'Default limit 10 (limit=999 for all), default sort createdAt desc' })
  listSizes(@CurrentUser() user: User, @Query() q: SizeListQueryDto) {
    return this.sizes.list(user._id, q);
  }

  @Get(':id')
  @ApiOkResponse({ type: SizeResponse })
  async getSize(@CurrentUser() user: User, @Param('id', uuid) id: string) {
    return { data: toSizeDto(await this.sizes.get(user._id, id)) };
  }

  @Post()
  @ApiCreatedResponse({ type: SizeResponse })
  async createSize(@CurrentUser() user: User, @Body() dto: SizeBodyDto) {
    return { data: toSizeDto(await this.sizes.create(user._id, dto)), message: 'Size created' };
  }

  @Put(':id')
  @ApiOkResponse({ type: SizeResponse })
  async updateSize(@CurrentUser() user: User, @Param('id', uuid) id: string, @Body() dto: SizeBodyDto) {
    return { data: toSizeDto(await this.sizes.update(user._id, id, dto)), message: 'Size updated' };
  }

  @Delete(':id')
  @ApiOkResponse({ type: MessageResponse, description: '409 when a print uses the size' })
  async deleteSize(@CurrentUser() user: User, @Param('id', uuid) id: string) {
    await this.sizes.remove(user._id, id);
    return { message: 'Size deleted' };
  }
}
