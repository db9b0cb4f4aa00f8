import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { ConfigError, loadConfig } from './config/configuration';

/**
 * Queue processors only, no HTTP: run any number of these beside the API (scale-out).
 * Needs REDIS_URL and DATABASE_URL, since the jobs and the data must be shared.
 */
async function bootstrap() {
  let config;
  try {
    config = loadConfig();
    if (!config.redis.url || !config.database.url) {
      throw new ConfigError('Invalid configuration:\n  REDIS_URL, DATABASE_URL: the worker needs both (the embedded default runs jobs inside the API)');
    }
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const app = await NestFactory.createApplicationContext(AppModule.forRoot({ ...config, processJobs: true }));
  app.enableShutdownHooks();
  Logger.log('Worker started: processing queues', 'Worker');
}

void bootstrap();
