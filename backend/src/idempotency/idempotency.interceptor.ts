import { BadRequestException, CallHandler, ExecutionContext, HttpException, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { catchError, defer, mergeMap, Observable, of } from 'rxjs';
import { IdempotencyService, StoredResponse } from './idempotency.service';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

interface UploadedFile {
  fieldname: string;
  originalname?: string;
  size?: number;
  path?: string;
  buffer?: Buffer;
}

/**
 * Applied by @Idempotent() to POST routes that create or spend. Without the header it does
 * nothing. With it, the request's fingerprint (method, path, body and the content of any
 * uploaded file) decides: first use runs the route, a repeat gets the first answer again
 * (header `Idempotent-Replayed: true`), a different request with the same key gets 422.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly store: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<FastifyRequest & { user?: { _id: string } }>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const raw = req.headers[IDEMPOTENCY_HEADER];
    if (raw === undefined || !req.user) return next.handle();
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (!KEY_PATTERN.test(key))
      throw new BadRequestException({ message: 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is a good choice).', code: 'invalid_idempotency_key' });
    const userId = req.user._id;
    const explicitStatus: number | undefined = Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler());
    return defer(async () => {
      const claim = await this.store.claim(userId, key, await fingerprint(req));
      if (claim.kind === 'replay') {
        reply.header('Idempotent-Replayed', 'true');
        const r = claim.response;
        if (r.error) throw new HttpException(r.body as object, r.status);
        reply.status(r.status);
        return of(r.body);
      }
      return next.handle().pipe(
        mergeMap(async (body) => {
          const status = reply.statusCode !== 200 ? reply.statusCode : (explicitStatus ?? (req.method === 'POST' ? 201 : 200));
          // Stored as JSON, answered as stored: the replay is byte for byte the same body.
          const json = body === undefined ? null : JSON.parse(JSON.stringify(body));
          await this.store.complete(userId, key, { status, body: json });
          return json;
        }),
        catchError(async (e) => {
          if (e instanceof HttpException && e.getStatus() < 500) {
            const stored: StoredResponse = { status: e.getStatus(), body: e.getResponse(), error: true };
            await this.store.complete(userId, key, stored);
          } else await this.store.release(userId, key);
          throw e;
        }),
      );
    }).pipe(mergeMap((o) => o));
  }
}

async function fingerprint(req: FastifyRequest & { files?: unknown; file?: unknown }): Promise<string> {
  const h = createHash('sha256');
  // The path as sent, without the query string (what Express's baseUrl + path was): `POST /api/...`.
  h.update(`${req.method} ${requestPath(req.url)}\n`);
  h.update(canonicalJson(req.body ?? null));
  const files: UploadedFile[] = Array.isArray(req.files) ? req.files : req.file ? [req.file as UploadedFile] : [];
  for (const f of files) {
    h.update(`\n${f.fieldname}\0${f.originalname ?? ''}\0${f.size ?? ''}\0`);
    if (f.buffer) h.update(f.buffer);
    else if (f.path) for await (const chunk of createReadStream(f.path)) h.update(chunk as Buffer);
  }
  return h.digest('hex');
}

/** The path of a request URL (`/api/prints?x=1` → `/api/prints`), as received (not decoded). */
export function requestPath(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** JSON with sorted keys, so {"a":1,"b":2} and {"b":2,"a":1} are the same request. */
export function canonicalJson(v: unknown): string {
  const sort = (x: any): any =>
    Array.isArray(x) ? x.map(sort) : x && typeof x === 'object' ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, sort(x[k])])) : x;
  return JSON.stringify(sort(v)) ?? 'null';
}
