import { useState } from "react";
import { Button, Card, Col, Empty, Flex, Image, Row, Segmented, Space, Statistic, Tag, Tooltip, Typography } from "antd";
import { SettingOutlined, ThunderboltOutlined } from "@ant-design/icons";
import dayjs from "dayjs";
import { Link } from "react-router";
import { PageShell } from "../../components/common/PageShell";
import { ResponsiveTable } from "../../components/table/ResponsiveTable";
import { useLiveEvent } from "../../providers/live";
import { toast } from "../../lib/toast";
import { weekdayTimeIn } from "../../lib/zonedTime";
import { useBatches, useBatchNow, useProductionQueue, useProductionSettings, useRefreshProduction, type Batch, type QueueFilter, type QueueItem, type QueueSummary } from "./api";
import { ProductionSettingsDrawer } from "./ProductionSettingsDrawer";

const PAGE_SIZE = 20;

function age(hours: number) {
  if (hours < 1) return `${Math.round(hours * 60)} min`;
  if (hours < 48) return `${Math.round(hours)} h`;
  return `${Math.round(hours / 24)} d`;
}

function triggerText(s: ReturnType<typeof useProductionSettings>["data"]) {
  if (!s) return "";
  if (!s.auto) return "Batching by hand only";
  const parts = [
    s.triggers.cutoffs.length ? `at ${s.triggers.cutoffs.join(", ")} (${s.timeZone})` : null,
    s.triggers.minLengthIn != null ? `when ${s.triggers.minLengthIn} in of film are ready` : null,
    s.triggers.maxWaitHours != null ? `after ${s.triggers.maxWaitHours} h of waiting` : null,
  ].filter(Boolean);
  return `Batching ${parts.join(", ")}${s.autoProcess ? "; processed automatically" : "; left as drafts"}`;
}

/**
 * The film the ready items would take. Designs still to download are not measured yet: with
 * none measured the film is not known ("—"), with some it is at least the estimate.
 */
function FilmEstimate({ summary, loading }: { summary?: QueueSummary; loading: boolean }) {
  const unknown = summary?.estimatedLengthIn == null && !!summary?.readyItems;
  const partial = !unknown && !!summary?.unmeasuredItems;
  const pending = summary?.unmeasuredItems ?? 0;
  return (
    <Flex vertical>
      <Statistic
        title="Film (est.)"
        value={unknown ? "—" : (summary?.estimatedLengthIn ?? 0)}
        prefix={partial ? "≥" : undefined}
        suffix={unknown ? undefined : "in"}
        loading={loading}
      />
      {(unknown || partial) && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="film-hint">
          {pending} {pending === 1 ? "design" : "designs"} still to download (measured when batched)
        </Typography.Text>
      )}
    </Flex>
  );
}

