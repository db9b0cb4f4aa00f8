import { ConsoleLogger, Logger } from '@nestjs/common';
import { currentRequestId, REQUEST_ID_PATTERN, requestContext, RequestLogger } from './request-context';

describe('request context', () => {
  function run(headers: Record<string, string>, then: () => void = () => undefined) {
    const set: Record<string, string> = {};
    const req: any = { headers };
    const res: any = { setHeader: (k: string, v: string) => (set[k] = v) };
    let inside: string | undefined;
    requestContext()(req, res, () => {
      inside = currentRequestId();
      then();
    });
    return { header: set['Request-Id'], onRequest: req.requestId, inside };
  }

  it("reuses a valid X-Request-Id, else makes one; the id is the handler's context", () => {
    expect(run({ 'x-request-id': 'abc-123:4.5_6' })).toEqual({ header: 'abc-123:4.5_6', onRequest: 'abc-123:4.5_6', inside: 'abc-123:4.5_6' });
    for (const bad of ['with space', 'x'.repeat(201), 'é', '']) {
      const r = run({ 'x-request-id': bad });
      expect(r.header).not.toBe(bad);
      expect(r.header).toMatch(REQUEST_ID_PATTERN);
      expect(r.inside).toBe(r.header);
    }
    expect(currentRequestId()).toBeUndefined();
  });

  it('keeps the id across awaits inside the request', async () => {
    let later: string | undefined;
    await new Promise<void>((done) =>
      run({ 'x-request-id': 'async-1' }, () => {
        void (async () => {
          await new Promise((r) => setTimeout(r, 5));
          later = currentRequestId();
          done();
        })();
      }),
    );
    expect(later).toBe('async-1');
  });

  it('RequestLogger writes the id in every line of the request, and none outside', () => {
    const logger = new RequestLogger({ colors: false });
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      Logger.overrideLogger(logger);
      run({ 'x-request-id': 'log-7' }, () => new Logger('Prints').log('queued'));
      new Logger('Prints').log('idle');
      const lines = write.mock.calls.map((c) => String(c[0]));
      expect(lines.find((l) => l.includes('queued'))).toContain('[Prints] [req log-7] queued');
      expect(lines.find((l) => l.includes('idle'))).not.toContain('[req');
    } finally {
      write.mockRestore();
      Logger.overrideLogger(new ConsoleLogger());
    }
  });

  it('adds requestId to JSON log lines', () => {
    const logger = new RequestLogger({ json: true, colors: false });
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      run({ 'x-request-id': 'json-1' }, () => logger.log('hello', 'Ctx'));
      expect(JSON.parse(String(write.mock.calls[0][0]))).toMatchObject({ message: 'hello', context: 'Ctx', requestId: 'json-1' });
    } finally {
      write.mockRestore();
    }
  });
});
