import { Global, Inject, Logger, Module, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { PrintsReadModule } from '../prints/prints-read.module';
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
  imports: [TypeOrmModule.forFeature([Notification]), PrintsReadModule],
  controllers: [NotificationsController],
  providers: [NotificationsService],
  exports: [NotificationsService],
})
export class NotificationsModule implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Notifications');
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly notifications: NotificationsService,
  ) {}

  /**
   * The sweep (prune old notifications, warn about print files about to be deleted) runs on
   * a timer in every process that runs jobs. Both halves are idempotent (a DELETE by age, and
   * warnings stored once by their dedupe key), so several nodes sweeping is harmless; a Bull
   * repeatable job would add a third repeatable to the maintenance queue, which made Bull
   * fail on close (see docs/notifications.md).
   */
  onModuleInit() {
    if (!this.config.processJobs) return;
    this.timer = setInterval(() => void this.sweep(), this.config.notifications.sweepIntervalMs);
    this.timer.unref();
  }

  async sweep() {
    if (this.running) return;
    this.running = (async () => {
      try {
        await this.notifications.prune();
        await this.notifications.warnExpiringFiles();
      } catch (e) {
        this.logger.error(`sweep failed: ${e}`);
      }
    })();
    await this.running;
    this.running = undefined;
  }

  async onModuleDestroy() {
    clearInterval(this.timer);
    await this.running;
  }
}
