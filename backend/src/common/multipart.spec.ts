import { Body, Controller, HttpException, INestApplication, ParseIntPipe, Post, Query, UploadedFiles, UseInterceptors } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import multer from 'multer';
import request from 'supertest';
import { AnyFilesUpload, closeArrayGaps, multipartException, MULTIPART_OPTIONS, MultipartOptions, registerMultipart } from './multipart';

type StoredFile = Express.Multer.File;
const seen: { files?: StoredFile[]; body?: unknown; store?: string } = {};
const als = new AsyncLocalStorage<string>();
const discard = (files: StoredFile[]) => Promise.all(files.map((f) => unlink(f.path).catch(() => undefined)));

@Controller()
class UploadController {
  @Post('upload')
  @UseInterceptors(AnyFilesUpload())
  async upload(@UploadedFiles() files: StoredFile[] | undefined, @Body() body: unknown) {
    seen.files = files;
    seen.body = body;
    seen.store = als.getStore();
    const described = (files ?? []).map((f) => ({ field: f.fieldname, name: f.originalname, size: f.size, bytes: readFileSync(f.path, 'utf8') }));
    await discard(files ?? []);
    return { files: described, body };
  }

  @Post('piped')
  @UseInterceptors(AnyFilesUpload())
  piped(@Query('n', ParseIntPipe) _n: number, @UploadedFiles() files: StoredFile[]) {
    return { count: files.length };
  }

  @Post('plain')
  plain(@Body() body: unknown) {
    return { body: body ?? null };
  }
}

describe('multipart uploads on Fastify (multer on the raw request)', () => {
  let app: INestApplication;
  let dir: string;
  const server = () => request(app.getHttpServer());

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gs-multipart-'));
    const options: MultipartOptions = {
      storage: multer.diskStorage({ destination: dir }),
      limits: { files: 2, fields: 3, fieldSize: 16, parts: 4, fileSize: 10 },
      defParamCharset: 'utf8',
    };
    const moduleRef = await Test.createTestingModule({
      controllers: [UploadController],
      providers: [{ provide: MULTIPART_OPTIONS, useFactory: () => options }],
    }).compile();
    app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
    const fastify = (app as NestFastifyApplication).getHttpAdapter().getInstance();
    registerMultipart(fastify);
    registerMultipart(fastify); // a second call is harmless
    fastify.addHook('onRequest', (req, _reply, done) => als.run(`ctx-${req.id}`, done));
    await app.init();
    await (app as NestFastifyApplication).getHttpAdapter().getInstance().ready();
  });

  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hands the files (an array, stored by the storage engine) and the text fields to the route', async () => {
    const res = await server()
      .post('/upload')
      .field('score', '3.5')
      .field('tags[5]', 'x')
      .attach('files', Buffer.from('hello'), 'é.png')
      .attach('file', Buffer.from('world!'), 'b.png')
      .expect(201);
    expect(res.body.files).toEqual([
      { field: 'files', name: 'é.png', size: 5, bytes: 'hello' },
      { field: 'file', name: 'b.png', size: 6, bytes: 'world!' },
    ]);
    // The gap a field name leaves in an array is closed.
    expect(res.body.body).toEqual({ score: '3.5', tags: ['x'] });
    expect(Object.getPrototypeOf(seen.body)).toBeNull();
    // The request's async context (request id, logger) survives multer's stream events.
    expect(seen.store).toMatch(/^ctx-/);
    expect(Array.isArray(seen.files)).toBe(true);
  });

  it.each([
    ['too many files', (r: request.Test) => r.attach('a', Buffer.from('1'), '1.png').attach('a', Buffer.from('2'), '2.png').attach('a', Buffer.from('3'), '3.png'), 'Too many files'],
    ['too many fields', (r: request.Test) => r.field('a', '1').field('b', '2').field('c', '3').field('d', '4'), 'Too many fields'],
    ['a field value too long', (r: request.Test) => r.field('name', 'x'.repeat(17)), 'Field value too long - name'],
    ['too many parts', (r: request.Test) => r.field('a', '1').field('b', '2').field('c', '3').attach('f', Buffer.from('1'), '1.png').attach('f', Buffer.from('2'), '2.png'), 'Too many parts'],
  ])('answers %s with 400 and multer’s message', async (_what, build, message) => {
    const res = await build(server().post('/upload')).expect(400);
    expect(res.body.message).toBe(message);
    // Nothing of a refused request is left on disk.
    expect(readdirSync(dir)).toEqual([]);
  });

  it('answers a file over limits.fileSize with 413 "File too large" (no field, as before)', async () => {
    const res = await server().post('/upload').attach('files', Buffer.from('far too large'), 'big.png').expect(413);
    expect(res.body.message).toBe('File too large');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('answers a truncated body with 400 "Multipart: Unexpected end of form"', async () => {
    const res = await server()
      .post('/upload')
      .set('Content-Type', 'multipart/form-data; boundary=XyZ')
      .send('--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue')
      .expect(400);
    expect(res.body.message).toBe('Multipart: Unexpected end of form');
  });

  it('answers a multipart type without a boundary with 400', async () => {
    const res = await server().post('/upload').set('Content-Type', 'multipart/form-data').send('x').expect(400);
    expect(res.body.message).toBe('Multipart: Boundary not found');
  });

  it('takes the media type in any case, with parameters', async () => {
    const res = await server()
      .post('/upload')
      .set('Content-Type', 'Multipart/Form-Data; charset=utf-8; boundary=XyZ')
      .send('--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue\r\n--XyZ--\r\n')
      .expect(201);
    expect(res.body).toEqual({ files: [], body: { a: 'value' } });
  });

  it('leaves any other body as Fastify parsed it', async () => {
    const res = await server().post('/upload').send({ score: 2 }).expect(201);
    expect(res.body).toEqual({ files: [], body: { score: 2 } });
    expect(seen.files).toBeUndefined();
  });

  it('lets a multipart request reach a route without the interceptor (body undefined, not 415)', async () => {
    const res = await server().post('/plain').field('a', '1').expect(201);
    expect(res.body).toEqual({ body: null });
  });

  it('removes the stored files when the route’s pipes reject the request', async () => {
    await server().post('/piped?n=x').attach('files', Buffer.from('abc'), 'a.png').expect(400);
    await new Promise((r) => setTimeout(r, 50));
    expect(readdirSync(dir)).toEqual([]);
    // The files of an accepted request stay for the handler (which discards them itself).
    await server().post('/piped?n=1').attach('files', Buffer.from('abc'), 'a.png').expect(201, { count: 1 });
    expect(readdirSync(dir)).toHaveLength(1);
    for (const f of readdirSync(dir)) rmSync(join(dir, f));
  });

  it('keeps the connection usable after a refused upload', async () => {
    const agent = request.agent(app.getHttpServer());
    await agent.post('/upload').field('name', 'x'.repeat(17)).expect(400);
    await agent.post('/upload').field('name', 'ok').expect(201);
  });
});

