import { QueryClient } from "@tanstack/react-query";
import { call, api } from "../api/client";
import { ApiError } from "../api/errors";
import type { User } from "../api/types";
import { sessionHint } from "../lib/sessionHint";

export const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } },
});

export const PROFILE_KEY = ["profile"] as const;

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
