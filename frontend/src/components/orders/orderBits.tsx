import { Tag, Tooltip, Typography } from "antd";

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

export function Truncated({ text, max }: { text: string | null | undefined; max: number }) {
  if (!text) return <Typography.Text type="secondary">—</Typography.Text>;
  const short = truncate(text, max);
  return short === text ? <span>{text}</span> : <Tooltip title={text}><span>{short}</span></Tooltip>;
}

export const money = (amount: number, currency: string) => {
  try {
    return new Intl.NumberFormat(undefined, { style: "currency", currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
};

/** The selected items travel to the review screen in the URL, so a reload keeps them. */
export const reviewUrl = (ids: string[]) => `/prints/review-print?orderItems=${ids.join(",")}`;
