import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { Response } from 'express';
import { QueryFailedError } from 'typeorm';
import { NUL_MESSAGE } from './validation';

/** Every error leaves the API as `{ statusCode, message, code? }` with a message the UI can toast. */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    let statusCode: number = HttpStatus.INTERNAL_SERVER_ERROR;
    let message = 'An error occurred';
    let code: string | undefined;

    if (exception instanceof HttpException) {
      statusCode = exception.getStatus();
      const body = exception.getResponse();
      if (typeof body === 'string') message = body;
      else if (body && typeof body === 'object') {
        const b = body as { message?: string | string[]; code?: string; error?: string };
        message = Array.isArray(b.message) ? b.message.join('. ') : (b.message ?? b.error ?? message);
        code = b.code;
      }
    } else if (exception instanceof QueryFailedError && (exception as any).code === '22P02') {
      // An id that is not a uuid is simply not found.
      statusCode = HttpStatus.NOT_FOUND;
      message = 'Not found';
    } else if (exception instanceof QueryFailedError && ['22021', '22P05'].includes((exception as any).code)) {
      // A NUL the validation pipe could not see (a multipart file name): PostgreSQL refuses it.
      statusCode = HttpStatus.BAD_REQUEST;
      message = NUL_MESSAGE;
      code = 'nul_character';
    } else if ((exception as any)?.type === 'entity.parse.failed') {
      statusCode = HttpStatus.BAD_REQUEST;
      message = 'The request body is not valid JSON';
    } else if ((exception as any)?.type === 'entity.too.large') {
      statusCode = HttpStatus.PAYLOAD_TOO_LARGE;
      message = 'The request body is too large';
    } else if (isOverloaded(exception)) {
      // No pool connection within DB_POOL_ACQUIRE_TIMEOUT_MS, or a statement past
      // DB_STATEMENT_TIMEOUT_MS: the server is busy, not broken; the client may retry.
      this.logger.warn(`busy: ${(exception as Error).message}`);
      statusCode = HttpStatus.SERVICE_UNAVAILABLE;
      message = 'The server is busy. Please try again in a moment.';
      code = 'busy';
    } else {
      this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    }
    res.status(statusCode).json(code ? { statusCode, message, code } : { statusCode, message });
  }
}

/** node-postgres' pool acquire timeout, or PostgreSQL cancelling a statement for its timeout. */
function isOverloaded(e: unknown): boolean {
  const err = e as { message?: string; code?: string; driverError?: { message?: string } } | undefined;
  const message = err?.message ?? '';
  return /timeout exceeded when trying to connect/i.test(message) || (e instanceof QueryFailedError && err?.code === '57014');
}
