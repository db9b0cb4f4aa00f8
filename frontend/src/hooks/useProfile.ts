import { useEffect } from "react";
import { useQuery } from "@tanstack/react-query";
import { useLogout } from "@refinedev/core";
import { type ApiError } from "../api/errors";
import type { User } from "../api/types";
import { PROFILE_KEY, fetchProfile } from "../providers/queryClient";

/**
 * The signed-in user. Refetched when the window regains focus, without retry
 * so it stays current; a 401 logs out.
 */
export function useProfile() {
  const { mutate: logout } = useLogout();
  const query = useQuery<User, ApiError>({
    queryKey: PROFILE_KEY,
    queryFn: fetchProfile,
    refetchOnWindowFocus: true,
    retry: false,
  });
  const unauthorized = query.error?.statusCode === 401;
  useEffect(() => {
    if (unauthorized) logout();
  }, [unauthorized, logout]);
  return { profile: query.data, isLoading: query.isLoading, refetch: query.refetch, isAdmin: query.data?.role === "admin" };
}
