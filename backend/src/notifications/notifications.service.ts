import { Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull, Repository } from 'typeorm';
import { paginate } from '../common/pagination';
import { returned, savepointed } from '../common/sql';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { PrintsReadService } from '../prints/prints-read.service';
import { NotificationType } from '../realtime/events';
import { RealtimeService } from '../realtime/realtime.service';
import { NotificationListQueryDto, toNotificationDto } from './dto/notification.dto';
import { Notification } from './entities/notification.entity';

export interface NewNotification {
  type: NotificationType;
  message: string;
  /** The print, image, size or payment it is about; the bell links to it. */
  attachmentId?: string | null;
  /**
   * Stores the notification at most once per key (a job that runs twice, a sweep that sees
   * the same print on every tick). E.g. `print.completed:{printId}:{attempt}`.
   */
  dedupeKey?: string;
}

/**
 * The header bell: stores a notification for a user and pushes it live
 * (`notification-{userId}`). Other features call `notify()`; it never throws into them,
 * since a lost notification must not fail the print, upload or payment it is about.
 */
@Injectable()
export class NotificationsService {
  private readonly logger = new Logger('Notifications');

  constructor(
    @InjectRepository(Notification) private readonly notifications: Repository<Notification>,
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly realtime: RealtimeService,
    private readonly prints: PrintsReadService,
  ) {}

  /** Stores and emits; returns the stored row, or null when it was a duplicate or failed. */
  async notify(userId: string, n: NewNotification): Promise<Notification | null> {
    return this.announce(userId, await this.record(this.db.manager, userId, n));
  }

  /**
   * Stores the notification with the caller's transaction, so it commits (or not) with the
   * change it is about: a print is never Completed without its "ready" notification, even
   * when the process dies right after the commit. `announce` pushes it live once committed.
   * A failed insert is rolled back to a savepoint and logged; the caller's change goes on.
   */
  async record(m: EntityManager, userId: string, n: NewNotification): Promise<string | null> {
    const rows = await savepointed(
      m,
      'notification',
      async () =>
        returned<{ id: string }>(
          await m.query(
            `INSERT INTO notifications (user_id, type, message, attachment_id, dedupe_key) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`,
            [userId, n.type, n.message.slice(0, 500), n.attachmentId ?? null, n.dedupeKey ?? null],
          ),
        ),
      (e) => this.logger.warn(`notification for user ${userId} (${n.type}) not stored: ${e}`),
    );
    return rows?.[0]?.id ?? null;
  }

  /** Pushes a stored notification live (`record` returned its id; null: nothing to push). */
  async announce(userId: string, id: string | null): Promise<Notification | null> {
    if (!id) return null;
    try {
      const saved = await this.notifications.findOneByOrFail({ _id: id });
      this.realtime.emit(userId, 'notification', toNotificationDto(saved));
      return saved;
    } catch (e) {
      this.logger.warn(`notification ${id} for user ${userId} not pushed: ${e}`);
      return null;
    }
  }

  async list(userId: string, q: NotificationListQueryDto) {
    const page = q.page ?? 1;
    const limit = q.limit ?? 10;
    const qb = this.notifications.createQueryBuilder('n').where('n.user_id = :userId', { userId });
    if (q.status === 'unread') qb.andWhere('n.read_at IS NULL');
    if (q.status === 'read') qb.andWhere('n.read_at IS NOT NULL');
    const [rows, total] = await qb
      .orderBy('n.created_at', 'DESC')
      .addOrderBy('n.id', 'DESC')
      .offset((page - 1) * limit)
      .limit(limit)
      .getManyAndCount();
    return paginate(rows.map(toNotificationDto), total, limit);
  }

  async markRead(userId: string, id: string): Promise<Notification> {
    const n = await this.get(userId, id);
    if (!n.readAt) {
      await this.notifications.update({ _id: id, userId, readAt: IsNull() }, { readAt: new Date() });
      return this.get(userId, id);
    }
    return n;
  }

  async markAllRead(userId: string): Promise<number> {
    const res = await this.notifications.update({ userId, readAt: IsNull() }, { readAt: new Date() });
    return res.affected ?? 0;
  }

  async remove(userId: string, id: string): Promise<void> {
    const res = await this.notifications.delete({ _id: id, userId });
    if (!res.affected) throw new NotFoundException('Notification not found');
  }

  private async get(userId: string, id: string): Promise<Notification> {
    const n = await this.notifications.findOne({ where: { _id: id, userId } });
    if (!n) throw new NotFoundException('Notification not found');
    return n;
  }

  /** Deletes notifications older than NOTIFICATION_RETENTION_DAYS, in batches. */
  async prune(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.notifications.retentionDays * 86_400_000);
    let total = 0;
    for (;;) {
      const rows = returned(
        await this.db.query(
          `DELETE FROM notifications WHERE id IN (SELECT id FROM notifications WHERE created_at < $1 LIMIT 5000) RETURNING id`,
          [cutoff],
        ),
      );
      total += rows.length;
      if (rows.length < 5000) break;
    }
    if (total) this.logger.log(`pruned ${total} notification(s) older than ${this.config.notifications.retentionDays} days`);
    return total;
  }

  /**
   * Warns once per processing about Completed prints whose files will be deleted within
   * NOTIFICATION_EXPIRY_WARNING_HOURS (the retention job deletes them PRINT_RETENTION_DAYS
   * after printedAt). The prints come from the prints read model: the prints feature does
   * not depend on the bell to do its own job.
   */
  async warnExpiringFiles(now = new Date()): Promise<number> {
    const retentionMs = this.config.prints.retentionDays * 86_400_000;
    const warnMs = this.config.notifications.expiryWarningHours * 3600_000;
    const due = await this.prints.completedWithFilesPrintedBetween(new Date(now.getTime() - retentionMs), new Date(now.getTime() - retentionMs + warnMs), 1000);
    let n = 0;
    for (const p of due) {
      const deleteAt = new Date(p.printedAt.getTime() + retentionMs);
      const hours = Math.max(1, Math.round((deleteAt.getTime() - now.getTime()) / 3600_000));
      const when = hours >= 48 ? `in ${Math.round(hours / 24)} days` : `in ${hours} hour${hours === 1 ? '' : 's'}`;
      const saved = await this.notify(p.userId, {
        type: 'print',
        message: `The files of your print will be deleted ${when}. Download them before then.`,
        attachmentId: p.id,
        dedupeKey: `print.expiring:${p.id}:${p.printedAt.getTime()}`,
      });
      if (saved) n++;
    }
    return n;
  }
}
