import { applyDecorators } from '@nestjs/common';
import { ApiFoundResponse, ApiOkResponse, ApiProduces } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import type { SheetFile } from './print-files.service';
import { ApiError } from '../common/api-errors';

/**
 * Answers a sheet download: a redirect (302) to the signed URL of a bucket's file, so the API
 * never proxies it; or the local file streamed with `headers`. Handlers using it take
 * `@Res()` (not passthrough): the status of a redirect is theirs to set.
 *
 * The stream goes to Fastify (`reply.send`): an error before the first byte reaches the
 * exception filter through the error handler; after it, Fastify destroys the response (the
 * client sees a cut transfer, never a 200 with a short body); a client that goes away
 * destroys the file stream. Resolves once the response is over (`await reply`): an async
 * handler that returned earlier, with no byte written yet, would have Fastify send an empty
 * reply of its own.
 */
export async function sendSheetFile(reply: FastifyReply, f: SheetFile, headers: Record<string, string>): Promise<void> {
  if (f.url !== undefined) {
    reply.headers({ 'Cache-Control': 'no-store', 'X-Robots-Tag': headers['X-Robots-Tag'] ?? 'noindex' });
    await reply.redirect(f.url, 302);
    return;
  }
  reply.headers({ ...headers, 'Content-Type': f.type, 'Content-Length': String(f.bytes) });
  if (reply.request.method === 'HEAD') {
    // The file's headers without reading it: Fastify's HEAD route drains a stream payload to
    // its end, and answers Content-Length: 0 to no payload. An empty stream keeps the file's
    // Content-Length.
    f.stream.destroy();
    await reply.send(Readable.from([]));
    return;
  }
  await reply.send(f.stream);
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
