import { useInvalidate } from "@refinedev/core";
import { api, call } from "../../api/client";
import { useApiQuery, useInvalidateApi } from "../../api/query";
import type { components } from "../../api/schema";
import { useResourceList } from "../../hooks/useResource";

export type Payment = components["schemas"]["PaymentDto"];
export type CreditPackages = components["schemas"]["CreditPackagesData"];
export type CreditPackage = components["schemas"]["CreditPackageDto"];
export type PaymentStatus = Payment["status"];
export type Sku = CreditPackage["sku"];

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
  return useApiQuery(["/api/payment/packages"], () => api.GET("/api/payment/packages"), { staleTime: 60_000, select: (r) => r.data });
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
  return useResourceList("payment", {
    pagination: { currentPage: page, pageSize: limit },
    sorters: [{ field: "purchaseDate", order: "desc" }],
  });
}

/** After a payment changed: the header balance, the payments, the packages' prices and the transfers awaited refetch. */
export function useRefreshPayments() {
  const invalidate = useInvalidate();
  const invalidateApi = useInvalidateApi();
  return () => {
    void invalidate({ resource: "payment", invalidates: ["all"] });
    void invalidateApi("/api/profile", "/api/payment/packages", "/api/payment/bank-details", "/api/bankTransfers");
  };
}
