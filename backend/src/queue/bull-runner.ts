import { Logger } from '@nestjs/common';
import Bull, { Queue } from 'bull';
import { JOB_QUEUES, JobName, JobPayload } from './jobs';
import { AddJobOptions, JobHandler, JobRunner, JobState, ProcessOptions, QueueName } from './queue.types';

/**
 * Bull on Redis: jobs survive restarts, any number of worker processes share them, and a
 * job whose worker died is picked up again by Bull's stalled-job check.
 */
export class BullRunner implements JobRunner {
  private readonly logger = new Logger('Jobs');
  private readonly queues = new Map<QueueName, Queue>();

  constructor(
    private readonly redisUrl: string,
    private readonly prefix: string,
    private readonly settings: Bull.AdvancedSettings = {},
    /** False on an API node that only enqueues (PROCESS_JOBS=false). */
    private readonly processJobs = true,
  ) {}

  private queue(name: QueueName): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Bull(name, this.redisUrl, { prefix: this.prefix, settings: this.settings });
      q.on('error', (e) => this.logger.error(`queue ${name}: ${e.message}`));
      this.queues.set(name, q);
    }
    return q;
  }

  async add<N extends JobName>(name: N, data: JobPayload<N>, opts: AddJobOptions = {}) {
    const q = this.queue(JOB_QUEUES[name]);
    if (opts.jobId) {
      const existing = await q.getJob(opts.jobId);
      if (existing) {
        const state = await existing.getState();
        if (state !== 'completed' && state !== 'failed') return { id: opts.jobId, added: false };
        // A finished job with the same id would make Bull ignore the new one.
        await existing.remove();
      }
    }
    const job = await q.add(name, data, {
      jobId: opts.jobId,
      attempts: opts.attempts ?? 1,
      backoff: { type: 'exponential', delay: opts.backoffMs ?? 1000 },
      removeOnComplete: 1000,
      removeOnFail: 1000,
    });
    return { id: String(job.id), added: true };
  }

  process<N extends JobName>(name: N, handler: JobHandler<JobPayload<N>>, { concurrency = 1, onFailed }: ProcessOptions<JobPayload<N>> = {}) {
    if (!this.processJobs) return;
    type T = JobPayload<N>;
    const q = this.queue(JOB_QUEUES[name]);
    void q.process(name, concurrency, (job) =>
      handler({
        id: String(job.id),
        name,
        data: job.data as T,
        attemptsMade: job.attemptsMade,
        progress: async (p) => {
          await job.progress(p);
        },
      }),
    );
    if (onFailed) {
      q.on('failed', (job, error) => {
        if (job.name !== name) return;
        // Final when Bull left the job in the failed set. Counting attempts is not enough:
        // a job that stalled too often (its worker was killed twice) is failed with attempts
        // to spare, and its print would stay Processing with the credits held.
        void job
          .getState()
          .then((state) => {
            if (state !== 'failed') return;
            return onFailed(
              {
                id: String(job.id),
                name,
                data: job.data as T,
                attemptsMade: job.attemptsMade,
                progress: async () => undefined,
              },
              error,
            );
          })
          .catch((e) => this.logger.error(`onFailed for ${job.id}: ${e}`));
      });
    }
  }

  async repeat(name: JobName, everyMs: number) {
    if (!this.processJobs) return;
    await this.queue(JOB_QUEUES[name]).add(name, {}, { repeat: { every: everyMs }, jobId: `repeat:${name}`, removeOnComplete: true, removeOnFail: 100 });
  }

  async state(name: JobName, jobId: string): Promise<JobState> {
    const job = await this.queue(JOB_QUEUES[name]).getJob(jobId);
    if (!job) return 'missing';
    const state = await job.getState();
    if (state === 'completed' || state === 'failed') return state;
    // waiting, delayed, paused, active (an active job of a dead worker is Bull's to recover)
    return state ? 'live' : 'missing';
  }

  async health() {
    const q = this.queue(QueueName.Maintenance);
    await q.isReady();
    await q.client.ping();
  }

  async close() {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
