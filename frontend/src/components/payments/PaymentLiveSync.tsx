import { useLiveEvent } from "../../providers/live";
import { useRefreshPayments } from "./api";

/**
 * Listens to `payment-{userId}`: when a payment completes or is refunded (a webhook, an
 * admin adding credit, another tab), the header balance and the payment lists refetch,
 * without a reload.
 */
export function PaymentLiveSync() {
  const refresh = useRefreshPayments();
  useLiveEvent("payment", () => refresh());
  return null;
}
