import { Body, Controller, Delete, Get, NotFoundException, Param, ParseUUIDPipe, Post, Put } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../auth/auth.decorators';
import { paginate } from '../common/pagination';
import { MessageResponse } from '../common/responses';
import { User } from '../users/entities/user.entity';
import {
  CreatePresetDto,
  SheetPresetListResponse,
  SheetPresetResponse,
  SheetSettingsInput,
  SheetSettingsResponse,
  UpdatePresetDto,
} from './dto/sheet-settings.dto';
import { DEFAULT_SHEET_SETTINGS, SheetPreset } from './entities/sheet-settings.entity';
import { pickSettings, SheetSettingsService } from './sheet-settings.service';
import { Idempotent } from '../idempotency/idempotency.decorators';
import { ApiError } from '../common/api-errors';

const uuid = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('Sheet preset not found') });

const toPresetDto = (p: SheetPreset) => ({ _id: p._id, name: p.name, ...pickSettings(p), createdAt: p.createdAt, updatedAt: p.updatedAt });

@ApiTags('sheet-settings')
@ApiCookieAuth()
@Controller()
export class SheetSettingsController {
  constructor(private readonly sheets: SheetSettingsService) {}

  @Get('sheet-settings')
  @ApiOkResponse({ type: SheetSettingsResponse })
  async getSheetSettings(@CurrentUser() user: User) {
    return { data: await this.sheets.get(user._id) };
  }

  @Get('sheet-settings/defaults')
  @ApiOperation({ summary: 'The sheet a new seller starts with (what "reset to defaults" sets); the same for everyone' })
  @ApiOkResponse({ type: SheetSettingsResponse })
  getSheetDefaults() {
    return { data: { ...DEFAULT_SHEET_SETTINGS } };
  }

  @Put('sheet-settings')
  @ApiOkResponse({ type: SheetSettingsResponse })
  async updateSheetSettings(@CurrentUser() user: User, @Body() dto: SheetSettingsInput) {
    return { data: await this.sheets.update(user._id, dto), message: 'Sheet settings saved' };
  }

  @Get('sheet-presets')
  @ApiOkResponse({ type: SheetPresetListResponse })
  async listSheetPresets(@CurrentUser() user: User) {
    const rows = await this.sheets.listPresets(user._id);
    return paginate(rows.map(toPresetDto), rows.length, Math.max(rows.length, 1));
  }

  @Get('sheet-presets/:id')
  @ApiOkResponse({ type: SheetPresetResponse })
  async getSheetPreset(@CurrentUser() user: User, @Param('id', uuid) id: string) {
    return { data: toPresetDto(await this.sheets.getPreset(user._id, id)) };
  }

  @Post('sheet-presets')
  @Idempotent()
  @ApiOkResponse({ type: SheetPresetResponse })
  async createSheetPreset(@CurrentUser() user: User, @Body() dto: CreatePresetDto) {
    return { data: toPresetDto(await this.sheets.createPreset(user._id, dto)), message: 'Preset created' };
  }

  @Put('sheet-presets/:id')
  @ApiOkResponse({ type: SheetPresetResponse })
  @ApiError(409, 'Another preset has this name', 'A preset with this name already exists', 'preset_exists')
  async updateSheetPreset(@CurrentUser() user: User, @Param('id', uuid) id: string, @Body() dto: UpdatePresetDto) {
    return { data: toPresetDto(await this.sheets.updatePreset(user._id, id, dto)), message: 'Preset updated' };
  }

  @Delete('sheet-presets/:id')
  @ApiOkResponse({ type: MessageResponse })
  async deleteSheetPreset(@CurrentUser() user: User, @Param('id', uuid) id: string) {
    await this.sheets.removePreset(user._id, id);
    return { message: 'Preset deleted' };
  }
}
