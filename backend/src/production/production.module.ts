import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { NotificationsModule } from '../notifications/notifications.module';
import { OrdersModule } from '../orders/orders.module';
import { PrintsModule } from '../prints/prints.module';
import { JOB_RUNNER } from '../queue/queue.tokens';
import { JobName } from '../queue/jobs';
import { JobRunner } from '../queue/queue.types';
import { SheetSettingsModule } from '../sheet-settings/sheet-settings.module';
import { UsersModule } from '../users/users.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { Clock } from './clock';
import { ProductionController } from './production.controller';
import { ProductionRepository } from './production.repository';
import { ProductionService } from './production.service';

/** One evaluation per seller at a time: a second request while one waits or runs is a no-op. */
export const productionJobId = (userId: string) => `production:${userId}`;

/** Production: the queue of shop order items, batching rules and Batch prints (docs/production.md). */
@Module({
  imports: [OrdersModule, PrintsModule, SheetSettingsModule, NotificationsModule, WebhooksModule, UsersModule],
  controllers: [ProductionController],
  providers: [ProductionService, ProductionRepository, Clock],
  exports: [ProductionService],
})
export class ProductionModule implements OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_RUNNER) private readonly jobs: JobRunner,
    private readonly production: ProductionService,
  ) {}

  async onModuleInit() {
    this.jobs.process(JobName.ProductionEvaluate, async (job) => (await this.production.evaluate(job.data.userId, job.data.cause ?? 'schedule')).length);
    this.jobs.process(JobName.ProductionSchedule, async () => {
      await this.production.sweep();
      let n = 0;
      for (const userId of await this.production.autoSellers()) {
        if ((await this.jobs.add(JobName.ProductionEvaluate, { userId }, { jobId: productionJobId(userId) })).added) n++;
      }
      return n;
    });
    // Cut-offs are met within one tick; 0 turns the schedule off (tests drive it themselves).
    if (this.config.shops.productionTickMs > 0) await this.jobs.repeat(JobName.ProductionSchedule, this.config.shops.productionTickMs);
  }
}
