import { Controller, Get, Inject, Logger, OnModuleDestroy, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { Public } from '../auth/auth.decorators';
import { ApiErrors } from '../common/api-errors';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { JOB_RUNNER } from '../queue/queue.module';
import { JobRunner } from '../queue/queue.types';
import { StorageService } from '../storage/storage.service';

type Check = { status: 'ok' | 'error'; kind: string; error?: string };
type Health = { status: 'ok' | 'error'; database: Check; queue: Check; storage: Check };

/** How long a finished round of checks answers for later requests. */
export const HEALTH_REUSE_MS = 1000;

@ApiTags('health')
@Controller('health')
export class HealthController implements OnModuleDestroy {
  private readonly logger = new Logger(HealthController.name);
  /**
   * PostgreSQL is checked on a connection of its own, outside the app's pool: a burst of
   * slow requests holding every pooled connection must not turn the health check into a
   * 503 (and get the node taken out of a load balancer) while the database is fine.
   */
  private readonly probe: Pool | null;

  /**
   * The current round of checks. Requests arriving while it runs share it, and its answer is
   * reused for HEALTH_REUSE_MS after it finished: load balancers polling several times a
   * second, or checks piling up beside slow routes, cost one round instead of one each (the
   * storage check writes and deletes a file).
   */
  private round: { body: Promise<Health>; finishedAt?: number } | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly db: DataSource,
    @Inject(JOB_RUNNER) private readonly jobs: JobRunner,
    private readonly storage: StorageService,
  ) {
    const url = config.database.url;
    this.probe = url ? new Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 2000, idleTimeoutMillis: 60_000 }) : null;
  }

  @Public()
  @Get()
  @ApiOperation({ summary: 'Database, queue and storage status; 503 when any is down' })
  @ApiOkResponse({ description: 'All up: status ok, and the database, queue and storage checks' })
  @ApiErrors(
    { status: 503, when: 'The database, the queue or the storage is down', message: 'Service unavailable', code: 'service_unavailable' },
    { status: 503, when: 'The database is saturated', message: 'The server is busy. Please try again in a moment.', code: 'busy' },
  )
  async health() {
    let round = this.round;
    if (!round || (round.finishedAt !== undefined && Date.now() - round.finishedAt >= HEALTH_REUSE_MS)) {
      const next: { body: Promise<Health>; finishedAt?: number } = { body: this.checkAll() };
      void next.body.finally(() => (next.finishedAt = Date.now()));
      round = this.round = next;
    }
    const body = await round.body;
    if (body.status !== 'ok') throw new ServiceUnavailableException({ message: 'Service unavailable', details: publicChecks(body) });
    return body;
  }

  private async checkAll(): Promise<Health> {
    const [database, queue, storage] = await Promise.all([
      this.check(this.config.database.url ? 'postgres' : 'pglite', () => (this.probe ? this.probe.query('SELECT 1') : this.db.query('SELECT 1'))),
      this.check(this.config.redis.url ? 'bull-redis' : 'in-process', () => this.jobs.health()),
      this.check(this.storage.driver, () => this.storage.health()),
    ]);
    return { status: [database, queue, storage].every((c) => c.status === 'ok') ? 'ok' : 'error', database, queue, storage };
  }

  async onModuleDestroy() {
    await this.probe?.end();
  }

  private async check(kind: string, fn: () => Promise<unknown>): Promise<Check> {
    try {
      await Promise.race([fn(), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), 3000).unref())]);
      return { status: 'ok', kind };
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      this.logger.warn(`health: ${kind} check failed: ${error}`);
      return { status: 'error', kind, error };
    }
  }
}

/**
 * What an unauthenticated caller learns of a failed round: which check failed, not its error
 * text (a driver's message can name hosts or paths); that goes to the log.
 */
function publicChecks(h: Health) {
  const strip = ({ status, kind }: Check) => ({ status, kind });
  return { database: strip(h.database), queue: strip(h.queue), storage: strip(h.storage) };
}
