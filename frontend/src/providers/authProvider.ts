import type { AuthProvider } from "@refinedev/core";
import { api, call } from "../api/client";
import { ApiError } from "../api/errors";
import type { User } from "../api/types";
import { sessionHint } from "../lib/sessionHint";
import { PROFILE_KEY, fetchProfile, queryClient } from "./queryClient";

export interface LoginParams {
  email: string;
  password: string;
}

// The check reuses a profile fetched moments ago (e.g. by the header) instead of asking
// again on every route change.
const CHECK_STALE_MS = 5_000;

export const authProvider: AuthProvider = {
  async login({ email, password }: LoginParams) {
    try {
      const res = await call(api.POST("/api/login", { body: { email, password } }), { silent: true });
      sessionHint.set();
      queryClient.setQueryData(PROFILE_KEY, res.data);
      return { success: true, redirectTo: "/dashboard" };
    } catch (err) {
      const message = err instanceof ApiError ? err.message : "An error occurred";
      return { success: false, error: { name: "Login failed", message, code: (err as ApiError).code } as Error };
    }
  },

  async logout() {
    await call(api.POST("/api/logout"), { silent: true }).catch(() => undefined);
    sessionHint.clear();
    queryClient.removeQueries({ queryKey: PROFILE_KEY });
    queryClient.clear();
    return { success: true, redirectTo: "/" };
  },

  async check() {
    try {
      await queryClient.fetchQuery({ queryKey: PROFILE_KEY, queryFn: fetchProfile, staleTime: CHECK_STALE_MS, retry: false });
      return { authenticated: true };
    } catch (err) {
      if (err instanceof ApiError && err.statusCode === 401) return { authenticated: false, logout: true, redirectTo: "/" };
      return { authenticated: false, redirectTo: "/", error: err as Error };
    }
  },

  async onError(error) {
    if (error?.statusCode === 401) {
      sessionHint.clear();
      return { logout: true, redirectTo: "/" };
    }
    return {};
  },

  async getIdentity() {
    return queryClient.fetchQuery({ queryKey: PROFILE_KEY, queryFn: fetchProfile, staleTime: CHECK_STALE_MS, retry: false }).catch(() => null);
  },

  async getPermissions() {
    const profile = queryClient.getQueryData<User>(PROFILE_KEY);
    return profile?.role ?? null;
  },
};
