import { ExpressAdapter } from '@nestjs/platform-express';
import express, { type Request, type Response } from 'express';
import request from 'supertest';
import { answerJsonDirectly } from './json-reply';

/** Answers written directly are the answers Nest's reply (res.json) gives, byte for byte. */
describe('answerJsonDirectly', () => {
  const bodies: Record<string, [unknown, number | undefined]> = {
    object: [{ data: [{ _id: 'a', at: new Date(0), n: 1.5, nested: { x: null } }], text: 'é "quoted" \u2028' }, undefined],
    created: [{ data: { _id: 'b' } }, 201],
    array: [[1, 'two', { three: 3 }], undefined],
    refused: [{ statusCode: 400, code: 'upload_refused', message: 'No' }, 400],
    noContent: [{ ignored: true }, 204],
    undefinedJson: [{ toJSON: () => undefined }, undefined],
  };

  function app(direct: boolean) {
    const adapter = new ExpressAdapter(express());
    adapter.set('etag', false);
    if (direct) answerJsonDirectly(adapter);
    const http = adapter.getInstance<express.Express>();
    http.all('/:name', (req: Request, res: Response) => {
      const [body, status] = bodies[String(req.params.name)];
      if (req.query.type) res.setHeader('Content-Type', 'application/vnd.test+json');
      adapter.reply(res, body, status);
    });
    return http;
  }
  const direct = app(true);
  const viaNest = app(false);
  const keep = ['content-type', 'content-length'];
  const answer = async (r: request.Test) => {
    const res = await r.buffer(true).parse((stream, done) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
    });
    return { status: res.status, headers: Object.fromEntries(keep.map((h) => [h, res.headers[h]])), body: res.body };
  };

  it.each(Object.keys(bodies))('%s: the same status, Content-Type, Content-Length and bytes', async (name) => {
    for (const method of ['get', 'head'] as const) {
      expect(await answer(request(direct)[method](`/${name}`))).toEqual(await answer(request(viaNest)[method](`/${name}`)));
    }
  });

  it('leaves a Content-Type the handler set to Nest', async () => {
    expect(await answer(request(direct).get('/object?type=1'))).toEqual(await answer(request(viaNest).get('/object?type=1')));
  });
});
