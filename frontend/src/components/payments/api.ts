import { useQuery, useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../api/client";
import type { components } from "../../api/schema";
import { PROFILE_KEY } from "../../providers/queryClient";

export type Payment = components["schemas"]["PaymentDto"];
export type CreditPackages = components["schemas"]["CreditPackagesData"];
export type CreditPackage = components["schemas"]["CreditPackageDto"];
export type PaymentStatus = Payment["status"];
export type Sku = CreditPackage["sku"];

export const PAYMENTS_KEY = ["payments"] as const;
export const PACKAGES_KEY = ["payments", "packages"] as const;

/** Spec texts. */
export const REDIRECT_TOAST = "You will be redirected to paypal's payment page.";
export const DISCOUNT_BANNER = "Credits purchased in the first month are available at a 50% discount!";
export const EMPTY_HISTORY = "You have no payment history. Start buying credits now.";
export const FAILED_TEXT = "The payment process was not successful. Please try again.";

/** Completed green, Cancelled or Refunded red, others warning. */
export function statusColor(status: string): string {
  if (status === "Completed") return "success";
  if (status === "Cancelled" || status === "Refunded") return "error";
  return "warning";
}

/** The packages at the signed-in user's prices, and whether bank transfer is offered. */
export function usePackages() {
  return useQuery({
    queryKey: PACKAGES_KEY,
    queryFn: async () => (await call(api.GET("/api/payment/packages"))).data,
    staleTime: 60_000,
  });
}

/** POST /api/buyCredits; on a link with status Pending the browser goes there. */
export async function buyCredits(sku: Sku) {
  return (await call(api.POST("/api/buyCredits", { body: { sku } }))).data;
}

/** POST /api/payment/bank-transfer: the Pending payment (with its reference) to pay by transfer; the open one for the same package if any. */
export async function startBankTransfer(sku: Sku) {
  return (await call(api.POST("/api/payment/bank-transfer", { body: { sku } }))).data;
}

export const isBankTransfer = (p: Pick<Payment, "paymentMethod">) => p.paymentMethod === "bank";

export function usePaymentHistory(page: number, limit: number) {
  return useQuery({
    queryKey: [...PAYMENTS_KEY, "own", page, limit],
    queryFn: () => call(api.GET("/api/payment", { params: { query: { sort: "desc", sortBy: "purchaseDate", page, limit } } })),
  });
}

/** After a payment changed: the header balance, the history and the lists refetch. */
export function useRefreshPayments() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
    void queryClient.invalidateQueries({ queryKey: PAYMENTS_KEY });
  };
}
