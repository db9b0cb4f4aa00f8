import { createHmac, timingSafeEqual } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, paths };
export type Schemas = components['schemas'];
export type Print = Schemas['PrintDto'];
export type Image = Schemas['ImageDto'];
export type GangSheetClient = Client<paths>;

/** An API answer that is not a 2xx: the error body's fields, for programs and for people. */
export class GangSheetError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    readonly errors: Array<{ field: string; code: string; message: string }> = [],
  ) {
    super(message);
    this.name = 'GangSheetError';
  }
}

export interface GangSheetOptions {
  /** Where the app runs, e.g. https://gangsheet.example.com (no trailing /api). */
  baseUrl: string;
  /** A gsk_… key from the profile's API keys. */
  apiKey: string;
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: typeof fetch;
}

/** The typed client: every path, parameter, body and answer comes from docs/openapi.json. */
export function createGangSheet({ baseUrl, apiKey, fetch: fetchImpl }: GangSheetOptions): GangSheetClient {
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${apiKey}` },
    ...(fetchImpl && { fetch: fetchImpl }),
  });
}

/**
 * The body of a successful call, or a GangSheetError with the server's code and message:
 * `const { data } = await ok(gs.GET('/api/print/{id}', { params: { path: { id } } }))`.
 */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok && data !== undefined) return data;
  const e = (error ?? {}) as { code?: string; message?: string; requestId?: string; errors?: GangSheetError['errors'] };
  throw new GangSheetError(response.status, e.code ?? 'unknown', e.message ?? `HTTP ${response.status}`, e.requestId ?? response.headers.get('request-id'), e.errors ?? []);
}

export interface UploadFile {
  name: string;
  data: Blob | ArrayBuffer | Uint8Array;
  /** MIME type; image/png when not given. */
  type?: string;
}

/**
 * Uploads artwork in one multipart request (field `files`) and returns the new images; they are
 * `processing` until inspected, and a print may use them at once. The idempotency key makes a
 * retry after a network error answer the first upload instead of uploading twice.
 */
export async function uploadFiles(gs: GangSheetClient, files: UploadFile[], opts: { idempotencyKey?: string; imageCategoryId?: string } = {}): Promise<Image[]> {
  const blobs = files.map((f) => (f.data instanceof Blob ? f.data : new Blob([f.data as BlobPart], { type: f.type ?? 'image/png' })));
  const res = await ok(
    gs.POST('/api/images/bulk-upload', {
      params: { header: opts.idempotencyKey ? { 'Idempotency-Key': opts.idempotencyKey } : {} },
      body: { files: blobs, ...(opts.imageCategoryId && { imageCategoryId: opts.imageCategoryId }) },
      bodySerializer(body) {
        const form = new FormData();
        body.files.forEach((b, i) => form.append('files', b, files[i].name));
        if (body.imageCategoryId) form.append('imageCategoryId', body.imageCategoryId);
        return form;
      },
    }),
  );
  return res.data;
}

/**
 * Polls a print until it leaves Processing: resolves with the Completed print, rejects with the
 * print's error when it failed (credits refunded) or when `timeoutMs` passes.
 */
export async function waitForPrint(gs: GangSheetClient, id: string, opts: { intervalMs?: number; timeoutMs?: number } = {}): Promise<Print> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10 * 60_000);
  for (;;) {
    const { data: print } = await ok(gs.GET('/api/print/{id}', { params: { path: { id } } }));
    if (print.status === 'Completed') return print;
    if (print.status !== 'Processing') throw new GangSheetError(409, 'print_not_completed', print.error ?? `The print is ${print.status}`, null);
    if (Date.now() > deadline) throw new GangSheetError(408, 'timeout', `The print was still processing after ${opts.timeoutMs} ms`, null);
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 2000));
  }
}

/**
 * Checks a webhook delivery's GangSheet-Signature header against the endpoint's whsec_… secret,
 * on the raw body as received (before JSON parsing). Any `v1` may match: during a secret's
 * overlap both the old and the new secret sign.
 */
export function verifyWebhook(secret: string, header: string, rawBody: string | Uint8Array, toleranceSeconds = 300): boolean {
  const parts = header.split(',').map((p) => p.split('=') as [string, string]);
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!t || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();
  return parts.some(([k, v]) => {
    const given = Buffer.from(k === 'v1' ? v : '', 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** Downloads a file URL of a print (a webhook's `files[].url` or a print's file path) with the key. */
export async function downloadFile(opts: GangSheetOptions, url: string): Promise<Uint8Array> {
  const absolute = new URL(url, opts.baseUrl);
  const res = await (opts.fetch ?? fetch)(absolute, { headers: { Authorization: `Bearer ${opts.apiKey}` }, redirect: 'follow' });
  if (!res.ok) throw new GangSheetError(res.status, 'download_failed', `Downloading ${absolute.pathname} answered HTTP ${res.status}`, res.headers.get('request-id'));
  return new Uint8Array(await res.arrayBuffer());
}
