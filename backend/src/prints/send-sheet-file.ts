import { applyDecorators } from '@nestjs/common';
import { ApiFoundResponse, ApiOkResponse, ApiProduces } from '@nestjs/swagger';
import { Response } from 'express';
import { pipeline } from 'node:stream/promises';
import type { SheetFile } from './print-files.service';
import { ApiError } from '../common/api-errors';

/**
 * Answers a sheet download: a redirect (302) to the signed URL of a bucket's file, so the API
 * never proxies it; or the local file streamed with `headers`. Handlers using it take
 * `@Res()` (not passthrough): the status of a redirect is theirs to set.
 */
export async function sendSheetFile(res: Response, f: SheetFile, headers: Record<string, string>): Promise<void> {
  if (f.url !== undefined) {
    res.set({ 'Cache-Control': 'no-store', 'X-Robots-Tag': headers['X-Robots-Tag'] ?? 'noindex' });
    res.redirect(302, f.url);
    return;
  }
  res.set({ ...headers, 'Content-Type': f.type, 'Content-Length': String(f.bytes) });
  if (res.req?.method === 'HEAD') {
    f.stream.destroy();
    res.end();
    return;
  }
  await pipeline(f.stream, res).catch((e) => {
    // a client that went away is not an error; a failure before the first byte goes to the filter
    if (!res.headersSent) throw e;
    res.destroy();
  });
}

/**
 * The documented answers of a sheet download: the file itself (200, local folder) or, with
 * files in a bucket, a redirect (302) whose Location is a short-lived signed URL of it.
 */
export const ApiSheetFile = (contentType: string) =>
  applyDecorators(
    ApiProduces(contentType),
    ApiOkResponse({ description: 'The file (files in the local folder)', content: { [contentType]: { schema: { type: 'string', format: 'binary' } } } }),
    ApiFoundResponse({
      description: 'Files in an S3-compatible bucket: Location is a signed URL of the file that expires within STORAGE_SIGNED_URL_SECONDS (follow it, e.g. curl -L)',
      headers: { Location: { description: 'The signed URL', schema: { type: 'string', format: 'uri' } } },
    }),
    ApiError(410, "The print's files have been deleted (their retention ended, or they were removed)", 'The files of this print have been deleted.', 'gone'),
  );
