import { Global, Inject, Logger, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { JobName } from '../queue/jobs';
import { JOB_RUNNER } from '../queue/queue.module';
import { JobRunner } from '../queue/queue.types';
import { Notification } from './entities/notification.entity';
import { NotificationsController } from './notifications.controller';
import { NotificationsService } from './notifications.service';

/**
 * Global so that any feature (prints, images, sizes, auth, users, payments) can call
 * `NotificationsService.notify()` without importing this module, which would make cycles
 * (realtime → auth → notifications → realtime).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Notification])],
  controllers: [NotificationsController],
  providers: [NotificationsService],
  exports: [NotificationsService],
})
export class NotificationsModule implements OnModuleInit {
  private readonly logger = new Logger('Notifications');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_RUNNER) private readonly jobs: JobRunner,
    private readonly notifications: NotificationsService,
  ) {}

  /**
   * The sweep (prune old notifications, warn about print files about to be deleted) is a
   * repeating job on the maintenance queue, so it runs on one node at a time. Both halves are
   * idempotent anyway (a DELETE by age, and warnings stored once by their dedupe key).
   */
  async onModuleInit() {
    this.jobs.process(JobName.NotificationSweep, () => this.sweep());
    await this.jobs.repeat(JobName.NotificationSweep, this.config.notifications.sweepIntervalMs);
  }

  async sweep() {
    try {
      await this.notifications.prune();
      await this.notifications.warnExpiringFiles();
    } catch (e) {
      this.logger.error(`sweep failed: ${e}`);
    }
  }
}
