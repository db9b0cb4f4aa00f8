import { QueryClient } from "@tanstack/react-query";
import { call, api } from "../api/client";
import { ApiError } from "../api/errors";
import type { ApiKey } from "../api/query";
import type { User } from "../api/types";
import { sessionHint } from "../lib/sessionHint";

export const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } },
});

/** GET /api/profile's cache key (see api/query.ts `ApiKey`). */
export const PROFILE_KEY = ["/api/profile"] as const satisfies ApiKey;

/** GET /api/profile, shared by the auth check, the header and the profile page. */
export async function fetchProfile(): Promise<User> {
  try {
    const res = await call(api.GET("/api/profile"), { silent: true });
    sessionHint.set();
    return res.data;
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 401) sessionHint.clear();
    throw err;
  }
}
