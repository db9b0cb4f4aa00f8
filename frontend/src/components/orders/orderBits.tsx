import { Flex, Tag, Tooltip, Typography } from "antd";
import { Link } from "react-router";
import type { PrintItem } from "../../api/types";

/** Longer titles and addresses are cut to this many characters, full text in a tooltip. */
export const TITLE_MAX = 50;
export const ADDRESS_MAX = 50;
export const truncate = (s: string | null | undefined, n: number) => (!s ? "" : s.length > n ? `${s.slice(0, n)}…` : s);

export const ORDER_STATUSES = ["Pending", "In Draft", "Completed", "Partially Completed"] as const;

/** Order status badge colours: Completed green, In Draft primary, others warning. */
export const statusColor = (s: string) => (s === "Completed" ? "success" : s === "In Draft" ? "processing" : "warning");

export function StatusTag({ status }: { status: string }) {
  return <Tag color={statusColor(status)}>{status}</Tag>;
}

/**
 * The shop's own status beside ours: done in the shop (green), ended without a sale (red),
 * waiting on payment or the seller (orange), otherwise open (grey).
 */
export function shopStatusColor(s: string) {
  const v = s.toLowerCase();
  if (v === "completed") return "success";
  if (["cancelled", "canceled", "refunded", "fully refunded", "failed", "trash"].includes(v)) return "error";
  if (["on-hold", "pending", "payment processing", "partially refunded", "checkout-draft"].includes(v)) return "warning";
  return "default";
}

export function ShopStatusTag({ status, shop }: { status: string; shop: string }) {
  return (
    <Tooltip title={`The order's status in ${shop}`}>
      <Tag color={shopStatusColor(status)} data-testid="shop-status">Shop: {status}</Tag>
    </Tooltip>
  );
}

/** Which shop the Orders page works on: the chosen one, or the seller's only shop without choosing. */
export const activeIntegrationId = (chosen: string | undefined, integrations: ReadonlyArray<{ _id: string }> | undefined) =>
  chosen ?? (integrations?.length === 1 ? integrations[0]._id : undefined);

export function Truncated({ text, max }: { text: string | null | undefined; max: number }) {
  if (!text) return <Typography.Text type="secondary">—</Typography.Text>;
  const short = truncate(text, max);
  return short === text ? <span>{text}</span> : <Tooltip title={text}><span>{short}</span></Tooltip>;
}

/** The selected items travel to the review screen in the URL, so a reload keeps them. */
export const reviewUrl = (ids: string[]) => `/prints/review-print?orderItems=${ids.join(",")}`;

/** The Orders page showing just this order, opened (a print item links to its order this way). */
export const orderUrl = (orderId: string) => `/orders?id=${orderId}`;

/** A print item's shop order line: order number and buyer linked to the order, the line's title below. */
export function OrderLineCell({ item }: { item: Pick<PrintItem, "orderItemId" | "orderLine"> }) {
  const line = item.orderLine;
  if (!line) return <Typography.Text type="secondary">{item.orderItemId ? "Shop order removed" : "—"}</Typography.Text>;
  return (
    <Flex vertical align="flex-start" style={{ maxWidth: 260 }}>
      <Link to={orderUrl(line.orderId)}>#{line.orderNumber} · {line.buyerName}</Link>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}><Truncated text={line.title} max={TITLE_MAX} /></Typography.Text>
    </Flex>
  );
}
