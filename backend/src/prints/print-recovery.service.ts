import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { returned } from '../common/sql';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { Image, ImageStatus } from '../images/entities/image.entity';
import { ImagesService, previewJobId } from '../images/images.service';
import { OutboxService } from '../queue/outbox.service';
import { JOB_RUNNER } from '../queue/queue.tokens';
import { JobName } from '../queue/jobs';
import { JobRunner } from '../queue/queue.types';
import { StorageService } from '../storage/storage.service';
import { PrintFailureService } from './print-failure.service';
import { RUN_PREFIX } from './print-job.service';
import { printJobId, processJob } from './print-lifecycle';

export interface SweepReport {
  dispatched: number;
  resumed: number;
  refunded: number;
  imagesResumed: number;
  imagesFailed: number;
  runFoldersRemoved: number;
}

/**
 * The recovery sweep, at start and every JOB_RECOVERY_INTERVAL_SECONDS: every print in
 * Processing has a live job, or is resumed (its job enqueued again, at most PRINT_MAX_RESUMES
 * times), or is refunded; images stuck "processing" get their preview job again; run folders
 * of killed jobs are removed. A job counts as live while it waits in the queue, or runs with
 * a heartbeat in our own records (the print's or image's updated_at) younger than
 * JOB_STALL_SECONDS: what the queue says about a job it holds is not enough (a Redis that
 * lost its data leaves records of jobs that run nowhere). Every step is guarded in the database (outbox rows, conditional
 * UPDATEs, the refund's unique ledger reference), so sweeps on several nodes at once, or a
 * sweep racing the job it looks at, still end each attempt exactly once.
 */
@Injectable()
export class PrintRecoveryService {
  private readonly logger = new Logger('Recovery');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_RUNNER) private readonly jobs: JobRunner,
    private readonly outbox: OutboxService,
    private readonly failures: PrintFailureService,
    private readonly images: ImagesService,
    private readonly storage: StorageService,
  ) {}

  async sweep(): Promise<SweepReport> {
    const graceS = this.config.recovery.graceMs / 1000;
    const stallS = this.config.recovery.stallMs / 1000;
    const report: SweepReport = { dispatched: 0, resumed: 0, refunded: 0, imagesResumed: 0, imagesFailed: 0, runFoldersRemoved: 0 };
    // (b) a charge whose enqueue never happened (the API died after the commit)
    report.dispatched = await this.outbox.dispatchPending(this.config.recovery.graceMs);

    const prints: Array<{ id: string; user_id: string; attempt: number; resumes: number; stalled: boolean }> = await this.db.query(
      `SELECT id, user_id, attempt, resumes, updated_at < now() - make_interval(secs => $2) AS stalled
         FROM prints WHERE status = 'Processing' AND updated_at < now() - make_interval(secs => $1) ORDER BY updated_at LIMIT 500`,
      [graceS, stallS],
    );
    for (const p of prints) {
      const jobId = printJobId(p.id, p.attempt);
      const state = await this.jobs.state(JobName.ProcessPrint, jobId);
      if (state === 'waiting' || (state === 'running' && !p.stalled) || (await this.outbox.pending(jobId))) continue;
      if (state === 'running') {
        // (d) held by a worker that shows no life: it cannot be queued again while the queue
        // holds it, so the attempt ends here (a late run finds it no longer Processing)
        await this.failures.fail(p.id, p.attempt, 'Processing stopped responding. Your credits were refunded; please try again.');
        report.refunded++;
        continue;
      }
      if (state === 'failed') {
        // (c) failed for good, but its failure handler never ran (e.g. it died with its process)
        await this.failures.fail(p.id, p.attempt, 'Processing failed');
        report.refunded++;
        continue;
      }
      // (a) the job is gone (in-process jobs after a restart, a Redis that lost its data) or
      // finished without ending the print
      if (p.resumes >= this.config.prints.maxResumes) {
        await this.failures.fail(p.id, p.attempt, 'Processing was interrupted too many times. Your credits were refunded; please try again.');
        report.refunded++;
        continue;
      }
      const won = returned(
        await this.db.query(
          `UPDATE prints SET resumes = resumes + 1 WHERE id = $1 AND status = 'Processing' AND attempt = $2 AND resumes = $3 RETURNING id`,
          [p.id, p.attempt, p.resumes],
        ),
      );
      if (!won.length) continue; // another sweep got there first, or the print ended meanwhile
      const job = processJob(p.id, p.attempt, this.config.prints.jobAttempts, p.user_id);
      await this.jobs.add(job.name, job.data, { jobId: job.jobId, attempts: job.attempts, backoffMs: job.backoffMs });
      this.logger.warn(`print ${p.id} attempt ${p.attempt}: job lost (${state}), resumed (${p.resumes + 1}/${this.config.prints.maxResumes})`);
      report.resumed++;
    }

    const images: Image[] = await this.db
      .getRepository(Image)
      .createQueryBuilder('i')
      .where(`i.status = :s AND i.deleted_at IS NULL AND i.created_at < now() - make_interval(secs => :g)`, { s: ImageStatus.Processing, g: graceS })
      .orderBy('i.created_at')
      .take(500)
      .getMany();
    for (const img of images) {
      const state = await this.jobs.state(JobName.ImagePreview, previewJobId(img._id));
      if (state === 'waiting') continue;
      if (state === 'running') {
        // the job marks the image when it starts; its steps are time-limited, so one running
        // far longer than that is held by a worker that shows no life
        if (Date.now() - img.updatedAt.getTime() < this.config.recovery.stallMs) continue;
        await this.images.previewFailed(img._id, new Error('preview job stopped responding'));
        report.imagesFailed++;
      } else if (state === 'failed') await this.images.previewFailed(img._id, new Error('preview job failed'));
      else {
        await this.images.queuePreview(img);
        report.imagesResumed++;
      }
    }

    report.runFoldersRemoved = await this.removeDeadRunFolders();
    if (Object.values(report).some((n) => n > 0)) this.logger.log(`sweep: ${JSON.stringify(report)}`);
    return report;
  }

  /**
   * Run folders (`users/<u>/prints/<p>/<attempt>/.run-*`) of attempts that are over. Those of
   * the current attempt of a Processing print may belong to a live run and stay until the
   * attempt ends (the job that finalises removes them, and so does this sweep afterwards).
   */
  private async removeDeadRunFolders(): Promise<number> {
    const found: Array<{ key: string; printId: string; attempt: number }> = [];
    const ls = (key: string) => this.storage.entries(key);
    for (const user of await ls('users'))
      for (const print of await ls(`users/${user}/prints`))
        for (const attempt of await ls(`users/${user}/prints/${print}`))
          for (const run of await ls(`users/${user}/prints/${print}/${attempt}`))
            if (run.startsWith(RUN_PREFIX)) found.push({ key: `users/${user}/prints/${print}/${attempt}/${run}`, printId: print, attempt: Number(attempt) });
    if (!found.length) return 0;
    const live = new Set(
      (
        (await this.db.query(`SELECT id, attempt FROM prints WHERE status = 'Processing' AND id::text = ANY($1)`, [[...new Set(found.map((f) => f.printId))]])) as Array<{
          id: string;
          attempt: number;
        }>
      ).map((r) => `${r.id}:${r.attempt}`),
    );
    let n = 0;
    for (const f of found) {
      if (live.has(`${f.printId}:${f.attempt}`)) continue;
      await this.storage.deleteFolder(f.key);
      n++;
    }
    return n;
  }
}
