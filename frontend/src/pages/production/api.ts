import { useMutation } from "@tanstack/react-query";
import { api, call } from "../../api/client";
import { useApiQuery, useInvalidateApi } from "../../api/query";
import type { components } from "../../api/schema";

export type QueueItem = components["schemas"]["QueueItemDto"];
export type QueueSummary = components["schemas"]["QueueSummaryDto"];
export type Batch = components["schemas"]["BatchDto"];
export type ProductionSettings = components["schemas"]["ProductionSettingsDto"];
export type ProductionSettingsInput = components["schemas"]["ProductionSettingsInput"];
export type QueueFilter = "all" | "ready" | "blocked";

export function useProductionQueue(page: number, limit: number, status: QueueFilter) {
  return useApiQuery(["/api/production/queue", { page, limit, status }], (signal) =>
    api.GET("/api/production/queue", { params: { query: { page, limit, status } }, signal }),
  );
}

export function useBatches() {
  return useApiQuery(["/api/production/batches"], (signal) => api.GET("/api/production/batches", { signal }), { select: (r) => r.data });
}

export function useProductionSettings() {
  return useApiQuery(["/api/production/settings"], (signal) => api.GET("/api/production/settings", { signal }), { select: (r) => r.data });
}

/** Everything the page shows refetches: queue, batches, settings, and the dashboard's counts. */
export function useRefreshProduction() {
  const invalidate = useInvalidateApi();
  return () => invalidate("/api/production/queue", "/api/production/batches", "/api/production/settings", "/api/statistics");
}

export function useBatchNow() {
  const refresh = useRefreshProduction();
  return useMutation({ mutationFn: () => call(api.POST("/api/production/batches")), onSuccess: refresh });
}

export function useSaveProductionSettings() {
  const refresh = useRefreshProduction();
  return useMutation({ mutationFn: (body: ProductionSettingsInput) => call(api.PUT("/api/production/settings", { body })), onSuccess: refresh });
}
