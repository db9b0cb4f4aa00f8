import { useMutation } from "@tanstack/react-query";
import { useInvalidate } from "@refinedev/core";
import { api, call } from "../../api/client";
import { useApiQuery, useInvalidateApi } from "../../api/query";
import { useResourceList, useResourceOne } from "../../hooks/useResource";
import type { components } from "../../api/schema";

export type Integration = components["schemas"]["IntegrationDto"];
export type IntegrationBody = components["schemas"]["IntegrationBodyDto"];
export type Order = components["schemas"]["OrderDto"];
export type OrderItem = components["schemas"]["OrderItemDto"];
export type ReviewItem = components["schemas"]["ReviewItemDto"];

/** Messages for the ?error= codes the integration OAuth callbacks return (the Etsy/WooCommerce redirects come back with ?error=...). */
export const QUERY_ERRORS: Record<string, string> = {
  auth_failed: "Authentication failed. Please try again.",
  shop_already_exists: "Shop already exists.",
};
export const DEFAULT_QUERY_ERROR = "An error occurred. Please try again later.";
export const NO_INTEGRATIONS = "You have not added any integrations yet. Click the button below to add a new integration.";

/** The seller's integrations (`data` stays undefined until they have loaded). */
export function useIntegrations() {
  const { result, query } = useResourceList("integrations", { pagination: { mode: "off" } });
  return { data: query.data ? result.data : undefined, isLoading: query.isLoading };
}

/** After an integration changed (saved, connected, synced): its list, its page and the orders refetch. */
export function useRefreshIntegrations() {
  const invalidate = useInvalidate();
  const invalidateApi = useInvalidateApi();
  return () =>
    Promise.all([
      invalidate({ resource: "integrations", invalidates: ["all"] }),
      invalidate({ resource: "orders", invalidates: ["all"] }),
      invalidateApi("/api/orders/review"),
    ]);
}

export type IntegrationTypeInfo = components["schemas"]["IntegrationTypeDto"];

/** The shop types and whether this server can connect each (Etsy needs the server's Etsy app). */
export function useIntegrationTypes() {
  return useApiQuery(["/api/integrations/types"], () => api.GET("/api/integrations/types"), { staleTime: 5 * 60_000, select: (r) => r.data });
}

export function useIntegration(id: string | undefined) {
  const { result } = useResourceOne("integrations", id);
  return { data: result };
}

/** After create/connect: Etsy (and WooCommerce without keys) continue at the shop. */
export function goToShop(connectUrl: string | undefined | null) {
  if (connectUrl) window.location.assign(connectUrl);
}

export function useSaveIntegration() {
  const refresh = useRefreshIntegrations();
  return useMutation({
    mutationFn: async ({ id, body }: { id?: string; body: IntegrationBody }) =>
      id
        ? call(api.PUT("/api/integrations/{id}", { params: { path: { id } }, body }))
        : call(api.POST("/api/integrations", { body })),
    onSuccess: refresh,
  });
}

export function useConnectIntegration() {
  const refresh = useRefreshIntegrations();
  return useMutation({
    mutationFn: async (id: string) => call(api.GET("/api/integrations/{id}/auth", { params: { path: { id } } })),
    onSuccess: refresh,
  });
}

export function useDeleteIntegration() {
  const refresh = useRefreshIntegrations();
  return useMutation({
    mutationFn: async (id: string) => call(api.DELETE("/api/integrations/{id}", { params: { path: { id } } })),
    onSuccess: refresh,
  });
}

/** A sync failing with 'accessToken is not defined' (not connected) reads as a request to connect. */
export const syncErrorText = (message: string) =>
  /accessToken is not defined/i.test(message) ? "Please connect your integration to sync order" : message;

export function useSyncOrders() {
  const refresh = useRefreshIntegrations();
  return useMutation({
    mutationFn: async (id: string) => call(api.GET("/api/integrations/{id}/orders", { params: { path: { id } } }), { silent: true }),
    onSettled: refresh,
  });
}
