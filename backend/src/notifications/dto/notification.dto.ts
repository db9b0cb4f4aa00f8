import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '../../common/pagination';
import { PaginatedResponse } from '../../common/responses';
import type { LiveNotification, NotificationType } from '../../realtime/events';
import { Notification } from '../entities/notification.entity';

export const NOTIFICATION_TYPES: NotificationType[] = ['print', 'image', 'size', 'payment', 'profile'];
export const NOTIFICATION_STATUSES = ['unread', 'read'] as const;

export class NotificationDto implements LiveNotification {
  @ApiProperty() _id: string;
  @ApiProperty({ enum: NOTIFICATION_TYPES }) type: NotificationType;
  @ApiProperty() message: string;
  @ApiProperty({ type: String, nullable: true, description: 'The print, image, size or payment id the notification is about' })
  attachmentId: string | null;
  @ApiProperty({ enum: NOTIFICATION_STATUSES }) status: 'unread' | 'read';
  @ApiProperty() createdAt: string;
}

export function toNotificationDto(n: Notification): NotificationDto {
  return {
    _id: n._id,
    type: n.type,
    message: n.message,
    attachmentId: n.attachmentId,
    status: n.readAt ? 'read' : 'unread',
    createdAt: new Date(n.createdAt).toISOString(),
  };
}

/** Page and limit as every list; the bell asks for the unread ones. */
export class NotificationListQueryDto extends PickType(ListQueryDto, ['page', 'limit'] as const) {
  @ApiPropertyOptional({ enum: NOTIFICATION_STATUSES, description: 'Only unread (the bell count) or only read notifications' })
  @IsOptional()
  @IsIn(NOTIFICATION_STATUSES, { message: 'status must be unread or read' })
  status?: 'unread' | 'read';
}

export class NotificationListResponse extends PaginatedResponse(NotificationDto) {}

export class NotificationResponse {
  @ApiProperty({ type: NotificationDto }) data: NotificationDto;
  @ApiPropertyOptional() message?: string;
}

export class MarkAllReadResponse {
  @ApiProperty({ description: 'How many notifications were unread' }) updated: number;
  @ApiProperty() message: string;
}
