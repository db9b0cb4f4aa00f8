import { Controller, Get, Inject, OnModuleDestroy, ServiceUnavailableException } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { Public } from '../auth/auth.decorators';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { JOB_RUNNER } from '../queue/queue.module';
import { JobRunner } from '../queue/queue.types';
import { StorageService } from '../storage/storage.service';

type Check = { status: 'ok' | 'error'; kind: string; error?: string };

@ApiTags('health')
@Controller('health')
export class HealthController implements OnModuleDestroy {
  /**
   * PostgreSQL is checked on a connection of its own, outside the app's pool: a burst of
   * slow requests holding every pooled connection must not turn the health check into a
   * 503 (and get the node taken out of a load balancer) while the database is fine.
   */
  private readonly probe: Pool | null;

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
  async health() {
    const [database, queue, storage] = await Promise.all([
      this.check(this.config.database.url ? 'postgres' : 'pglite', () => (this.probe ? this.probe.query('SELECT 1') : this.db.query('SELECT 1'))),
      this.check(this.config.redis.url ? 'bull-redis' : 'in-process', () => this.jobs.health()),
      this.check('local', () => this.storage.health()),
    ]);
    const body = { status: [database, queue, storage].every((c) => c.status === 'ok') ? 'ok' : 'error', database, queue, storage };
    if (body.status !== 'ok') throw new ServiceUnavailableException({ message: 'Service unavailable', ...body });
    return body;
  }

  async onModuleDestroy() {
    await this.probe?.end();
  }

  private async check(kind: string, fn: () => Promise<unknown>): Promise<Check> {
    try {
      await Promise.race([fn(), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), 3000).unref())]);
      return { status: 'ok', kind };
    } catch (e) {
      return { status: 'error', kind, error: e instanceof Error ? e.message : String(e) };
    }
  }
}
