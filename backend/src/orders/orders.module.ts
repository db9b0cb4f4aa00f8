import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { ImagesModule } from '../images/images.module';
import { IntegrationsModule } from '../integrations/integrations.module';
import { PrintsModule } from '../prints/prints.module';
import { JOB_RUNNER } from '../queue/queue.tokens';
import { JobName } from '../queue/jobs';
import { JobRunner } from '../queue/queue.types';
import { SizesModule } from '../sizes/sizes.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { FulfilmentService } from './fulfilment.service';
import { OrderSyncService } from './order-sync.service';
import { OrdersController } from './orders.controller';
import { OrdersRepository } from './orders.repository';
import { OrdersService } from './orders.service';

/** Synced shop orders: the sync job, the Integration Orders list, orders → draft prints. */
@Module({
  imports: [IntegrationsModule, PrintsModule, ImagesModule, SizesModule, WebhooksModule],
  controllers: [OrdersController],
  providers: [OrdersService, OrderSyncService, OrdersRepository, FulfilmentService],
  exports: [OrdersService, FulfilmentService],
})
export class OrdersModule implements OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_RUNNER) private readonly jobs: JobRunner,
    private readonly sync: OrderSyncService,
  ) {}

  async onModuleInit() {
    this.jobs.process(JobName.OrderSync, (job) => this.sync.run(job.data.integrationId), { concurrency: 2 });
    this.jobs.process(JobName.OrderSyncSchedule, () => this.sync.schedule());
    if (this.config.shops.syncIntervalMs > 0) await this.jobs.repeat(JobName.OrderSyncSchedule, this.config.shops.syncIntervalMs);
  }
}
