import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { BullRunner } from './bull-runner';
import { InProcessRunner } from './in-process-runner';
import { OutboxService } from './outbox.service';
import { JOB_RUNNER } from './queue.tokens';
import { JobRunner } from './queue.types';

export { JOB_RUNNER };

@Global()
@Module({
  providers: [
    {
      provide: JOB_RUNNER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): JobRunner =>
        config.redis.url
          ? new BullRunner(config.redis.url, config.redis.prefix, {
              ...(config.redis.lockDurationMs ? { lockDuration: config.redis.lockDurationMs, lockRenewTime: config.redis.lockDurationMs / 2 } : {}),
              ...(config.redis.stalledIntervalMs ? { stalledInterval: config.redis.stalledIntervalMs } : {}),
            }, config.processJobs, { repeatCheckMs: config.redis.repeatCheckMs })
          : new InProcessRunner(config.processJobs),
    },
    OutboxService,
  ],
  exports: [JOB_RUNNER, OutboxService],
})
export class QueueModule implements OnApplicationShutdown {
  constructor(@Inject(JOB_RUNNER) private readonly runner: JobRunner) {}

  async onApplicationShutdown() {
    await this.runner.close();
  }
}
