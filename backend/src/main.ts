import 'reflect-metadata';
import cluster from 'node:cluster';
import { apiProcessRole, poolShare, runPrimary } from './cluster';
import { AppConfig, ConfigError, loadConfig } from './config/configuration';

async function bootstrap() {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  if (config.apiProcesses > 1 && cluster.isPrimary) return runPrimary(config.apiProcesses);
  const role = apiProcessRole(config);
  // In a node of several processes only the first runs the queues (when PROCESS_JOBS says so):
  // PRINT_JOB_CONCURRENCY is what one node takes on.
  if (!role.first) config = { ...config, processJobs: false };
  if (role.clustered) config = { ...config, database: { ...config.database, poolMax: poolShare(config.database.poolMax, config.apiProcesses) } };
  // Loaded here, not at the top: a cluster's primary only forks and never needs the app.
  const [{ Logger }, { NestFactory }, { SwaggerModule }, { AppModule }, { APP_OPTIONS, buildOpenApi, configureApp, createHttpAdapter }, { UsersService }] = await Promise.all([
    import('@nestjs/common'),
    import('@nestjs/core'),
    import('@nestjs/swagger'),
    import('./app.module'),
    import('./bootstrap'),
    import('./users/users.service'),
  ]);
  const app = await NestFactory.create<import('@nestjs/platform-fastify').NestFastifyApplication>(AppModule.forRoot(config), createHttpAdapter(config), { ...APP_OPTIONS, bufferLogs: false });
  configureApp(app);
  SwaggerModule.setup('api/docs', app, buildOpenApi(app), {
    jsonDocumentUrl: 'api/docs/openapi.json',
    // Authorize → api-key: paste a key once and "Try it out" sends it with every call.
    swaggerOptions: { persistAuthorization: true },
  });
  if (role.first) await app.get(UsersService).ensureFirstAdmin();
  // Every interface, as before: 127.0.0.1 and localhost (IPv4 or IPv6) both reach it.
  await app.listen(config.port, '::');
  if (!role.first) return;
  const mode = config.database.url ? 'PostgreSQL' : `embedded PGlite (${config.database.pgliteDir})`;
  const processes = role.clustered ? `, ${config.apiProcesses} API processes` : '';
  Logger.log(`GangSheet Studio on ${config.appUrl} — database: ${mode}, jobs: ${config.redis.url ? 'Bull/Redis' : 'in-process'}${processes}, mail: ${config.mail.smtpUrl ? 'SMTP' : config.outboxDir}`, 'Main');
}

void bootstrap();
