import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { QueryFailedError } from 'typeorm';
import { requestIdOf } from './request-context';
import { FieldError, NUL_MESSAGE } from './validation';

/** Every error the API answers: the UI shows `message`; integrators branch on `code`. */
export interface ErrorBody {
  statusCode: number;
  code: string;
  message: string;
  requestId?: string;
  /** Present on `validation_failed`: one entry per invalid field. */
  errors?: FieldError[];
  /** Facts of the error for programs (an exception's `details` object), e.g. the items in the way. */
  details?: Record<string, unknown>;
}

/** The code of an error that names none of its own: what its status means. */
export const STATUS_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  409: 'conflict',
  410: 'gone',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

export const codeForStatus = (status: number) => STATUS_CODES[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');

/**
 * The upload parser's refusals (common/multipart.ts turns multer's errors into 400/413 with multer's
 * message, "- field" appended when it names one): each gets a code of its own.
 */
const UPLOAD_CODES: Array<[RegExp, string]> = [
  [/^File too large/, 'file_too_large'],
  [/^Too many files/, 'too_many_files'],
  [/^Too many parts/, 'too_many_parts'],
  [/^Too many fields/, 'too_many_fields'],
  [/^Field (name|value) too long/, 'field_too_long'],
  [/^Unexpected file field/, 'unexpected_file'],
  [/^(Field name missing|Field name nesting too deep|Field name array index too large|Invalid field name|Multipart: )/, 'invalid_multipart'],
];

const uploadCode = (message: string) => UPLOAD_CODES.find(([pattern]) => pattern.test(message))?.[1];

/**
 * Every error leaves the API as `{ statusCode, code, message, requestId, errors?, details? }`: the
 * exception's own code when it names one, else the upload parser's, else its status's.
 * A failure that is no HttpException answers 500 `internal_error` with a fixed message; its
 * details go to the log (with the request id), never to the client.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<FastifyReply>();
    if (res.sent) return;
    const body = this.describe(exception);
    const requestId = requestIdOf(http.getRequest<FastifyRequest>());
    res.status(body.statusCode).send({
      statusCode: body.statusCode,
      code: body.code,
      message: body.message,
      requestId,
      ...(body.errors ? { errors: body.errors } : {}),
      ...(body.details ? { details: body.details } : {}),
    });
  }

  /** The status, code, message (and field errors) of an exception. */
  describe(exception: unknown): Omit<ErrorBody, 'requestId'> {
    const e = exception as { code?: string } | undefined;
    if (exception instanceof HttpException) {
      const statusCode = exception.getStatus();
      const response = exception.getResponse();
      let message = 'An error occurred';
      let code: string | undefined;
      let errors: FieldError[] | undefined;
      let details: Record<string, unknown> | undefined;
      if (typeof response === 'string') message = response;
      else if (response && typeof response === 'object') {
        const b = response as { message?: string | string[]; code?: unknown; error?: string; errors?: unknown; details?: unknown };
        message = Array.isArray(b.message) ? b.message.join('. ') : (b.message ?? b.error ?? message);
        if (typeof b.code === 'string') code = b.code;
        if (Array.isArray(b.errors)) errors = b.errors as FieldError[];
        // Only an explicit `details` object leaves the server: other keys of an exception's body stay in.
        if (b.details && typeof b.details === 'object' && !Array.isArray(b.details)) details = b.details as Record<string, unknown>;
      }
      code ??= uploadCode(message);
      // The body limit of the JSON parser (the framework's own words otherwise).
      if (!code && statusCode === HttpStatus.PAYLOAD_TOO_LARGE) message = 'The request body is too large';
      code ??= codeForStatus(statusCode);
      return { statusCode, code, message, ...(errors ? { errors } : {}), ...(details ? { details } : {}) };
    }
    if (exception instanceof QueryFailedError && e?.code === '22P02') {
      // An id that is not a uuid is simply not found.
      return { statusCode: HttpStatus.NOT_FOUND, code: 'not_found', message: 'Not found' };
    }
    if (exception instanceof QueryFailedError && ['22021', '22P05'].includes(e?.code ?? '')) {
      // A NUL the validation pipe could not see (a multipart file name): PostgreSQL refuses it.
      return { statusCode: HttpStatus.BAD_REQUEST, code: 'nul_character', message: NUL_MESSAGE };
    }
    if (isOverloaded(exception)) {
      // No pool connection within DB_POOL_ACQUIRE_TIMEOUT_MS, or a statement past
      // DB_STATEMENT_TIMEOUT_MS: the server is busy, not broken; the client may retry.
      this.logger.warn(`busy: ${(exception as Error).message}`);
      return { statusCode: HttpStatus.SERVICE_UNAVAILABLE, code: 'busy', message: 'The server is busy. Please try again in a moment.' };
    }
    this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    return { statusCode: HttpStatus.INTERNAL_SERVER_ERROR, code: 'internal_error', message: 'An error occurred' };
  }
}

/** node-postgres' pool acquire timeout, or PostgreSQL cancelling a statement for its timeout. */
function isOverloaded(e: unknown): boolean {
  const err = e as { message?: string; code?: string; driverError?: { message?: string } } | undefined;
  const message = err?.message ?? '';
  return /timeout exceeded when trying to connect/i.test(message) || (e instanceof QueryFailedError && err?.code === '57014');
}
