import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module';
import { buildOpenApi, configureApp } from './bootstrap';
import { ConfigError, loadConfig } from './config/configuration';
import { UsersService } from './users/users.service';

async function bootstrap() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), { bufferLogs: false });
  configureApp(app);
  SwaggerModule.setup('api/docs', app, buildOpenApi(app), {
    jsonDocumentUrl: 'api/docs/openapi.json',
    // Authorize → api-key: paste a key once and "Try it out" sends it with every call.
    swaggerOptions: { persistAuthorization: true },
  });
  await app.get(UsersService).ensureFirstAdmin();
  await app.listen(config.port);
  const mode = config.database.url ? 'PostgreSQL' : `embedded PGlite (${config.database.pgliteDir})`;
  Logger.log(`GangSheet Studio on ${config.appUrl} — database: ${mode}, jobs: ${config.redis.url ? 'Bull/Redis' : 'in-process'}, mail: ${config.mail.smtpUrl ? 'SMTP' : config.outboxDir}`, 'Main');
}

void bootstrap();
