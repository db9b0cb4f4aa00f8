import { Controller, Get, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../auth/auth.decorators';
import { User } from '../users/entities/user.entity';
import { TestMode } from '../api-keys/test-mode.decorators';
import { EVENT_PAGE_DEFAULT, EventListQueryDto, EventListResponse } from './dto/event.dto';
import { EVENT_RETENTION_DAYS, WebhooksService } from './webhooks.service';

@ApiTags('webhooks')
@ApiCookieAuth()
@Controller('events')
export class EventsController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @ApiOperation({
    summary: 'Your events, oldest first: exactly what your webhooks are sent, with the same ids',
    description: `For a receiver catching up after downtime: page with after = the id of the last event you processed until hasMore is false. Events are kept for ${EVENT_RETENTION_DAYS} days, whether or not a webhook endpoint listened to them; test pings are not events. A test key lists the events of test mode (livemode false), a session or a live key the live ones.`,
  })
  @ApiOkResponse({ type: EventListResponse })
  listEvents(@CurrentUser() user: User, @Query() q: EventListQueryDto, @TestMode() test: boolean) {
    return this.webhooks.events(user._id, { livemode: !test, after: q.after, type: q.type, limit: q.limit ?? EVENT_PAGE_DEFAULT });
  }
}
