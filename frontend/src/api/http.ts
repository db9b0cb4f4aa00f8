import { toast } from "../lib/toast";

export const DEFAULT_ERROR = "An error occurred";

/** The server's error body is `{statusCode, message, code?}`; this carries it to the UI. */
export class ApiError extends Error {
  constructor(
    message: string,
    public readonly statusCode: number,
    public readonly code?: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export type Query = Record<string, string | number | boolean | null | undefined | Array<string | number>>;

export interface HttpOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  query?: Query;
  body?: unknown;
  /** Skip the error toast when the caller shows the error itself (or Refine does). */
  silent?: boolean;
  signal?: AbortSignal;
}

export function buildQuery(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === "") continue;
    if (Array.isArray(value)) value.forEach((v) => params.append(key, String(v)));
    else params.append(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : "";
}

/** NestJS may send `message` as an array of validation messages. */
function messageOf(body: unknown): string {
  const message = (body as { message?: unknown } | null)?.message;
  if (Array.isArray(message) && message.length) return message.join(", ");
  if (typeof message === "string" && message.trim()) return message;
  return DEFAULT_ERROR;
}

/**
 * Every call to our API goes through here: cookies are sent, and the custom header is
 * what the server's cross-site check looks for on mutations.
 */
export async function http<T = unknown>(path: string, options: HttpOptions = {}): Promise<T> {
  const { method = "GET", query, body, silent = false, signal } = options;
  const isForm = typeof FormData !== "undefined" && body instanceof FormData;
  const headers: Record<string, string> = { "X-Requested-With": "XMLHttpRequest", Accept: "application/json" };
  if (body !== undefined && !isForm) headers["Content-Type"] = "application/json";

  let response: Response;
  try {
    response = await fetch(`/api${path}${buildQuery(query)}`, {
      method,
      headers,
      credentials: "include",
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    const error = new ApiError(DEFAULT_ERROR, 0);
    if (!silent) toast.error(error.message);
    throw error;
  }

  const text = await response.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
  }
  if (!response.ok) {
    const error = new ApiError(messageOf(parsed), response.status, (parsed as { code?: string } | null)?.code);
    if (!silent) toast.error(error.message);
    throw error;
  }
  return parsed as T;
}

/** Single responses are `{data, message?}`. */
export interface Envelope<T> {
  data: T;
  message?: string;
}

/** Lists are `{data, pagination:{totalDocuments,totalPages}}`. */
export interface ListEnvelope<T> {
  data: T[];
  pagination: { totalDocuments: number; totalPages: number };
}
