import { INestApplication } from '@nestjs/common';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import express, { type NextFunction, type Request, type Response } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import helmet, { strictTransportSecurity } from 'helmet';
import { apiKeyMiddleware } from './api-keys/api-key.middleware';
import { ApiKeysService } from './api-keys/api-keys.service';
import { documentApiAccess } from './api-keys/openapi-security';
import { HttpExceptionFilter } from './common/http-exception.filter';
import { answerJsonDirectly } from './common/json-reply';
import { originCheck } from './common/origin.middleware';
import { REQUEST_ID_HEADER, requestContext, requestLogger } from './common/request-context';
import { createValidationPipe, invalidJson, jsonDepthLimit } from './common/validation';
import { APP_CONFIG } from './config/config.module';
import { AppConfig } from './config/configuration';
import { apiProcessRole } from './cluster';
import { describeDocument, toOpenApi31 } from './openapi-31';
import { AppIoAdapter } from './realtime/redis-io.adapter';
import { sessionWriteBarrier } from './session/session-write-barrier';
import { SessionService } from './session/session.service';

/** How long an idle keep-alive connection stays open (above every usual proxy's idle timeout). */
export const KEEP_ALIVE_MS = 125_000;

/** Everything main.ts does to the app before listening; tests call the same function. */
export function configureApp(app: NestExpressApplication): AppConfig {
  const config = app.get<AppConfig>(APP_CONFIG);
  app.setGlobalPrefix('api');
  // Forwarded headers (client IP for the rate limits, https for Secure cookies) only from
  // the proxies named in TRUST_PROXY; by default nobody can claim another address.
  app.set('trust proxy', config.trustProxy);
  // No ETag on API answers: Express would hash every JSON body to offer a 304 that no
  // client of this API asks for (the web app's files are served with their own validators).
  app.set('etag', false);
  app.disable('x-powered-by');
  // Idle keep-alive connections outlive the client's and the proxy's: Node closes them after 5 s
  // by default, while Caddy (2 min), nginx and cloud load balancers (60 s) and fetch's pool keep
  // theirs longer, so a request written into a socket the server had just closed failed with a
  // connection reset (a 502 behind a proxy). The client or proxy now always lets go first.
  const server = app.getHttpServer();
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1000;
  answerJsonDirectly(app.getHttpAdapter() as ExpressAdapter);
  // First, so every response (static files and errors included) names its request.
  const logger = requestLogger();
  if (logger) app.useLogger(logger);
  app.use(requestContext());
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", 'https://www.google.com', 'https://www.gstatic.com', 'https://challenges.cloudflare.com'],
          frameSrc: ["'self'", 'https://www.google.com', 'https://challenges.cloudflare.com'],
          imgSrc: ["'self'", 'data:', 'blob:'],
          styleSrc: ["'self'", "'unsafe-inline'"],
          connectSrc: ["'self'", 'ws:', 'wss:'],
          // Served over plain http on the embedded default; TLS is the proxy's job.
          upgradeInsecureRequests: null,
        },
      },
      // Sent below, only where the browser really came over https.
      strictTransportSecurity: false,
      crossOriginEmbedderPolicy: false,
    }),
  );
  // HSTS when the request came over TLS: through a TRUST_PROXY proxy that says so
  // (X-Forwarded-Proto: https) or on a TLS socket. Over plain http (the embedded default,
  // a LAN address) browsers ignore it, and an untrusted peer's header proves nothing.
  // Not includeSubDomains: the parent domain's other hosts are not ours to pin to https.
  const hsts = strictTransportSecurity({ maxAge: 365 * 24 * 3600, includeSubDomains: false });
  app.use((req: Request, res: Response, next: NextFunction) => (req.secure ? hsts(req, res, next) : next()));
  app.use(cookieParser());
  app.use(sessionWriteBarrier(app.get(SessionService)));
  app.use(apiKeyMiddleware(app.get(ApiKeysService)));
  app.use(originCheck(config.allowedOrigins));
  // JSON is parsed here rather than by Nest's default (which then skips its own), so the
  // depth limit runs right after it.
  app.useBodyParser('json');
  app.use(invalidJson());
  app.use(jsonDepthLimit());
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter());
  app.enableCors({
    origin: config.allowedOrigins,
    credentials: true,
    // Readable by the scripts of the allowed origins, not only by the browser.
    exposedHeaders: [REQUEST_ID_HEADER, 'Idempotent-Replayed', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'],
  });
  const { clustered } = apiProcessRole(config);
  app.useWebSocketAdapter(new AppIoAdapter(app, { allowedOrigins: config.allowedOrigins, redisUrl: config.redis.url, websocketOnly: clustered }));
  if (clustered) {
    // The primary stops the node's processes with one SIGTERM each. A Ctrl+C in the terminal
    // reaches the whole process group, and that second signal during Nest's shutdown would
    // end the process before its requests and jobs are done.
    process.on('SIGINT', () => undefined);
    app.enableShutdownHooks(['SIGTERM']);
  } else app.enableShutdownHooks();
  serveFrontend(app, config);
  return config;
}

/** The API's and the live socket's paths: never a file of the web app. */
const NOT_FRONTEND = /^\/(api|socket\.io)(\/|$)/;

/** The built React app at /, with every non-API path answered by index.html (client routing). */
function serveFrontend(app: NestExpressApplication, config: AppConfig) {
  const index = join(config.frontendDist, 'index.html');
  if (!existsSync(index)) return;
  // The file middleware runs before the API's routes: API requests skip it, so none of them
  // pays a file lookup that can only miss.
  const assets = express.static(config.frontendDist, { index: false, maxAge: '1h' });
  app.use((req: Request, res: Response, next: NextFunction) => (NOT_FRONTEND.test(req.path) ? next() : assets(req, res, next)));
  const http = app.getHttpAdapter().getInstance();
  http.get(/.*/, (req: Request, res: Response, next: NextFunction) => {
    if (NOT_FRONTEND.test(req.path)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
}

/**
 * The API's OpenAPI document. Its server is this installation (APP_URL) unless `serverUrl` is
 * given; the committed docs/openapi.json names the default, http://localhost:3000.
 */
export function buildOpenApi(app: INestApplication, serverUrl = app.get<AppConfig>(APP_CONFIG).appUrl): OpenAPIObject {
  const doc = new DocumentBuilder()
    .setTitle('GangSheet Studio API')
    .setDescription(
      'JSON API of the web app and of integrations. Authenticate with the browser session cookie or an API key (Authorization: Bearer gsk_…; press Authorize to try routes with yours). Lists answer {data, pagination}; errors {statusCode, code, message, requestId, errors?}. Every answer carries Request-Id (your X-Request-Id when valid). POST routes that create or spend honour an Idempotency-Key; the other POST and PATCH routes refuse it. Guide: docs/api.md.',
    )
    .setVersion('1.0')
    .build();
  const generated = documentApiAccess(app, SwaggerModule.createDocument(app, doc, { operationIdFactory: (_c, method) => method }));
  return describeDocument(toOpenApi31(generated), serverUrl);
}
