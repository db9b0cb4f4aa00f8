import { useQuery, useQueryClient, type UseQueryOptions } from "@tanstack/react-query";
import { useCallback } from "react";
import { call } from "./client";
import type { ApiError } from "./errors";
import type { paths } from "./schema";

/**
 * The cache key of every read that is not a resource's records: the API path as the schema
 * spells it, then the parameters of the call (`["/api/users/{id}/credit/history", { id, page }]`).
 * Invalidating the path alone refreshes every call to it, whatever its parameters.
 */
export type ApiKey = readonly [path: keyof paths, params?: object];

type ApiResponse<D> = Promise<{ data?: D; error?: unknown; response: Response }>;

export type ApiQueryOptions<D, S> = Omit<UseQueryOptions<D, ApiError, S, ApiKey>, "queryKey" | "queryFn"> & {
  /** Skip the error toast (the screen shows the error itself). */
  silent?: boolean;
};

/**
 * A read of a non-resource endpoint (statistics, settings, a preview, a card's own history):
 * `useApiQuery(["/api/statistics"], () => api.GET("/api/statistics"))`. The request is
 * written with the typed client, so its parameters and the answer are checked; the key
 * follows `ApiKey`. Records of a resource are read with hooks/useResource.ts instead.
 */
export function useApiQuery<D, S = D>(key: ApiKey, request: (signal: AbortSignal) => ApiResponse<D>, options: ApiQueryOptions<D, S> = {}) {
  const { silent, ...rest } = options;
  return useQuery<D, ApiError, S, ApiKey>({ ...rest, queryKey: key, queryFn: ({ signal }) => call(request(signal), { silent }) });
}

/** Refreshes every cached read of these API paths (see `ApiKey`). */
export function useInvalidateApi() {
  const qc = useQueryClient();
  return useCallback(
    (...paths: (keyof paths)[]) => Promise.all(paths.map((path) => qc.invalidateQueries({ queryKey: [path] }))).then(() => undefined),
    [qc],
  );
}
