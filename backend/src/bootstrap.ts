import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { INestApplication } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import helmet, { strictTransportSecurity } from 'helmet';
import { useApiKeys } from './api-keys/api-key.middleware';
import { ApiKeysService } from './api-keys/api-keys.service';
import { documentApiAccess } from './api-keys/openapi-security';
import { HttpExceptionFilter } from './common/http-exception.filter';
import { registerMultipart } from './common/multipart';
import { compileTrustProxy, useOriginCheck } from './common/origin.middleware';
import { REQUEST_ID_HEADER, requestLogger, useRequestContext } from './common/request-context';
import { createValidationPipe, JSON_BODY_LIMIT, useJsonBodies } from './common/validation';
import { APP_CONFIG } from './config/config.module';
import { AppConfig } from './config/configuration';
import { apiProcessRole } from './cluster';
import { describeDocument, toOpenApi31 } from './openapi-31';
import { AppIoAdapter } from './realtime/redis-io.adapter';
import { useSessionWriteBarrier } from './session/session-write-barrier';
import { SessionService } from './session/session.service';

/** How long an idle keep-alive connection stays open (above every usual proxy's idle timeout). */
export const KEEP_ALIVE_MS = 125_000;

/**
 * The HTTP server under Nest: Fastify. Forwarded headers (client IP for the rate limits, https
 * for Secure cookies) count only from the proxies named in TRUST_PROXY; by default nobody can
 * claim another address. Idle keep-alive connections outlive the client's and the proxy's:
 * Node closes them after 5 s by default, while Caddy (2 min), nginx and cloud load balancers
 * (60 s) and fetch's pool keep theirs longer, so a request written into a socket the server had
 * just closed failed with a connection reset (a 502 behind a proxy). The client or proxy now
 * always lets go first. Paths match with or without a trailing slash, and a route parameter may
 * be as long as a share token or a shop's order id.
 */
export function createHttpAdapter(config: Pick<AppConfig, 'trustProxy'>): FastifyAdapter {
  return new FastifyAdapter({
    trustProxy: compileTrustProxy(config.trustProxy),
    keepAliveTimeout: KEEP_ALIVE_MS,
    bodyLimit: JSON_BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // Every hook below is Fastify's own: no Express-style middleware layer.
    skipMiddie: true,
  });
}

/** Nest's options for the app: configureApp installs the JSON parser with the API's limits. */
export const APP_OPTIONS = { bodyParser: false } as const;

/** Starts the app without listening (tests, document generation): Nest's modules, then Fastify's plugins and routes. */
export async function initApp(app: NestFastifyApplication): Promise<void> {
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
}

/** Everything main.ts does to the app before listening; tests call the same function. */
export function configureApp(app: NestFastifyApplication): AppConfig {
  const config = app.get<AppConfig>(APP_CONFIG);
  app.setGlobalPrefix('api');
  const fastify: FastifyInstance = app.getHttpAdapter().getInstance();
  const server = app.getHttpServer();
  server.headersTimeout = KEEP_ALIVE_MS + 1000;
  // First, so every response (static files and errors included) names its request.
  const logger = requestLogger();
  if (logger) app.useLogger(logger);
  useRequestContext(fastify);
  const securityHeaders = helmet({
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
  });
  // HSTS when the request came over TLS: through a TRUST_PROXY proxy that says so
  // (X-Forwarded-Proto: https) or on a TLS socket. Over plain http (the embedded default,
  // a LAN address) browsers ignore it, and an untrusted peer's header proves nothing.
  // Not includeSubDomains: the parent domain's other hosts are not ours to pin to https.
  const hsts = strictTransportSecurity({ maxAge: 365 * 24 * 3600, includeSubDomains: false });
  const headers = headersOf(securityHeaders);
  const httpsHeaders = { ...headers, ...headersOf(hsts) };
  fastify.addHook('onRequest', (req, reply, done) => {
    reply.headers(req.protocol === 'https' ? httpsHeaders : headers);
    done();
  });
  void fastify.register(fastifyCookie);
  useSessionWriteBarrier(fastify, app.get(SessionService));
  useApiKeys(fastify, app.get(ApiKeysService));
  useOriginCheck(fastify, config.allowedOrigins);
  useJsonBodies(fastify);
  registerMultipart(fastify);
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter());
  app.enableCors({
    // After the request id, security headers and the origin check, as every other answer.
    hook: 'preHandler',
    origin: config.allowedOrigins,
    credentials: true,
    // Readable by the scripts of the allowed origins, not only by the browser.
    exposedHeaders: [REQUEST_ID_HEADER, 'Idempotent-Replayed', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'],
  });
  const { clustered } = apiProcessRole(config);
  app.useWebSocketAdapter(
    new AppIoAdapter(app, { allowedOrigins: config.allowedOrigins, trustProxy: compileTrustProxy(config.trustProxy), redisUrl: config.redis.url, websocketOnly: clustered }),
  );
  if (clustered) {
    // The primary stops the node's processes with one SIGTERM each. A Ctrl+C in the terminal
    // reaches the whole process group, and that second signal during Nest's shutdown would
    // end the process before its requests and jobs are done.
    process.on('SIGINT', () => undefined);
    app.enableShutdownHooks(['SIGTERM']);
  } else app.enableShutdownHooks();
  serveFrontend(fastify, config);
  return config;
}

/**
 * The headers a helmet middleware sets, read once. With fixed options (no per-request nonce)
 * it sets the same ones on every response, so each request gets the object through Fastify's
 * reply instead of a dozen middleware calls writing them one by one.
 */
export function headersOf(middleware: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = { setHeader: (name: string, value: unknown) => (headers[name] = String(value)), removeHeader: (name: string) => delete headers[name] };
  middleware({} as IncomingMessage, res as unknown as ServerResponse, (err) => {
    if (err) throw err;
  });
  return headers;
}

/** The API's and the live socket's paths: never a file of the web app. */
const NOT_FRONTEND = /^\/(api|socket\.io)(\/|\?|$)/;

/**
 * The built React app at /, with every other non-API path answered by index.html (client
 * routing). The files are routes of their own (found once at start), so API requests pay no
 * file lookup that can only miss.
 */
function serveFrontend(fastify: FastifyInstance, config: AppConfig) {
  const indexPath = join(config.frontendDist, 'index.html');
  if (!existsSync(indexPath)) return;
  const index = readFileSync(indexPath);
  // A file under api/ or socket.io/ (nothing the build makes) would shadow the API: left out.
  void fastify.register(fastifyStatic, { root: config.frontendDist, wildcard: false, index: false, maxAge: 3_600_000, globIgnore: ['api/**', 'socket.io/**'] });
  fastify.get('/*', (req, reply) => {
    if (NOT_FRONTEND.test(req.url)) return reply.callNotFound();
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(index);
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
