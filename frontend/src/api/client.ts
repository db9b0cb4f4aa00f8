import createClient, { type Middleware } from "openapi-fetch";
import { toast } from "../lib/toast";
import { ApiError, DEFAULT_ERROR, messageOf } from "./errors";
import type { paths } from "./schema";

/**
 * The typed API client: every path, parameter, body and response comes from the schema
 * generated from docs/openapi.json (`npm run openapi`), so a changed endpoint breaks the
 * build instead of a screen. Cookies are sent, and the custom header is what the server's
 * cross-site check looks for on mutations.
 */
const sameOriginHeaders: Middleware = {
  onRequest({ request }) {
    request.headers.set("X-Requested-With", "XMLHttpRequest");
    request.headers.set("Accept", "application/json");
    return request;
  },
};

export const api = createClient<paths>({
  baseUrl: globalThis.location?.origin ?? "",
  credentials: "include",
  // Looked up per call (not captured once) so tests can stub the global fetch.
  fetch: (request) => globalThis.fetch(request),
});
api.use(sameOriginHeaders);

export interface CallOptions {
  /** Skip the error toast when the caller shows the error itself (or Refine does). */
  silent?: boolean;
}

/**
 * Awaits an `api.GET/POST/...` call and returns its typed body, or throws an `ApiError`
 * carrying the server's `{statusCode, code, message, requestId}` (toasted unless `silent`).
 */
export async function call<D>(
  request: Promise<{ data?: D; error?: unknown; response: Response }>,
  options: CallOptions = {},
): Promise<D> {
  let result: Awaited<typeof request>;
  try {
    result = await request;
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    const error = new ApiError(DEFAULT_ERROR, 0);
    if (!options.silent) toast.error(error.message);
    throw error;
  }
  if (!result.response.ok) {
    const body = result.error;
    const error = new ApiError(messageOf(body), result.response.status, (body as { code?: string } | null)?.code);
    if (!options.silent) toast.error(error.message);
    throw error;
  }
  return result.data as D;
}
