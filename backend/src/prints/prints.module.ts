import { Inject, Logger, Module, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { JOB_RUNNER } from '../queue/queue.module';
import { JobName } from '../queue/jobs';
import { JobRunner } from '../queue/queue.types';
import { ImagesModule } from '../images/images.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { SheetSettingsModule } from '../sheet-settings/sheet-settings.module';
import { CpuPool } from '../cpu/cpu-pool';
import { PRINT_ENGINE, workerEngine } from './engine.adapter';
import { PrintItem } from './entities/print-item.entity';
import { Print } from './entities/print.entity';
import { PrintCancellations } from './print-cancellations';
import { failureText } from './print-failure';
import { PrintFailureService } from './print-failure.service';
import { PrintJobRepository } from './print-job.repository';
import { PrintJobService } from './print-job.service';
import { PrintMail } from './print-mail';
import { PrintRetentionService } from './print-retention.service';
import { StorageOrphansService } from './storage-orphans.service';
import { PrintRecoveryService } from './print-recovery.service';
import { PrintsController } from './prints.controller';
import { PrintSharesController } from './print-shares.controller';
import { PrintSharesService } from './print-shares.service';
import { PrintDraftsService } from './print-drafts.service';
import { PrintFilesService } from './print-files.service';
import { PrintLayoutService } from './print-layout.service';
import { PrintPreviewService } from './print-preview.service';
import { PrintProcessingService } from './print-processing.service';
import { PrintsService } from './prints.service';
import { PackingListService } from './packing-list.service';
import { PrintsReadModule } from './prints-read.module';

@Module({
  imports: [TypeOrmModule.forFeature([Print, PrintItem]), SheetSettingsModule, ImagesModule, WebhooksModule, PrintsReadModule],
  // PrintSharesController first: its DELETE print/:id/share must win over DELETE print/:id/:itemId.
  controllers: [PrintSharesController, PrintsController],
  providers: [
    PrintsService,
    PrintDraftsService,
    PrintPreviewService,
    PrintLayoutService,
    PrintProcessingService,
    PrintFilesService,
    PrintSharesService,
    PrintJobRepository,
    PrintJobService,
    PrintFailureService,
    PrintMail,
    PrintRetentionService,
    StorageOrphansService,
    PrintCancellations,
    PrintRecoveryService,
    PackingListService,
    { provide: PRINT_ENGINE, useFactory: (pool: CpuPool, config: AppConfig) => workerEngine(pool, config.uploads.maxPixels, config.prints.layoutThreads), inject: [CpuPool, APP_CONFIG] },
  ],
  exports: [PrintsService, PrintDraftsService, PrintPreviewService, PrintLayoutService, PrintProcessingService, PrintFilesService, PrintJobService, PrintsReadModule],
})
export class PrintsModule implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('Prints');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_RUNNER) private readonly jobs: JobRunner,
    private readonly printJobs: PrintJobService,
    private readonly failures: PrintFailureService,
    private readonly retention: PrintRetentionService,
    private readonly orphans: StorageOrphansService,
    private readonly recovery: PrintRecoveryService,
  ) {}

  async onModuleInit() {
    this.jobs.process(JobName.ProcessPrint, (job) => this.printJobs.run(job), {
      concurrency: this.config.prints.jobConcurrency,
      onFailed: (job, error) => this.failures.fail(job.data.printId, job.data.attempt, failureText(error)),
    });
    // expired files, then stored objects no row refers to
    this.jobs.process(JobName.PrintRetention, async () => {
      const expired = await this.retention.expireFiles();
      const orphans = await this.orphans.sweep();
      return { expired, ...orphans };
    });
    await this.jobs.repeat(JobName.PrintRetention, this.config.prints.retentionIntervalMs);
    this.jobs.process(JobName.JobRecovery, () => this.recovery.sweep());
    await this.jobs.repeat(JobName.JobRecovery, this.config.recovery.intervalMs);
  }

  /** Every node that runs jobs sweeps once at start: what a restart or a killed process left. */
  onApplicationBootstrap() {
    if (!this.config.processJobs) return;
    void this.recovery.sweep().catch((e) => this.logger.error(`recovery sweep at start failed: ${e}`));
  }
}
