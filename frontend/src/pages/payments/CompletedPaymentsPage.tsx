import { useState } from "react";
import { Button, Card, Flex, Popconfirm, Switch, Tooltip, Typography } from "antd";
import { ResponsiveTable } from "../../components/table/ResponsiveTable";
import type { ColumnsType } from "antd/es/table";
import { WarningOutlined } from "@ant-design/icons";
import { useMutation } from "@tanstack/react-query";
import { api, call } from "../../api/client";
import { toast } from "../../lib/toast";
import { Link } from "react-router";
import { PageShell } from "../../components/common/PageShell";
import { useRefreshPayments, type Payment } from "../../components/payments/api";
import { formatDate, StatusTag } from "../../components/payments/PaymentHistory";
import { DataTable, type DataColumn } from "../../components/table/DataTable";
import { SearchBox } from "../../components/table/SearchBox";
import { useUrlList } from "../../lib/urlList";
import { money } from "../../lib/money";
import { useResourceList } from "../../hooks/useResource";
import { useApiQuery } from "../../api/query";

const userName = (p: Payment) => [p.userId.firstName, p.userId.lastName].filter(Boolean).join(" ") || p.userId.username;

/**
 * Admin: bank transfers still to be received, then every user's completed payments (GET /api/completedTransfers), refunded ones
 * included; a refund that came after the credits were spent shows what the user owes.
 */
export function CompletedPaymentsPage() {
  const list = useUrlList();
  const { result, query } = useResourceList("payment", { meta: { path: "/api/completedTransfers" }, ...list.refine });

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
      <AwaitingTransfers />
      <Card>
        <Flex gap={12} wrap style={{ marginBottom: 16 }}>
          <SearchBox value={list.state.search} onSearch={list.setSearch} placeholder="Search user or reference" />
        </Flex>
        <DataTable<Payment> columns={columns} list={list} dataSource={result.data ?? []} total={result.total ?? 0} loading={query.isLoading} />
      </Card>
    </PageShell>
  );
}

/**
 * Admin: bank transfers whose money has not been seen yet (GET /api/bankTransfers). When
 * the money with that reference arrives, "Mark as received" completes the payment and adds
 * its credits; it then moves to the completed list. "Show expired" lists the ones cancelled
 * unpaid (BANK_TRANSFER_EXPIRY_DAYS), whose money can still arrive. Hidden while there are none
 * of either.
 */
function AwaitingTransfers() {
  const [page, setPage] = useState(1);
  const [expired, setExpired] = useState(false);
  const status = expired ? "Cancelled" : "Pending";
  const refresh = useRefreshPayments();
  const { data } = useApiQuery(["/api/bankTransfers", { page, status }], () =>
    api.GET("/api/bankTransfers", { params: { query: { page, limit: 10, sort: "asc", sortBy: "purchaseDate", status } } }),
  );
  // whether the other view has any, so the card (and its switch) stays while one of them does
  const other = expired ? "Pending" : "Cancelled";
  const { data: otherData } = useApiQuery(["/api/bankTransfers", { page: 1, status: other, limit: 1 }], () =>
    api.GET("/api/bankTransfers", { params: { query: { page: 1, limit: 1, status: other } } }),
  );
  const received = useMutation({
    mutationFn: (id: string) => call(api.POST("/api/payment/{id}/received", { params: { path: { id } } })),
    onSuccess: (res) => {
      toast.success(res.message ?? "Transfer marked as received");
      refresh();
    },
  });
  const total = data?.pagination.totalDocuments ?? 0;
  if (!total && !otherData?.pagination.totalDocuments) return null;
  const columns: ColumnsType<Payment> = [
    { key: "user", title: "User", render: (_, p) => <Link to={`/users/${p.userId._id}`}>{userName(p)}</Link> },
    { key: "reference", title: "Reference", dataIndex: "paymentSystemReferenceId", render: (r: string | null) => <Typography.Text code copyable>{r ?? "—"}</Typography.Text> },
    { key: "price", title: "Amount", render: (_, p) => money(p.price, p.currency) },
    { key: "credits", title: "Credit", dataIndex: "credits", render: (c: number) => c.toLocaleString("en-US") },
    { key: "purchaseDate", title: "Started", dataIndex: "purchaseDate", render: formatDate },
    {
      key: "actions",
      title: "",
      render: (_, p) => (
        <Popconfirm
          title="Mark this transfer as received?"
          description={`Only when ${money(p.price, p.currency)} with reference ${p.paymentSystemReferenceId} is in the account: ${p.credits.toLocaleString("en-US")} credits are added.`}
          okText="Mark as received"
          onConfirm={() => received.mutateAsync(p._id).catch(() => undefined)}
        >
          <Button size="small" loading={received.isPending && received.variables === p._id}>Mark as received</Button>
        </Popconfirm>
      ),
    },
  ];
  return (
    <Card
      title="Bank transfers awaiting payment"
      style={{ marginBottom: 24 }}
      data-testid="awaiting-transfers"
      extra={
        <Flex gap={8} align="center">
          <Switch
            size="small"
            id="show-expired-transfers"
            checked={expired}
            onChange={(on) => {
              setExpired(on);
              setPage(1);
            }}
          />
          <label htmlFor="show-expired-transfers">Show expired</label>
        </Flex>
      }
    >
      <ResponsiveTable<Payment>
        rowKey="_id"
        size="small"
        columns={columns}
        dataSource={data?.data ?? []}
        locale={{ emptyText: expired ? "No expired bank transfers." : "No bank transfers awaiting payment." }}
        pagination={{ current: page, pageSize: 10, total, onChange: setPage, hideOnSinglePage: true }}
      />
    </Card>
  );
}
