import { ConsoleLogger, Logger, LogLevel } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The response header that names the request; the client's own id arrives in `X-Request-Id`. */
export const REQUEST_ID_HEADER = 'Request-Id';
export const CLIENT_REQUEST_ID_HEADER = 'x-request-id';
/** A client's id is reused when it is 1 to 200 of these characters; anything else gets a new id. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,200}$/;

interface RequestContext {
  requestId: string;
}

const context = new AsyncLocalStorage<RequestContext>();

/** The id of the request being handled here, if any (jobs and start-up have none). */
export const currentRequestId = (): string | undefined => context.getStore()?.requestId;

/** The request's id as the middleware gave it, or the one of the current context. */
export function requestIdOf(req: unknown): string | undefined {
  return (req as { requestId?: string } | undefined)?.requestId ?? currentRequestId();
}

/**
 * The first request hook: names the request (the client's valid `X-Request-Id`, else a new
 * UUID), answers the name in `Request-Id` on every response, and runs the rest of the
 * request inside a context the logger and the error filter read it from. Fastify reads a
 * body inside an AsyncResource of the request, so a handler whose body came from later socket
 * events is still in this context (request-context.spec.ts proves it on a real socket).
 */
export function useRequestContext(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (req, reply, done) => {
    const sent = req.headers[CLIENT_REQUEST_ID_HEADER];
    const requestId = typeof sent === 'string' && REQUEST_ID_PATTERN.test(sent) ? sent : randomUUID();
    (req as { requestId?: string }).requestId = requestId;
    reply.header(REQUEST_ID_HEADER, requestId);
    context.run({ requestId }, done);
  });
}

/**
 * Nest's console logger with the request id in every line written while a request is
 * handled (`[req <id>]` after the context; a `requestId` field in JSON mode).
 */
export class RequestLogger extends ConsoleLogger {
  protected override formatContext(ctx: string): string {
    const id = currentRequestId();
    return id ? `${super.formatContext(ctx)}[req ${id}] ` : super.formatContext(ctx);
  }

  protected override getJsonLogObject(message: unknown, options: { context: string; logLevel: LogLevel; writeStreamType?: 'stdout' | 'stderr'; errorStack?: unknown }) {
    const object = super.getJsonLogObject(message, options);
    const id = currentRequestId();
    return id ? { ...object, requestId: id } : object;
  }
}

/**
 * A RequestLogger with the levels the app was created with (tests keep only errors), or
 * undefined when the app was created without logging.
 */
export function requestLogger(): RequestLogger | undefined {
  const nest = Logger as unknown as { logLevels?: LogLevel[]; staticInstanceRef?: unknown };
  if (!nest.staticInstanceRef) return undefined;
  return nest.logLevels ? new RequestLogger({ logLevels: nest.logLevels }) : new RequestLogger();
}