describe('multipartException', () => {
  const multerError = (code: string, message: string, field?: string) => Object.assign(new Error(message), { code, ...(field ? { field } : {}) });

  it('maps multer’s errors as @nestjs/platform-express did', () => {
    const tooLarge = multipartException(multerError('LIMIT_FILE_SIZE', 'File too large', 'files')) as HttpException;
    expect([tooLarge.getStatus(), tooLarge.message]).toEqual([413, 'File too large']);
    const unexpected = multipartException(multerError('LIMIT_UNEXPECTED_FILE', 'Unexpected file field', 'avatar')) as HttpException;
    expect([unexpected.getStatus(), unexpected.message]).toEqual([400, 'Unexpected file field - avatar']);
    const count = multipartException(multerError('LIMIT_FILE_COUNT', 'Too many files')) as HttpException;
    expect([count.getStatus(), count.message]).toEqual([400, 'Too many files']);
    const header = multipartException(new Error('Malformed part header')) as HttpException;
    expect([header.getStatus(), header.message]).toEqual([400, 'Multipart: Malformed part header']);
  });

  it('leaves a storage failure as it is (a 500)', () => {
    const e = multerError('STREAM_DESTROYED', 'File stream was destroyed');
    expect(multipartException(e)).toBe(e);
    const disk = new Error('ENOSPC');
    expect(multipartException(disk)).toBe(disk);
  });
});

describe('closeArrayGaps', () => {
  it('closes the gaps of nested arrays, keeping the order', () => {
    const body: any = Object.assign(Object.create(null), { a: [], b: { c: [] } });
    body.a[3] = 'x';
    body.a[9] = 'y';
    body.b.c[100] = 'z';
    closeArrayGaps(body);
    expect(body.a).toEqual(['x', 'y']);
    expect(body.b.c).toEqual(['z']);
  });
});
