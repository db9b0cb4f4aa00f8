import { Global, Inject, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { JOB_RUNNER } from '../queue/queue.module';
import { JobRunner, QueueName } from '../queue/queue.types';
import { Notification } from './entities/notification.entity';
import { NotificationsController } from './notifications.controller';
import { NotificationsService } from './notifications.service';

export const NOTIFICATIONS_SWEEP_JOB = 'notifications-sweep';

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
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_RUNNER) private readonly jobs: JobRunner,
    private readonly notifications: NotificationsService,
  ) {}

  /** One repeatable job: prune old notifications and warn about print files about to be deleted. */
  async onModuleInit() {
    if (!this.config.processJobs) return;
    this.jobs.process(QueueName.Maintenance, NOTIFICATIONS_SWEEP_JOB, async () => ({
      pruned: await this.notifications.prune(),
      expiryWarnings: await this.notifications.warnExpiringFiles(),
    }));
    await this.jobs.repeat(QueueName.Maintenance, NOTIFICATIONS_SWEEP_JOB, this.config.notifications.sweepIntervalMs);
  }
}
