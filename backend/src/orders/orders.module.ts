import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { ImagesModule } from '../images/images.module';
import { IntegrationsModule } from '../integrations/integrations.module';
import { PrintsModule } from '../prints/prints.module';
import { JOB_RUNNER } from '../queue/queue.tokens';
import { JobRunner, QueueName } from '../queue/queue.types';
import { SizesModule } from '../sizes/sizes.module';
import { OrderSyncService, SYNC_JOB, SYNC_SCHEDULE_JOB, SyncJobData } from './order-sync.service';
import { OrdersController } from './orders.controller';
import { OrdersService } from './orders.service';

/** Synced shop orders: the sync job, the Integration Orders list, orders → draft prints. */
@Module({
  imports: [IntegrationsModule, PrintsModule, ImagesModule, SizesModule],
  controllers: [OrdersController],
  providers: [OrdersService, OrderSyncService],
  exports: [OrdersService],
})
export class OrdersModule implements OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_RUNNER) private readonly jobs: JobRunner,
    private readonly sync: OrderSyncService,
  ) {}

  async onModuleInit() {
    if (!this.config.processJobs) return;
    this.jobs.process<SyncJobData>(QueueName.Shops, SYNC_JOB, (job) => this.sync.run(job.data.integrationId), 2);
    this.jobs.process(QueueName.Shops, SYNC_SCHEDULE_JOB, () => this.sync.schedule());
    if (this.config.shops.syncIntervalMs > 0) await this.jobs.repeat(QueueName.Shops, SYNC_SCHEDULE_JOB, this.config.shops.syncIntervalMs);
  }
}
