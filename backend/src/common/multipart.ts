import {
  BadRequestException,
  CallHandler,
  ExecutionContext,
  HttpException,
  Inject,
  Injectable,
  mixin,
  NestInterceptor,
  Optional,
  PayloadTooLargeException,
  Type,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import multer from 'multer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { finished } from 'node:stream';
import { catchError, Observable, throwError } from 'rxjs';

/**
 * Multipart uploads on Fastify, parsed by multer as they were on Express: the same options,
 * storage engine, `req.files` / `req.body` and the same 400/413 errors with multer's messages
 * (the exception filter gives those their codes).
 *
 * Fastify parses a body before the route's handler runs and refuses a content type it has no
 * parser for (415). `registerMultipart()` adds a parser for multipart/form-data that reads
 * nothing: the request stream is left whole for the upload interceptor, which runs multer
 * over the raw Node request in the handler phase. Nothing else reads that stream (no body
 * limit applies: Fastify only counts bytes for parsers that buffer the body), so multer's
 * limits and the storage engine's are the only ones, as before.
 */

/** multer's options (storage, limits, charsets) for the upload routes of a module. */
export type MultipartOptions = multer.Options;

/** Provide this token (useFactory) in a module whose routes use `AnyFilesUpload()`. */
export const MULTIPART_OPTIONS = 'MULTIPART_OPTIONS';

/** What multer leaves on the raw request. */
type RawUploadRequest = IncomingMessage & { files?: unknown; file?: unknown; body?: unknown };

/**
 * What registerMultipart needs of a Fastify instance: any copy of fastify 5 fits (the one
 * @nestjs/platform-fastify creates the app with is not the package this file takes its types from).
 */
export interface ContentTypeParsers {
  hasContentTypeParser(contentType: string): boolean;
  addContentTypeParser(contentType: string, parser: (request: any, payload: any, done: (err: Error | null, body?: unknown) => void) => void): unknown;
}

/**
 * Lets multipart/form-data requests through Fastify's body parsing untouched (body
 * `undefined`), for the upload interceptor to read. Call once on the root instance, before
 * the app is initialised: `registerMultipart(app.getHttpAdapter().getInstance())`.
 */
export function registerMultipart(fastify: ContentTypeParsers): void {
  if (fastify.hasContentTypeParser('multipart/form-data')) return;
  fastify.addContentTypeParser('multipart/form-data', (_req, _payload, done) => done(null, undefined));
}

/**
 * Default of the number of parts, which multer leaves unlimited (as Nest's own interceptors did).
 */
const DEFAULT_PARTS_LIMIT = 1000;

/** multer's errors that are the client's: 400, or 413 for a file over `limits.fileSize`. */
const CLIENT_ERRORS = new Set([
  'LIMIT_PART_COUNT',
  'LIMIT_FILE_COUNT',
  'LIMIT_FIELD_KEY',
  'LIMIT_FIELD_VALUE',
  'LIMIT_FIELD_COUNT',
  'LIMIT_UNEXPECTED_FILE',
  'MISSING_FIELD_NAME',
  'LIMIT_FIELD_NESTING',
  'LIMIT_FIELD_ARRAY_INDEX',
  'INVALID_FIELD_NAME',
]);
/** busboy's errors of a malformed body, reported as "Multipart: <message>". */
const MALFORMED_BODY = new Set(['Malformed part header', 'Unexpected end of form', 'Unexpected end of file']);

/**
 * multer's (and busboy's) error as the HttpException @nestjs/platform-express made of it:
 * 413 "File too large", 400 "<message> - <field>" for the other limits, 400 "Multipart: …"
 * for a malformed body. Anything else (a storage failure) is left as it is (a 500).
 */
export function multipartException(error: unknown): unknown {
  if (!error || error instanceof HttpException) return error;
  const e = error as { code?: unknown; message?: string; field?: string };
  const message = e.message ?? '';
  if (e.code === 'LIMIT_FILE_SIZE') return new PayloadTooLargeException(message);
  if (typeof e.code === 'string' && CLIENT_ERRORS.has(e.code)) {
    return new BadRequestException(e.field ? `${message} - ${e.field}` : message);
  }
  if (message === 'Multipart: Boundary not found') return new BadRequestException(message);
  if (MALFORMED_BODY.has(message)) return new BadRequestException(`Multipart: ${message}`);
  return error;
}

/**
 * Runs a multer middleware over the raw request and settles once it has parsed the body.
 * If the response is sent while multer is still receiving (an interceptor that timed out),
 * the request is destroyed: multer then stops and removes what it stored.
 */
export async function runMulter(middleware: (req: any, res: any, next: (err?: unknown) => void) => void, req: RawUploadRequest, res: ServerResponse) {
  let receiving = true;
  const stopWatching = typeof res?.on === 'function' ? finished(res, () => receiving && !req.complete && req.destroy()) : () => undefined;
  try {
    await new Promise<void>((resolve, reject) => middleware(req, res, (err) => (err ? reject(multipartException(err)) : resolve())));
  } finally {
    receiving = false;
    stopWatching();
  }
  // multer gives a multipart request a body without a prototype.
  const body = req.body;
  if (typeof body === 'object' && body !== null && !Object.getPrototypeOf(body)) closeArrayGaps(body);
}

/**
 * Closes the gaps a field name leaves in an array of the body (`tags[1000]`), keeping the
 * values' order, so the array validated is the array the handler gets.
 */
export function closeArrayGaps(store: object): void {
  const pending: object[] = [store];
  while (pending.length) {
    const container = pending.pop() as Record<string, unknown> | unknown[];
    const values = Object.values(container);
    if (Array.isArray(container) && values.length < container.length) {
      values.forEach((value, index) => (container[index] = value));
      container.length = values.length;
    }
    for (const value of values) if (typeof value === 'object' && value !== null) pending.push(value);
  }
}

/** Marked on a request by @nestjs/core's router when its pipes rejected it (the handler did not run). */
const REJECTED_BY_PIPES = Symbol.for('nestjs:rejected-by-pipes');

/** Calls `listener` once, when the response is done or its connection closed. */
function onResponseClose(res: ServerResponse, listener: () => void): void {
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    listener();
  };
  finished(res, once);
  const socket = res.req?.socket;
  if (socket?.destroyed) process.nextTick(once);
  else socket?.once('close', once);
}

