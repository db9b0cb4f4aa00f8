import { Response } from 'express';
import { pipeline } from 'node:stream/promises';
import type { SheetFile } from './print-files.service';

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
