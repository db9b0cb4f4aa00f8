import { Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, ParseUUIDPipe, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCookieAuth, ApiCreatedResponse, ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentUser, Public } from '../auth/auth.decorators';
import { MessageResponse } from '../common/responses';
import { Role, User } from '../users/entities/user.entity';
import { ConnectResponse, IntegrationBodyDto, IntegrationListResponse, IntegrationResponse, IntegrationTypesResponse, toIntegrationDto, WooAuthCallbackDto } from './dto/integration.dto';
import { IntegrationsService, MSG } from './integrations.service';
import { Idempotent, IgnoresIdempotencyKey } from '../idempotency/idempotency.decorators';
import { ApiError } from '../common/api-errors';

const uuid = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException(MSG.notFound) });

@ApiTags('integrations')
@ApiCookieAuth()
@Controller('integrations')
export class IntegrationsController {
  constructor(private readonly integrations: IntegrationsService) {}

  @Get()
  @ApiOkResponse({ type: IntegrationListResponse, description: 'All of the user\'s integrations, newest first; secrets are never returned' })
  async listIntegrations(@CurrentUser() user: User) {
    return { data: (await this.integrations.list(user._id)).map(toIntegrationDto) };
  }

  @Get('types')
  @ApiOkResponse({ type: IntegrationTypesResponse, description: 'The shop types and whether each can be added on this server (with the reason when not)' })
  listIntegrationTypes(@CurrentUser() user: User) {
    return { data: this.integrations.availableTypes(user.role === Role.Admin) };
  }

  /** Etsy sends the seller's browser back here after consent (no session needed: `state` identifies the integration). */
  @Public()
  @Get('etsy/callback')
  @ApiExcludeEndpoint()
  async etsyCallback(@Query() q: { code?: string; state?: string; error?: string }, @Res() reply: FastifyReply) {
    await reply.redirect(await this.integrations.etsyCallback({ code: str(q.code), state: str(q.state), error: str(q.error) }), 302);
  }

  /** WooCommerce POSTs the approved keys here (server to server; `user_id` is our single-use state). */
  @Public()
  @Post('woocommerce/callback')
  @IgnoresIdempotencyKey()
  @HttpCode(200)
  @ApiOperation({ summary: 'WooCommerce /wc-auth/v1/authorize callback (called by the shop)' })
  @ApiOkResponse({ type: MessageResponse })
  @ApiError(409, 'The shop was connected as another integration meanwhile', 'Shop already exists.', 'shop_already_exists')
  async wooCallback(@Body() body: WooAuthCallbackDto) {
    await this.integrations.wooCallback(body);
    return { message: 'Keys received' };
  }

  @Get(':id')
  @ApiOkResponse({ type: IntegrationResponse })
  async getIntegration(@CurrentUser() user: User, @Param('id', uuid) id: string) {
    return { data: toIntegrationDto(await this.integrations.get(user._id, id)) };
  }

  @Post()
  @Idempotent()
  @ApiCreatedResponse({ type: IntegrationResponse, description: 'connectUrl: send the browser there (Etsy, or WooCommerce without keys). 409 shop_already_exists' })
  async createIntegration(@CurrentUser() user: User, @Body() dto: IntegrationBodyDto) {
    const { integration, connectUrl } = await this.integrations.create(user._id, dto);
    return { data: toIntegrationDto(integration), connectUrl, message: integration.connected ? 'Integration connected' : 'Integration created' };
  }

  @Get(':id/auth')
  @ApiOkResponse({ type: ConnectResponse })
  @ApiError(409, 'The shop was connected as another integration meanwhile', 'Shop already exists.', 'shop_already_exists')
  async connectIntegration(@CurrentUser() user: User, @Param('id', uuid) id: string) {
    const r = await this.integrations.connect(user._id, id);
    return { ...r, message: r.connected ? 'Integration connected' : 'Continue in the shop to authorise' };
  }

  @Put(':id')
  @ApiOkResponse({ type: IntegrationResponse })
  @ApiError(409, 'The shop is connected already (as another integration)', 'Shop already exists.', 'shop_already_exists')
  async updateIntegration(@CurrentUser() user: User, @Param('id', uuid) id: string, @Body() dto: IntegrationBodyDto) {
    const { integration, connectUrl } = await this.integrations.update(user._id, id, dto);
    return { data: toIntegrationDto(integration), connectUrl, message: 'Integration updated' };
  }

  @Delete(':id')
  @ApiOkResponse({ type: MessageResponse, description: 'Also deletes the integration\'s synced orders' })
  async deleteIntegration(@CurrentUser() user: User, @Param('id', uuid) id: string) {
    await this.integrations.remove(user._id, id);
    return { message: 'Integration deleted' };
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
