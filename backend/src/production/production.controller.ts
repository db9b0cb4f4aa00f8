import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../auth/auth.decorators';
import { User } from '../users/entities/user.entity';
import { Idempotent } from '../idempotency/idempotency.decorators';
import { BatchListResponse, BatchNowResponse, ProductionQueueQueryDto, ProductionQueueResponse, ProductionSettingsInput, ProductionSettingsResponse } from './dto/production.dto';
import { ProductionService } from './production.service';

@ApiTags('production')
@ApiCookieAuth()
@Controller('production')
export class ProductionController {
  constructor(private readonly production: ProductionService) {}

  @Get('queue')
  @ApiOperation({ summary: 'Synced order items not yet in a print: rush first, then oldest; blocked items carry the reason' })
  @ApiOkResponse({ type: ProductionQueueResponse })
  queue(@CurrentUser() user: User, @Query() q: ProductionQueueQueryDto) {
    return this.production.queue(user._id, q);
  }

  @Get('settings')
  @ApiOkResponse({ type: ProductionSettingsResponse })
  async getSettings(@CurrentUser() user: User) {
    return { data: await this.production.settings(user._id) };
  }

  @Put('settings')
  @ApiOperation({ summary: 'Batching rules: sheet, triggers, rush, auto-process, labels (fields sent replace the saved ones)' })
  @ApiOkResponse({ type: ProductionSettingsResponse })
  async putSettings(@CurrentUser() user: User, @Body() dto: ProductionSettingsInput) {
    return { data: await this.production.updateSettings(user._id, dto) };
  }

  @Get('batches')
  @ApiOperation({ summary: 'The latest batches (20), newest first' })
  @ApiOkResponse({ type: BatchListResponse })
  async batches(@CurrentUser() user: User) {
    return { data: await this.production.recentBatches(user._id) };
  }

  @Post('batches')
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({ summary: 'Batch now: every ready item into batches (Batch prints), processed when auto-process is on and the credits suffice' })
  @ApiOkResponse({ type: BatchNowResponse })
  async batchNow(@CurrentUser() user: User) {
    const data = await this.production.batch(user._id, 'manual');
    const copies = data.reduce((a, b) => a + b.copies, 0);
    return { data, message: data.length ? `${data.length} batch${data.length === 1 ? '' : 'es'} made (${copies} copies)` : 'Nothing is ready to batch' };
  }
}
