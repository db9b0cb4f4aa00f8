import { Button, Card, Empty, Tag, Typography } from "antd";
import { ResponsiveTable } from "../table/ResponsiveTable";
import type { ColumnsType } from "antd/es/table";
import { Link } from "react-router";
import { useSearchParams } from "../../lib/searchParams";
import { useLocalPages } from "../../lib/urlList";
import { openModalParams } from "../../lib/queryModal";
import { EMPTY_HISTORY, isBankTransfer, statusColor, usePaymentHistory, type Payment } from "./api";
import { money } from "../../lib/money";

export const formatDate = (d: string) =>
  new Date(d).toLocaleString("en-US", { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });

export function StatusTag({ status }: { status: string }) {
  return <Tag color={statusColor(status)} data-testid="payment-status">{status}</Tag>;
}

/** The signed-in user's payments, newest first (sort=desc&sortBy=purchaseDate). */
export function PaymentHistory() {
  const pages = useLocalPages();
  const { result, query } = usePaymentHistory(pages.page, pages.limit);
  const isLoading = query.isLoading;
  const [, setParams] = useSearchParams();
  const rows = result.data ?? [];
  const total = result.total ?? 0;

  const columns: ColumnsType<Payment> = [
    { key: "purchaseDate", title: "Purchase Date", dataIndex: "purchaseDate", render: formatDate },
    { key: "package", title: "Package", dataIndex: "packageSku" },
    { key: "credits", title: "Credit", dataIndex: "credits", render: (c: number) => c.toLocaleString("en-US") },
    { key: "price", title: "Payment Amount", render: (_, p) => money(p.price, p.currency) },
    { key: "type", title: "Payment Type", dataIndex: "type" },
    { key: "reference", title: "Reference", dataIndex: "paymentSystemReferenceId", render: (r: string | null) => <Typography.Text code>{r ?? "—"}</Typography.Text> },
    { key: "status", title: "Payment Status", dataIndex: "status", render: (s: string) => <StatusTag status={s} /> },
    {
      key: "actions",
      title: "",
      // One action per row: a bank transfer still to be paid opens its details (reference
      // included); every other payment links to its page.
      render: (_, p) =>
        p.status === "Pending" && isBankTransfer(p) ? (
          <Button type="link" size="small" onClick={() => setParams((q) => openModalParams(q, "bankTransfer", p._id))}>How to pay</Button>
        ) : (
          <Link to={`/payment/${p._id}`}>Details</Link>
        ),
    },
  ];

  return (
    <Card title="Payment History" data-testid="payment-history">
      {!isLoading && total === 0 ? (
        <Empty description={EMPTY_HISTORY}>
          <Button type="primary" onClick={() => setParams((q) => openModalParams(q, "buyCredit", "100"))} data-testid="empty-buy-credits">
            Buy Credits
          </Button>
        </Empty>
      ) : (
        <ResponsiveTable<Payment>
          rowKey="_id"
          columns={columns}
          dataSource={rows}
          loading={isLoading}
          scroll={{ x: "max-content" }}
          locale={{ emptyText: "No data" }}
          pagination={pages.tablePagination(total)}
        />
      )}
    </Card>
  );
}
