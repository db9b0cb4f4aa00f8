import { useEffect, useState } from "react";
import { Alert, Button, Card, type CheckboxProps, DatePicker, Flex, Grid, Select, Typography } from "antd";
import { PrinterOutlined, SyncOutlined } from "@ant-design/icons";
import { keepPreviousData } from "@tanstack/react-query";
import dayjs from "dayjs";
import { useNavigate } from "react-router";
import { PageShell } from "../../components/common/PageShell";
import { ResponsiveTable } from "../../components/table/ResponsiveTable";
import { syncErrorText, useIntegrations, useRefreshIntegrations, useSyncOrders, type Order, type OrderItem } from "../../components/integrations/api";
import {
  activeIntegrationId, ADDRESS_MAX, ORDER_STATUSES, reviewUrl, ShopStatusTag, StatusTag, TITLE_MAX, Truncated,
} from "../../components/orders/orderBits";
import { FULFILMENT_LABEL, FULFILMENT_STATUSES, FulfilmentCell } from "../../components/orders/Fulfilment";
import { dateRangeFilters } from "../../components/prints/rules";
import { useLiveEvent } from "../../providers/live";
import { toRefineArgs, useUrlList } from "../../lib/urlList";
import { SearchBox } from "../../components/table/SearchBox";
import { useResourceList } from "../../hooks/useResource";
import { toast } from "../../lib/toast";
import { money } from "../../lib/money";

/** The `shop` filter: orders still open in the shop, or closed there (cancelled, refunded, completed…). */
const SHOP_STATES = ["open", "closed"] as const;
const SHOP_STATE_LABEL: Record<(typeof SHOP_STATES)[number], string> = { open: "Open in the shop", closed: "Closed in the shop" };

