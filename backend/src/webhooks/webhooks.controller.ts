import { Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../auth/auth.decorators';
import { MessageResponse } from '../common/responses';
import { User } from '../users/entities/user.entity';
import { TestMode } from '../api-keys/test-mode.decorators';
import {
  CreatedWebhookResponse,
  CreateWebhookDto,
  DEFAULT_SECRET_OVERLAP_HOURS,
  DeliveryListQueryDto,
  RollWebhookSecretDto,
  toDeliveryDto,
  toWebhookDto,
  UpdateWebhookDto,
  WebhookDeliveryListResponse,
  WebhookDeliveryResponse,
  WebhookListResponse,
  WebhookResponse,
} from './dto/webhook.dto';
import { WebhooksService } from './webhooks.service';
import { Idempotent } from '../idempotency/idempotency.decorators';

const endpointId = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('Webhook not found') });
const deliveryId = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('Delivery not found') });

@ApiTags('webhooks')
@ApiCookieAuth()
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @ApiOperation({ summary: 'Your webhook endpoints' })
  @ApiOkResponse({ type: WebhookListResponse })
  async listWebhooks(@CurrentUser() user: User) {
    return { data: (await this.webhooks.list(user._id)).map(toWebhookDto) };
  }

  @Post()
  @Idempotent()
  @ApiOperation({ summary: 'Register an endpoint for events; the signing secret is in this answer only' })
  @ApiCreatedResponse({ type: CreatedWebhookResponse })
  async createWebhook(@CurrentUser() user: User, @Body() dto: CreateWebhookDto, @TestMode() test: boolean) {
    const { endpoint, secret } = await this.webhooks.create(user._id, dto, test);
    return { data: { ...toWebhookDto(endpoint), secret }, message: 'Webhook added. Copy the signing secret now: it will not be shown again.' };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One webhook endpoint' })
  @ApiOkResponse({ type: WebhookResponse })
  async getWebhook(@CurrentUser() user: User, @Param('id', endpointId) id: string) {
    return { data: toWebhookDto(await this.webhooks.get(user._id, id)) };
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change the URL, events or description, or pause (active: false)' })
  @ApiOkResponse({ type: WebhookResponse })
  async updateWebhook(@CurrentUser() user: User, @Param('id', endpointId) id: string, @Body() dto: UpdateWebhookDto) {
    return { data: toWebhookDto(await this.webhooks.update(user._id, id, dto)), message: 'Webhook updated' };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete an endpoint and its delivery log' })
  @ApiOkResponse({ type: MessageResponse })
  async deleteWebhook(@CurrentUser() user: User, @Param('id', endpointId) id: string) {
    await this.webhooks.remove(user._id, id);
    return { message: 'Webhook deleted' };
  }

  @Post(':id/roll-secret')
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Replace the signing secret (the new one is in this answer only)',
    description:
      'The replaced secret keeps signing deliveries beside the new one (a second v1 in GangSheet-Signature) for overlapHours, 24 by default, so the receiver can switch without refusing a delivery.',
  })
  @ApiOkResponse({ type: CreatedWebhookResponse })
  async rollWebhookSecret(@CurrentUser() user: User, @Param('id', endpointId) id: string, @Body() dto: RollWebhookSecretDto) {
    const hours = dto.overlapHours ?? DEFAULT_SECRET_OVERLAP_HOURS;
    const { endpoint, secret } = await this.webhooks.rollSecret(user._id, id, hours);
    const overlap = hours > 0 ? ` The old one also signs deliveries for ${hours} hour${hours === 1 ? '' : 's'}.` : ' The old one no longer signs deliveries.';
    return { data: { ...toWebhookDto(endpoint), secret }, message: `Signing secret rolled. Copy the new secret now: it will not be shown again.${overlap}` };
  }

  @Post(':id/test')
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a signed "ping" event to this endpoint (queued like any delivery)' })
  @ApiOkResponse({ type: WebhookDeliveryResponse })
  async testWebhook(@CurrentUser() user: User, @Param('id', endpointId) id: string) {
    return { data: toDeliveryDto(await this.webhooks.sendTest(user._id, id)), message: 'Test event sent' };
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: 'Delivery log of an endpoint, newest first, with the last status of each' })
  @ApiOkResponse({ type: WebhookDeliveryListResponse })
  async listWebhookDeliveries(@CurrentUser() user: User, @Param('id', endpointId) id: string, @Query() q: DeliveryListQueryDto) {
    const page = await this.webhooks.deliveries(user._id, id, q);
    return { ...page, data: page.data.map(toDeliveryDto) };
  }

  @Post('deliveries/:deliveryId/redeliver')
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a delivery again now (once); lastAttemptOk and the message tell how the receiver answered this time' })
  @ApiOkResponse({ type: WebhookDeliveryResponse })
  async redeliverWebhook(@CurrentUser() user: User, @Param('deliveryId', deliveryId) id: string) {
    const d = toDeliveryDto(await this.webhooks.redeliver(user._id, id));
    // The attempt just made decides the message, whatever an earlier attempt achieved.
    return { data: d, message: d.lastAttemptOk ? `Delivered (HTTP ${d.lastStatusCode})` : `Not delivered: ${d.lastError ?? `HTTP ${d.lastStatusCode}`}` };
  }
}