/** Production: the queue of shop order items not yet in a print, the batching rules and the latest batches. */
export function ProductionPage() {
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<QueueFilter>("all");
  const [settingsOpen, setSettingsOpen] = useState(false);
  const queue = useProductionQueue(page, PAGE_SIZE, filter);
  const batches = useBatches();
  const settings = useProductionSettings();
  const batchNow = useBatchNow();
  const refresh = useRefreshProduction();

  useLiveEvent("production", () => void refresh());
  useLiveEvent("print", () => void refresh());
  useLiveEvent("order-sync", (e) => {
    if (e.status === "done") void refresh();
  });

  const summary = queue.data?.summary;
  const rows = queue.data?.data ?? [];

  const runBatch = () =>
    batchNow.mutate(undefined, {
      onSuccess: (r) => (r.data.length ? toast.success(r.message) : toast.info(r.message)),
      onError: (e) => toast.error(e.message),
    });

  const columns = [
    {
      key: "order",
      title: "Order",
      render: (_: unknown, i: QueueItem) => (
        <Flex vertical>
          <Typography.Text strong>#{i.orderNumber}{i.rush && <Tag color="volcano" style={{ marginLeft: 8 }}>Rush</Tag>}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>{i.shop}{i.shipping ? ` · ${i.shipping}` : ""}</Typography.Text>
        </Flex>
      ),
    },
    { key: "age", title: "Age", render: (_: unknown, i: QueueItem) => <Tooltip title={dayjs(i.orderedAt).format("MMM D, YYYY HH:mm")}>{age(i.ageHours)}</Tooltip> },
    {
      key: "design",
      title: "Design",
      render: (_: unknown, i: QueueItem) => (
        <Space>
          {i.previewUrl ? (
            <Image src={i.previewUrl} width={40} height={40} style={{ objectFit: "contain" }} alt={i.imageName ?? i.title} preview={false} />
          ) : (
            <div style={{ width: 40, height: 40, background: "#f5f5f5", borderRadius: 4 }} aria-hidden />
          )}
          <Flex vertical>
            <Typography.Text>{i.title}</Typography.Text>
            {i.sku && <Typography.Text type="secondary" style={{ fontSize: 12 }}>SKU {i.sku}</Typography.Text>}
          </Flex>
        </Space>
      ),
    },
    { key: "size", title: "Size", render: (_: unknown, i: QueueItem) => (i.size ? `${i.size}${i.widthIn ? ` (${i.widthIn} in)` : ""}` : "—") },
    { key: "copies", title: "Copies", dataIndex: "copies" },
    {
      key: "status",
      title: "Status",
      render: (_: unknown, i: QueueItem) =>
        i.reason ? (
          <Tag color="error" style={{ whiteSpace: "normal" }}>{i.reason}</Tag>
        ) : (
          <Tag color="success">{i.designToDownload ? "Ready (design to download)" : "Ready"}</Tag>
        ),
    },
  ];

  const batchColumns = [
    { key: "print", title: "Batch", render: (_: unknown, b: Batch) => <Link to={`/prints/${b.printId}`}>Print {b.printId.slice(0, 8).toUpperCase()}</Link> },
    { key: "created", title: "Made", render: (_: unknown, b: Batch) => dayjs(b.createdAt).format("MMM D, HH:mm") },
    { key: "trigger", title: "By", render: (_: unknown, b: Batch) => ({ manual: "Batch now", cutoff: "Cut-off", length: "Film length", wait: "Waiting time", sync: "Sync" })[b.trigger] ?? b.trigger },
    { key: "orders", title: "Orders", dataIndex: "orders" },
    { key: "copies", title: "Copies", dataIndex: "copies" },
    { key: "status", title: "Status", render: (_: unknown, b: Batch) => <Space direction="vertical" size={2}><Tag>{b.status}</Tag>{b.note && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{b.note}</Typography.Text>}</Space> },
  ];

  return (
    <PageShell
      title="Production"
      extra={
        <Space wrap>
          <Button icon={<SettingOutlined />} onClick={() => setSettingsOpen(true)}>Batching rules</Button>
          <Button type="primary" icon={<ThunderboltOutlined />} loading={batchNow.isPending} disabled={!summary?.readyItems} onClick={runBatch}>
            Batch now
          </Button>
        </Space>
      }
    >
      <Space direction="vertical" size={16} style={{ width: "100%" }}>
        <Card>
          <Row gutter={[16, 16]}>
            <Col xs={12} md={6}><Statistic title="Ready items" value={summary?.readyItems ?? 0} loading={queue.isLoading} /></Col>
            <Col xs={12} md={6}><Statistic title="Ready copies" value={summary?.readyCopies ?? 0} loading={queue.isLoading} /></Col>
            <Col xs={12} md={6}><Statistic title="Blocked items" value={summary?.blockedItems ?? 0} loading={queue.isLoading} /></Col>
            <Col xs={12} md={6}><FilmEstimate summary={summary} loading={queue.isLoading} /></Col>
          </Row>
          <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
            {triggerText(settings.data)}
            {settings.data?.nextCutoffAt ? ` · next cut-off ${weekdayTimeIn(settings.data.nextCutoffAt, settings.data.timeZone)}` : ""}
          </Typography.Paragraph>
        </Card>
        <Card
          title={<Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>Queue</Typography.Title>}
          extra={
            <Segmented<QueueFilter>
              value={filter}
              onChange={(v) => {
                setFilter(v);
                setPage(1);
              }}
              options={[{ value: "all", label: "All" }, { value: "ready", label: "Ready" }, { value: "blocked", label: "Blocked" }]}
            />
          }
        >
          <ResponsiveTable<QueueItem>
            rowKey="_id"
            columns={columns}
            dataSource={rows}
            loading={queue.isLoading}
            locale={{ emptyText: <Empty description="No order items waiting. Synced orders show up here." /> }}
            pagination={{ current: page, pageSize: PAGE_SIZE, total: queue.data?.pagination.totalDocuments ?? 0, onChange: setPage, showSizeChanger: false }}
            scroll={{ x: "max-content" }}
          />
        </Card>
        <Card title={<Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>Recent batches</Typography.Title>}>
          <ResponsiveTable<Batch>
            rowKey="printId"
            columns={batchColumns}
            dataSource={batches.data ?? []}
            loading={batches.isLoading}
            pagination={false}
            locale={{ emptyText: "No batches yet" }}
            scroll={{ x: "max-content" }}
          />
        </Card>
      </Space>
      <ProductionSettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} settings={settings.data} />
    </PageShell>
  );
}
