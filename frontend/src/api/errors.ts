export const DEFAULT_ERROR = "An error occurred";

/** The server's error body is `{statusCode, code, message, requestId, errors?}`; this carries it to the UI. */
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

/** NestJS may send `message` as an array of validation messages. */
export function messageOf(body: unknown): string {
  const message = (body as { message?: unknown } | null)?.message;
  if (Array.isArray(message) && message.length) return message.join(", ");
  if (typeof message === "string" && message.trim()) return message;
  return DEFAULT_ERROR;
}