/**
 * Interceptor for a route that takes any files, as @nestjs/platform-express's
 * `AnyFilesInterceptor()`: multer's `.any()` with the module's MULTIPART_OPTIONS (merged
 * with `localOptions`), files as an array in `req.files`, text fields in `req.body`. Files
 * of a request the route's pipes reject are removed once the response is out.
 */
export function AnyFilesUpload(localOptions?: MultipartOptions): Type<NestInterceptor> {
  @Injectable()
  class AnyFilesUploadInterceptor implements NestInterceptor {
    readonly multer: multer.Multer;

    constructor(@Optional() @Inject(MULTIPART_OPTIONS) options: MultipartOptions = {}) {
      const merged: MultipartOptions = { ...options, ...withoutNil(localOptions ?? {}) };
      merged.limits = { ...merged.limits, parts: merged.limits?.parts ?? DEFAULT_PARTS_LIMIT };
      this.multer = multer(merged);
    }

    async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
      const http = context.switchToHttp();
      const req = http.getRequest<FastifyRequest & { files?: unknown }>();
      const reply = http.getResponse<FastifyReply>();
      const raw = req.raw as RawUploadRequest;
      await runMulter(this.multer.any(), raw, reply.raw);
      // multer sets both only on a multipart request; any other keeps what Fastify parsed.
      if (raw.body !== undefined) req.body = raw.body;
      if (raw.files !== undefined) req.files = raw.files;
      return next.handle().pipe(
        catchError((err) => {
          if ((req as any)[REJECTED_BY_PIPES] === true) this.removeFilesLater(raw, reply.raw, req.files);
          return throwError(() => err);
        }),
      );
    }

    private removeFilesLater(raw: RawUploadRequest, res: ServerResponse, files: unknown) {
      // multer's own storage: the one of the options, or its memory storage.
      const storage = (this.multer as unknown as { storage?: multer.StorageEngine }).storage;
      if (!storage || !Array.isArray(files)) return;
      // After the response: an exception filter may still read the files.
      onResponseClose(res, () => {
        for (const file of files) {
          try {
            storage._removeFile(raw as any, file, () => undefined);
          } catch {
            // The request has failed already.
          }
        }
      });
    }
  }
  return mixin(AnyFilesUploadInterceptor);
}

function withoutNil<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}
