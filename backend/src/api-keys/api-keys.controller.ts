import { Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiCookieAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../auth/auth.decorators';
import { MessageResponse } from '../common/responses';
import { User } from '../users/entities/user.entity';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyListResponse, ApiKeyResponse, CreateApiKeyDto, CreatedApiKeyResponse, toApiKeyDto } from './dto/api-key.dto';
import { SessionOnly } from './session-only.guard';

const keyId = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('API key not found') });

@ApiTags('api-keys')
@ApiCookieAuth()
@SessionOnly()
@Controller('api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @ApiOperation({ summary: 'Your API keys (never their secrets), newest first' })
  @ApiOkResponse({ type: ApiKeyListResponse })
  async listApiKeys(@CurrentUser() user: User) {
    return { data: (await this.keys.list(user._id)).map((k) => toApiKeyDto(k)) };
  }

  @Post()
  @ApiOperation({ summary: 'Create an API key; the secret is in this answer only (stored as a hash)' })
  @ApiCreatedResponse({ type: CreatedApiKeyResponse })
  async createApiKey(@CurrentUser() user: User, @Body() dto: CreateApiKeyDto) {
    const { key, secret } = await this.keys.create(user._id, dto);
    return { data: { ...toApiKeyDto(key), secret }, message: 'API key created. Copy it now: it will not be shown again.' };
  }

  @Post(':id/revoke')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke an API key: it stops working at once (kept in the list as revoked)' })
  @ApiOkResponse({ type: ApiKeyResponse })
  async revokeApiKey(@CurrentUser() user: User, @Param('id', keyId) id: string) {
    return { data: toApiKeyDto(await this.keys.revoke(user._id, id)), message: 'API key revoked' };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete an API key (it stops working at once)' })
  @ApiOkResponse({ type: MessageResponse })
  async deleteApiKey(@CurrentUser() user: User, @Param('id', keyId) id: string) {
    await this.keys.remove(user._id, id);
    return { message: 'API key deleted' };
  }
}
