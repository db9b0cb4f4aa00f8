import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { JOB_RUNNER } from '../queue/queue.module';
import { JobRunner, QueueName } from '../queue/queue.types';
import { SheetSettingsModule } from '../sheet-settings/sheet-settings.module';
import { CpuPool } from '../cpu/cpu-pool';
import { PRINT_ENGINE, workerEngine } from './engine.adapter';
import { PrintItem } from './entities/print-item.entity';
import { Print } from './entities/print.entity';
import { PrintJobService } from './print-job.service';
import { PrintsController } from './prints.controller';
import { PROCESS_JOB, ProcessJobData, PrintsService, RETENTION_JOB } from './prints.service';

@Module({
  imports: [TypeOrmModule.forFeature([Print, PrintItem]), SheetSettingsModule],
  controllers: [PrintsController],
  providers: [
    PrintsService,
    PrintJobService,
    { provide: PRINT_ENGINE, useFactory: (pool: CpuPool, config: AppConfig) => workerEngine(pool, config.uploads.maxPixels), inject: [CpuPool, APP_CONFIG] },
  ],
  exports: [PrintsService, PrintJobService],
})
export class PrintsModule implements OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_RUNNER) private readonly jobs: JobRunner,
    private readonly printJobs: PrintJobService,
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
  }
}
