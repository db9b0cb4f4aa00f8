import { BadRequestException, ForbiddenException, HttpException, Logger, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { HttpExceptionFilter } from './http-exception.filter';

/** The one error shape, whatever was thrown. */
describe('HttpExceptionFilter', () => {
  function answer(exception: unknown, req: object = { requestId: 'req-1' }) {
    const res: any = { sent: false, status: jest.fn(() => res), send: jest.fn() };
    new HttpExceptionFilter().catch(exception, { switchToHttp: () => ({ getResponse: () => res, getRequest: () => req }) } as any);
    return { status: res.status.mock.calls[0][0], body: res.send.mock.calls[0][0] };
  }

  it.each(['22021', '22P05'])('PostgreSQL %s (a NUL in text or jsonb) → 400 nul_character', (code) => {
    const e = Object.assign(new QueryFailedError('INSERT …', [], new Error('invalid byte sequence for encoding "UTF8": 0x00')), { code });
    expect(answer(e)).toEqual({
      status: 400,
      body: { statusCode: 400, code: 'nul_character', message: 'Text must not contain NUL characters (\\u0000)', requestId: 'req-1' },
    });
  });

  it("keeps a route's own code; names the others by their status", () => {
    expect(answer(new BadRequestException({ message: 'Not enough credits', code: 'insufficient_credits' })).body).toEqual({
      statusCode: 400,
      code: 'insufficient_credits',
      message: 'Not enough credits',
      requestId: 'req-1',
    });
    expect(answer(new NotFoundException('Print not found')).body).toMatchObject({ code: 'not_found', message: 'Print not found' });
    expect(answer(new ForbiddenException('You are not authorized to view this page')).body).toMatchObject({ code: 'forbidden' });
    expect(answer(new HttpException('Too many attempts. Please try again later.', 429)).body).toMatchObject({ code: 'rate_limited' });
    expect(answer(new HttpException('Teapot', 418)).body).toMatchObject({ code: 'bad_request' });
  });

  it('passes on the field errors of a validation failure', () => {
    const errors = [{ field: 'name', code: 'required', message: 'Name is required' }];
    expect(answer(new BadRequestException({ message: 'Name is required', code: 'validation_failed', errors })).body).toEqual({
      statusCode: 400,
      code: 'validation_failed',
      message: 'Name is required',
      requestId: 'req-1',
      errors,
    });
  });

  it('passes on an explicit details object, and no other key of the exception body', () => {
    const details = { orderItems: [{ _id: 'i1', printIds: ['p1'] }] };
    expect(answer(new BadRequestException({ message: 'In a print', code: 'order_item_in_print', details, internal: 'x' })).body).toEqual({
      statusCode: 400,
      code: 'order_item_in_print',
      message: 'In a print',
      requestId: 'req-1',
      details,
    });
    expect(answer(new BadRequestException({ message: 'No', details: ['not', 'an', 'object'] })).body).not.toHaveProperty('details');
  });

  it("gives the upload parser's refusals their own codes", () => {
    expect(answer(new BadRequestException('Too many files')).body.code).toBe('too_many_files');
    expect(answer(new BadRequestException('Unexpected file field - avatar')).body.code).toBe('unexpected_file');
    expect(answer(new PayloadTooLargeException('File too large')).body.code).toBe('file_too_large');
    expect(answer(new BadRequestException('Multipart: Unexpected end of form')).body.code).toBe('invalid_multipart');
  });

  it('answers anything else as 500 internal_error without its details, which go to the log', () => {
    const log = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      const res = answer(new Error('connect ECONNREFUSED 10.0.0.5:5432 at /srv/app/dist/db.js'));
      expect(res).toEqual({ status: 500, body: { statusCode: 500, code: 'internal_error', message: 'An error occurred', requestId: 'req-1' } });
      expect(log).toHaveBeenCalledWith(expect.stringContaining('ECONNREFUSED'));
    } finally {
      log.mockRestore();
    }
  });

  it("answers the framework's refusal of a body over the limit in our words", () => {
    // Fastify's FST_ERR_CTP_BODY_TOO_LARGE, as Nest passes it on to the filters
    expect(answer(new HttpException('Request body is too large', 413)).body).toMatchObject({
      statusCode: 413,
      code: 'payload_too_large',
      message: 'The request body is too large',
    });
  });
});
