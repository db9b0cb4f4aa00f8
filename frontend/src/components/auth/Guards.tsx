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
 * they go to `redirectTo`. Without the session hint nobody is signed in on this browser
 * and no profile request is made (spec: auth pages do not fetch the profile).
 */
export function GuestOnly({ redirectTo, children }: { redirectTo: string; children?: ReactNode }) {
  const content = children ?? <Outlet />;
  if (!sessionHint.get()) return <>{content}</>;
  return (
    <Authenticated key={`guest-${redirectTo}`} fallback={content} loading={<FullScreenSpinner />}>
      <Navigate to={redirectTo} replace />
    </Authenticated>
  );
}

/** Admin-only screens show the spec's message to everybody else. */
export function AdminOnly({ children }: { children?: ReactNode }) {
  const { profile, isLoading } = useProfile();
  if (isLoading) return <FullScreenSpinner />;
  if (profile?.role !== "admin") return <NotAuthorized />;
  return <>{children ?? <Outlet />}</>;
}
