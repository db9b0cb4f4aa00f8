import type { ReactNode } from "react";
import { Authenticated } from "@refinedev/core";
import { Navigate, Outlet } from "react-router";
import { sessionHint } from "../../lib/sessionHint";
import { FullScreenSpinner } from "../common/Spinners";
import { NotAuthorized } from "../common/StatusPages";
import { useProfile } from "../../hooks/useProfile";

/** Protected pages: the server decides (GET /api/profile); otherwise back to "/". */
export function RequireAuth({ children }: { children?: ReactNode }) {
  return (
    <Authenticated key="protected" fallback={<Navigate to="/" replace />} loading={<FullScreenSpinner />}>
      {children ?? <Outlet />}
    </Authenticated>
  );
}

/**
 * Public pages a signed-in user should not see (/, sign-in, sign-up, forgot password):
 * they go to `redirectTo`. The decision uses only the session hint, never a profile
 * request (spec: auth pages do not fetch the profile). A stale hint (the session ended
 * elsewhere) costs one hop: the protected page's 401 clears it and sends the visitor
 * back to "/", which then shows.
 */
export function GuestOnly({ redirectTo, children }: { redirectTo: string; children?: ReactNode }) {
  if (sessionHint.get()) return <Navigate to={redirectTo} replace />;
  return <>{children ?? <Outlet />}</>;
}

/** Admin-only screens show the spec's message to everybody else. */
export function AdminOnly({ children }: { children?: ReactNode }) {
  const { profile, isLoading } = useProfile();
  if (isLoading) return <FullScreenSpinner />;
  if (profile?.role !== "admin") return <NotAuthorized />;
  return <>{children ?? <Outlet />}</>;
}
