import { Card, Flex, Tooltip, Typography } from "antd";
import { WarningOutlined } from "@ant-design/icons";
import { useList } from "@refinedev/core";
import { Link } from "react-router";
import { PageShell } from "../../components/common/PageShell";
import { money, type Payment } from "../../components/payments/api";
import { formatDate, StatusTag } from "../../components/payments/PaymentHistory";
import { DataTable, type DataColumn } from "../../components/table/DataTable";
import { SearchBox } from "../../components/table/SearchBox";
import { useUrlList } from "../../lib/urlList";
import type { ResourceMeta } from "../../providers/dataProvider";

const userName = (p: Payment) => [p.userId.firstName, p.userId.lastName].filter(Boolean).join(" ") || p.userId.username;

/**
 * Admin: every user's completed payments (GET /api/completedTransfers), refunded ones
 * included; a refund that came after the credits were spent shows what the user owes.
 */
export function CompletedPaymentsPage() {
  const list = useUrlList();
  const { result, query } = useList<Payment>({ resource: "payment", meta: { path: "/api/completedTransfers" } satisfies ResourceMeta, ...list.refine });

  const columns: DataColumn<Payment>[] = [
    { key: "user", title: "User", render: (_, p) => <Link to={`/users/${p.userId._id}`}>{userName(p)}</Link> },
    { key: "type", title: "Payment Type", dataIndex: "type", render: (t: string) => t || "Manual" },
    { key: "reference", title: "Reference", dataIndex: "paymentSystemReferenceId", render: (r: string | null) => <Typography.Text code>{r ?? "—"}</Typography.Text> },
    { key: "purchaseDate", title: "Purchase Date", dataIndex: "purchaseDate", sortField: "purchaseDate", render: formatDate },
    { key: "price", title: "Payment Amount", sortField: "price", render: (_, p) => money(p.price, p.currency) },
    { key: "credits", title: "Credit", dataIndex: "credits", sortField: "credits", render: (c: number) => c.toLocaleString("en-US") },
    {
      key: "status",
      title: "Payment Status",
      dataIndex: "status",
      sortField: "status",
      render: (s: string, p) => (
        <Flex gap={6} align="center">
          <StatusTag status={s} />
          {p.debtCredits > 0 && (
            <Tooltip title="Refunded after the credits were spent: the balance could not cover all of them.">
              <Typography.Text type="danger" data-testid="debt">
                <WarningOutlined /> owes {p.debtCredits.toLocaleString("en-US")} credits
              </Typography.Text>
            </Tooltip>
          )}
        </Flex>
      ),
    },
  ];

  return (
    <PageShell title="Completed Payments">
      <Card>
        <Flex gap={12} wrap style={{ marginBottom: 16 }}>
          <SearchBox value={list.state.search} onSearch={list.setSearch} placeholder="Search user or reference" />
        </Flex>
        <DataTable<Payment> columns={columns} list={list} dataSource={result.data ?? []} total={result.total ?? 0} loading={query.isLoading} />
      </Card>
    </PageShell>
  );
}