/** The Orders page: orders imported from the user's integrations. */
export function OrdersPage() {
  const navigate = useNavigate();
  const refreshIntegrations = useRefreshIntegrations();
  const small = !Grid.useBreakpoint().md;
  const list = useUrlList({ filters: ["integrationId", "id", "status", "fulfilment", "shop", "startDate", "endDate"] });
  const { integrationId: chosenIntegrationId, startDate, endDate } = list.state.filters;
  /** One order only (a print item's link to its order), shown opened. */
  const orderId = list.state.filters.id;
  const status = ORDER_STATUSES.find((s) => s === list.state.filters.status);
  const fulfilment = FULFILMENT_STATUSES.find((s) => s === list.state.filters.fulfilment);
  const shop = SHOP_STATES.find((s) => s === list.state.filters.shop);
  const [selected, setSelected] = useState<Record<string, string[]>>({});
  const [expanded, setExpanded] = useState<string[]>(orderId ? [orderId] : []);
  useEffect(() => {
    if (orderId) setExpanded((e) => (e.includes(orderId) ? e : [...e, orderId]));
  }, [orderId]);
  const [progress, setProgress] = useState<number | null>(null);

  const integrations = useIntegrations();
  const integrationId = activeIntegrationId(chosenIntegrationId, integrations.data);
  const current = integrations.data?.find((i) => i._id === integrationId);
  const sync = useSyncOrders();
  // The integration filter falls back to the only integration; a status outside the list is dropped.
  const { result, query: orders } = useResourceList("orders", {
    ...list.refine,
    filters: toRefineArgs({ ...list.state, filters: { ...list.state.filters, integrationId, status, fulfilment, shop } }).filters,
    // While a shop is being updated, look again every few seconds until it answered.
    queryOptions: { placeholderData: keepPreviousData, refetchInterval: (q) => ((q.state.data?.data as Order[] | undefined)?.some((o) => o.fulfilment?.status === "pending") ? 3000 : false) },
  });
  const rows = result.data ?? [];
  const total = result.total ?? 0;

  useLiveEvent("order-sync", (e) => {
    if (e.status === "running") return setProgress(e.orders);
    setProgress(null);
    void refreshIntegrations();
    if (e.status === "done") toast.success(`Orders synced: ${e.orders} checked, ${e.created ?? 0} new`);
    else toast.error(syncErrorText(e.message ?? "Sync failed"));
  });

  const runSync = () => {
    if (!integrationId) return toast.error("Select an integration to sync");
    sync.mutate(integrationId, {
      // Progress and the result come over the socket (order-sync-{userId}); the job may even finish first.
      onSuccess: (r) => toast.success(r.message),
      onError: (e) => toast.error(syncErrorText(e.message)),
    });
  };

  const allSelected = Object.values(selected).flat();
  const selectedCount = allSelected.length;

  const itemColumns = [
    { key: "title", title: "Title", render: (_: unknown, i: OrderItem) => <Truncated text={i.title} max={TITLE_MAX} /> },
    { key: "orderId", title: "Order ID", dataIndex: "orderId" },
    { key: "reference", title: "Reference", dataIndex: "reference" },
    { key: "sku", title: "SKU", render: (_: unknown, i: OrderItem) => i.sku ?? "—" },
    { key: "size", title: "Size", render: (_: unknown, i: OrderItem) => i.size ?? "—" },
    { key: "quantity", title: "Quantity", dataIndex: "quantity" },
    { key: "price", title: "Price", render: (_: unknown, i: OrderItem) => money(i.price, i.currency) },
    { key: "status", title: "Status", render: (_: unknown, i: OrderItem) => <StatusTag status={i.status} /> },
  ];

  const orderColumns = [
    { key: "orderId", title: "Order ID", render: (_: unknown, o: Order) => <Typography.Text strong>#{o.orderId}</Typography.Text> },
    { key: "integration", title: "Integration", render: (_: unknown, o: Order) => o.integrationId.name },
    {
      key: "buyer",
      title: "Buyer",
      render: (_: unknown, o: Order) => (
        <Flex vertical style={{ fontSize: 12 }}>
          <Typography.Text>{o.buyerInfo.name}</Typography.Text>
          {o.buyerInfo.email && <Typography.Text type="secondary">{o.buyerInfo.email}</Typography.Text>}
          {o.buyerInfo.phone && <Typography.Text type="secondary">{o.buyerInfo.phone}</Typography.Text>}
          <Typography.Text type="secondary"><Truncated text={o.buyerInfo.address} max={ADDRESS_MAX} />{o.buyerInfo.country ? `, ${o.buyerInfo.country}` : ""}</Typography.Text>
        </Flex>
      ),
    },
    { key: "created", title: "Created", render: (_: unknown, o: Order) => dayjs(o.integrationOrderCreatedDate).format("MMM D, YYYY HH:mm") },
    { key: "total", title: "Total", render: (_: unknown, o: Order) => money(o.total.amount, o.total.currency) },
    {
      key: "status",
      title: "Status",
      render: (_: unknown, o: Order) => (
        <Flex vertical gap={4} align="flex-start">
          <StatusTag status={o.status} />
          <ShopStatusTag status={o.shopStatus} shop={o.integrationId.type === "Etsy" ? "Etsy" : "WooCommerce"} />
          <FulfilmentCell order={o} />
        </Flex>
      ),
    },
    {
      key: "items",
      title: "",
      align: "right" as const,
      render: (_: unknown, o: Order) => {
        const open = expanded.includes(o._id);
        return (
          <Button size="small" onClick={() => setExpanded((e) => (open ? e.filter((x) => x !== o._id) : [...e, o._id]))}>
            {open ? "Close" : "Show Items"}
          </Button>
        );
      },
    },
  ];

  const createBar = (
    <Flex
      align="center"
      gap={12}
      justify="space-between"
      style={small ? { position: "fixed", left: 0, right: 0, bottom: 0, zIndex: 20, padding: "12px 16px", background: "#fff", boxShadow: "0 -2px 8px rgba(0,0,0,.12)" } : undefined}
      data-testid="order-selection-bar"
    >
      <Typography.Text>{selectedCount} order items selected</Typography.Text>
      <Button type="primary" icon={<PrinterOutlined />} disabled={selectedCount === 0} onClick={() => navigate(reviewUrl(allSelected))}>
        Create Print
      </Button>
    </Flex>
  );

  return (
    <PageShell title="Integration Orders" extra={small ? undefined : createBar}>
      <Card>
        <Flex gap={12} wrap align="center" style={{ marginBottom: 16 }}>
          <Select
            allowClear
            placeholder="Select Integration"
            aria-label="Select Integration"
            style={{ minWidth: 220 }}
            value={integrationId}
            loading={integrations.isLoading}
            onChange={(v?: string) => list.setFilter("integrationId", v)}
            options={(integrations.data ?? []).map((i) => ({ value: i._id, label: `${i.name} (${i.type})` }))}
          />
          <Button icon={<SyncOutlined spin={progress !== null} />} loading={sync.isPending} disabled={!integrationId} onClick={runSync}>
            Sync orders
          </Button>
          <Typography.Text type="secondary" data-testid="last-sync">
            {current
              ? progress !== null || current.syncStatus === "queued" || current.syncStatus === "running"
                ? `Syncing… ${progress ?? 0} orders`
                : current.lastSync
                  ? `Last synced ${dayjs(current.lastSync).format("MMM D, YYYY HH:mm")}`
                  : "Never synced"
              : ""}
          </Typography.Text>
          <Select
            allowClear
            placeholder="Status"
            aria-label="Status"
            style={{ width: 190 }}
            value={status}
            onChange={(v?: string) => list.setFilter("status", v)}
            options={ORDER_STATUSES.map((s) => ({ value: s, label: s }))}
          />
          <Select
            allowClear
            placeholder="Fulfilment"
            aria-label="Fulfilment"
            style={{ width: 170 }}
            value={fulfilment}
            onChange={(v?: string) => list.setFilter("fulfilment", v)}
            options={FULFILMENT_STATUSES.map((s) => ({ value: s, label: FULFILMENT_LABEL[s] }))}
          />
          <Select
            allowClear
            placeholder="In the shop"
            aria-label="In the shop"
            style={{ width: 170 }}
            value={shop}
            onChange={(v?: string) => list.setFilter("shop", v)}
            options={SHOP_STATES.map((s) => ({ value: s, label: SHOP_STATE_LABEL[s] }))}
          />
          <DatePicker.RangePicker
            aria-label="Date range"
            value={startDate && endDate ? [dayjs(startDate), dayjs(endDate)] : null}
            onChange={(range) => list.setFilters(dateRangeFilters(range))}
          />
          <SearchBox value={list.state.search} onSearch={list.setSearch} placeholder="Order, buyer or SKU" />
        </Flex>
        {orderId && (
          <Alert
            type="info"
            style={{ marginBottom: 16 }}
            message="Showing one order."
            action={<Button size="small" onClick={() => list.setFilter("id", undefined)}>Show all orders</Button>}
          />
        )}
        <ResponsiveTable<Order>
          rowKey="_id"
          columns={orderColumns}
          dataSource={rows}
          loading={orders.isLoading}
          locale={{ emptyText: "No data" }}
          scroll={{ x: "max-content" }}
          expandable={{
            expandedRowKeys: expanded,
            showExpandColumn: false,
            expandedRowRender: (o) => (
              <ResponsiveTable<OrderItem>
                rowKey="_id"
                size="small"
                columns={itemColumns}
                dataSource={o.orderItems}
                pagination={false}
                locale={{ emptyText: "No data" }}
                rowSelection={{
                  selectedRowKeys: selected[o._id] ?? [],
                  onChange: (keys) => setSelected((s) => ({ ...s, [o._id]: keys as string[] })),
                  getCheckboxProps: (i) => ({ "aria-label": `Select ${i.title}` }) as CheckboxProps,
                }}
              />
            ),
          }}
          pagination={list.tablePagination(total)}
        />
      </Card>
      {small && <div style={{ height: 64 }} />}
      {small && createBar}
    </PageShell>
  );
}
