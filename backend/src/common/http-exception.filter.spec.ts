import { QueryFailedError } from 'typeorm';
import { HttpExceptionFilter } from './http-exception.filter';

/** The filter's backstop for a NUL byte the validation pipe could not see. */
describe('HttpExceptionFilter', () => {
  function answer(exception: unknown) {
    const res: any = { headersSent: false, status: jest.fn(() => res), json: jest.fn() };
    new HttpExceptionFilter().catch(exception, { switchToHttp: () => ({ getResponse: () => res }) } as any);
    return { status: res.status.mock.calls[0][0], body: res.json.mock.calls[0][0] };
  }

  it.each(['22021', '22P05'])('PostgreSQL %s (a NUL in text or jsonb) → 400 nul_character', (code) => {
    const e = Object.assign(new QueryFailedError('INSERT …', [], new Error('invalid byte sequence for encoding "UTF8": 0x00')), { code });
    expect(answer(e)).toEqual({ status: 400, body: { statusCode: 400, message: 'Text must not contain NUL characters (\\u0000)', code: 'nul_character' } });
  });
});
