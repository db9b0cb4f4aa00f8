import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../api/client";
import type { components } from "../../api/schema";

export type Integration = components["schemas"]["IntegrationDto"];
export type IntegrationBody = components["schemas"]["IntegrationBodyDto"];
export type Order = components["schemas"]["OrderDto"];
export type OrderItem = components["schemas"]["OrderItemDto"];
export type ReviewItem = components["schemas"]["ReviewItemDto"];

export const INTEGRATIONS_KEY = ["integrations"] as const;

/** Messages for the ?error= codes the integration OAuth callbacks return (the Etsy/WooCommerce redirects come back with ?error=...). */
export const QUERY_ERRORS: Record<string, string> = {
  auth_failed: "Authentication failed. Please try again.",
  shop_already_exists: "Shop already exists.",
};
export const DEFAULT_QUERY_ERROR = "An error occurred. Please try again later.";
export const NO_INTEGRATIONS = "You have not added any integrations yet. Click the button below to add a new integration.";

export function useIntegrations() {
  return useQuery({ queryKey: INTEGRATIONS_KEY, queryFn: async () => (await call(api.GET("/api/integrations"))).data });
}

export type IntegrationTypeInfo = components["schemas"]["IntegrationTypeDto"];

/** The shop types and whether this server can connect each (Etsy needs the server's Etsy app). */
export function useIntegrationTypes() {
  return useQuery({ queryKey: [...INTEGRATIONS_KEY, "types"], staleTime: 5 * 60_000, queryFn: async () => (await call(api.GET("/api/integrations/types"))).data });
}

export function useIntegration(id: string | undefined) {
  return useQuery({
    queryKey: [...INTEGRATIONS_KEY, id],
    enabled: !!id,
    queryFn: async () => (await call(api.GET("/api/integrations/{id}", { params: { path: { id: id! } } }))).data,
  });
}

/** After create/connect: Etsy (and WooCommerce without keys) continue at the shop. */
export function goToShop(connectUrl: string | undefined | null) {
  if (connectUrl) window.location.assign(connectUrl);
}

export function useSaveIntegration() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id?: string; body: IntegrationBody }) =>
      id
        ? call(api.PUT("/api/integrations/{id}", { params: { path: { id } }, body }))
        : call(api.POST("/api/integrations", { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: INTEGRATIONS_KEY }),
  });
}

export function useConnectIntegration() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => call(api.GET("/api/integrations/{id}/auth", { params: { path: { id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: INTEGRATIONS_KEY }),
  });
}

export function useDeleteIntegration() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => call(api.DELETE("/api/integrations/{id}", { params: { path: { id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: INTEGRATIONS_KEY }),
  });
}

/** A sync failing with 'accessToken is not defined' (not connected) reads as a request to connect. */
export const syncErrorText = (message: string) =>
  /accessToken is not defined/i.test(message) ? "Please connect your integration to sync order" : message;

export function useSyncOrders() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => call(api.GET("/api/integrations/{id}/orders", { params: { path: { id } } }), { silent: true }),
    onSettled: () => qc.invalidateQueries({ queryKey: INTEGRATIONS_KEY }),
  });
}
