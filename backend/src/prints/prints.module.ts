import { Inject, Logger, Module, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { JOB_RUNNER } from '../queue/queue.module';
import { JobRunner, QueueName } from '../queue/queue.types';
import { ImagesModule } from '../images/images.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { SheetSettingsModule } from '../sheet-settings/sheet-settings.module';
import { CpuPool } from '../cpu/cpu-pool';
import { PRINT_ENGINE, workerEngine } from './engine.adapter';
import { PrintItem } from './entities/print-item.entity';
import { Print } from './entities/print.entity';
import { PrintCancellations } from './print-cancellations';
import { PrintJobService } from './print-job.service';
import { PrintRecoveryService, RECOVERY_JOB } from './print-recovery.service';
import { PrintsController } from './prints.controller';
import { PROCESS_JOB, ProcessJobData, PrintsService, RETENTION_JOB } from './prints.service';

@Module({
  imports: [TypeOrmModule.forFeature([Print, PrintItem]), SheetSettingsModule, ImagesModule, WebhooksModule],
  controllers: [PrintsController],
  providers: [
    PrintsService,
    PrintJobService,
    PrintCancellations,
    PrintRecoveryService,
    { provide: PRINT_ENGINE, useFactory: (pool: CpuPool, config: AppConfig) => workerEngine(pool, config.uploads.maxPixels), inject: [CpuPool, APP_CONFIG] },
  ],
  exports: [PrintsService, PrintJobService],
})
export class PrintsModule implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('Prints');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_RUNNER) private readonly jobs: JobRunner,
    private readonly printJobs: PrintJobService,
    private readonly recovery: PrintRecoveryService,
  ) {}

  async onModuleInit() {
    if (!this.config.processJobs) return;
    this.jobs.process<ProcessJobData>(
      QueueName.Prints,
      PROCESS_JOB,
      (job) => this.printJobs.run(job),
      this.config.prints.jobConcurrency,
      (job, error) => this.printJobs.fail(job.data.printId, job.data.attempt, error.message),
    );
    this.jobs.process(QueueName.Maintenance, RETENTION_JOB, () => this.printJobs.expireFiles());
    await this.jobs.repeat(QueueName.Maintenance, RETENTION_JOB, this.config.prints.retentionIntervalMs);
    this.jobs.process(QueueName.Maintenance, RECOVERY_JOB, () => this.recovery.sweep());
    await this.jobs.repeat(QueueName.Maintenance, RECOVERY_JOB, this.config.recovery.intervalMs);
  }

  /** Every node that runs jobs sweeps once at start: what a restart or a killed process left. */
  onApplicationBootstrap() {
    if (!this.config.processJobs) return;
    void this.recovery.sweep().catch((e) => this.logger.error(`recovery sweep at start failed: ${e}`));
  }
}
