import { Controller, Delete, Get, NotFoundException, Param, ParseUUIDPipe, Put, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../auth/auth.decorators';
import { MessageResponse } from '../common/responses';
import { User } from '../users/entities/user.entity';
import { MarkAllReadResponse, NotificationListQueryDto, NotificationListResponse, NotificationResponse, toNotificationDto } from './dto/notification.dto';
import { NotificationsService } from './notifications.service';

const uuid = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('Notification not found') });

/** The caller's own notifications only (admins too): another user's id answers 404. */
@ApiTags('notifications')
@ApiCookieAuth()
@Controller('notifications')
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  @ApiOkResponse({ type: NotificationListResponse, description: 'Newest first; default limit 10. status=unread gives the bell count in pagination.totalDocuments' })
  listNotifications(@CurrentUser() user: User, @Query() q: NotificationListQueryDto) {
    return this.notifications.list(user._id, q);
  }

  @Put('read')
  @ApiOkResponse({ type: MarkAllReadResponse })
  async markAllNotificationsRead(@CurrentUser() user: User) {
    const updated = await this.notifications.markAllRead(user._id);
    return { updated, message: 'All notifications marked as read' };
  }

  @Put(':id/read')
  @ApiOkResponse({ type: NotificationResponse })
  async markNotificationRead(@CurrentUser() user: User, @Param('id', uuid) id: string) {
    return { data: toNotificationDto(await this.notifications.markRead(user._id, id)), message: 'Notification marked as read' };
  }

  @Delete(':id')
  @ApiOkResponse({ type: MessageResponse })
  async deleteNotification(@CurrentUser() user: User, @Param('id', uuid) id: string) {
    await this.notifications.remove(user._id, id);
    return { message: 'Notification deleted' };
  }
}
