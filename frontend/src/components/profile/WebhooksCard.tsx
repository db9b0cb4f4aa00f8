import { useState } from "react";
import { Button, Card, Checkbox, Form, Input, Popconfirm, Radio, Space, Switch, Tag, Typography } from "antd";
import { ResponsiveTable } from "../table/ResponsiveTable";
import { PlusOutlined } from "@ant-design/icons";
import { useInvalidate } from "@refinedev/core";
import dayjs from "dayjs";
import { api, call } from "../../api/client";
import type { components } from "../../api/schema";
import { toast } from "../../lib/toast";
import { useApiQuery, useInvalidateApi } from "../../api/query";
import { useResourceList } from "../../hooks/useResource";
import { QueryFormModal, useQueryModalForm } from "../common/QueryFormModal";
import { SecretReveal } from "./SecretReveal";

type Webhook = components["schemas"]["WebhookDto"];
type Delivery = components["schemas"]["WebhookDeliveryDto"];
type EventName = components["schemas"]["CreateWebhookDto"]["events"][number];
export const WEBHOOK_EVENTS = ["print.completed", "print.failed", "print.cancelled", "payment.completed", "order.synced", "order.fulfilled", "batch.created", "batch.completed"] as const satisfies readonly EventName[];
// Every event the API offers is offered here: a new one fails the type check until listed.
const everyEventListed: Exclude<EventName, (typeof WEBHOOK_EVENTS)[number]> extends never ? true : never = true;
void everyEventListed;
const DELIVERY_COLOR: Record<string, string> = { succeeded: "green", pending: "blue", failed: "red" };
const when = (d?: string | null) => (d ? dayjs(d).format("MMM D, YYYY HH:mm:ss") : "—");

/** The delivery log of one endpoint, newest first, with Redeliver. */
function Deliveries({ endpointId }: { endpointId: string }) {
  const invalidateApi = useInvalidateApi();
  const list = useApiQuery(
    ["/api/webhooks/{id}/deliveries", { id: endpointId }],
    () => api.GET("/api/webhooks/{id}/deliveries", { params: { path: { id: endpointId }, query: { limit: 20 } } }),
    { refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === "pending") ? 3000 : false) },
  );
  const [busy, setBusy] = useState<string | null>(null);
  const redeliver = async (d: Delivery) => {
    setBusy(d._id);
    try {
      const res = await call(api.POST("/api/webhooks/deliveries/{deliveryId}/redeliver", { params: { path: { deliveryId: d._id } } }));
      if (res.data.lastAttemptOk) toast.success(res.message ?? "Delivered");
      else toast.error(res.message ?? "Not delivered");
      await invalidateApi("/api/webhooks/{id}/deliveries");
    } catch {
      // call() has shown the server's message
    } finally {
      setBusy(null);
    }
  };
  return (
    <ResponsiveTable<Delivery>
      rowKey="_id"
      size="small"
      loading={list.isLoading}
      dataSource={list.data?.data ?? []}
      pagination={false}
      locale={{ emptyText: "No deliveries yet." }}
      columns={[
        { title: "Event", dataIndex: "event" },
        { title: "Status", dataIndex: "status", render: (s: string) => <Tag color={DELIVERY_COLOR[s]}>{s}</Tag> },
        { title: "Attempts", dataIndex: "attempts" },
        { title: "Last answer", key: "last", render: (_: unknown, d) => (d.lastStatusCode ? `HTTP ${d.lastStatusCode}` : (d.lastError ?? "—")) },
        { title: "Last attempt", dataIndex: "lastAttemptAt", render: when },
        { title: "", key: "a", render: (_: unknown, d) => <Button size="small" loading={busy === d._id} onClick={() => redeliver(d)}>Redeliver</Button> },
      ]}
    />
  );
}

/** Profile section "Webhooks": endpoints that receive signed events, with their delivery log. */
export function WebhooksCard() {
  const { result: hooks, query } = useResourceList("webhooks", { pagination: { mode: "off" } });
  const invalidate = useInvalidate();
  const invalidateApi = useInvalidateApi();
  const [secret, setSecret] = useState<string | null>(null);
  const refresh = () => invalidate({ resource: "webhooks", invalidates: ["all"] });
  // addWebhook: the one modal-form way; the answer carries the signing secret, shown once.
  const add = useQueryModalForm<Webhook & { secret?: string }, components["schemas"]["CreateWebhookDto"]>({
    param: "addWebhook",
    resource: "webhooks",
    action: "create",
    successMessage: "Webhook endpoint added",
    defaults: { events: ["print.completed", "print.failed"], mode: "live" },
    onSaved: async (saved) => {
      setSecret(saved?.secret ?? null);
      await refresh();
    },
  });
  const setActive = async (w: Webhook, active: boolean) => {
    await call(api.PATCH("/api/webhooks/{id}", { params: { path: { id: w._id } }, body: { active } }));
    await refresh();
  };
  const test = async (w: Webhook) => {
    await call(api.POST("/api/webhooks/{id}/test", { params: { path: { id: w._id } } }));
    toast.success("Test event sent");
    await invalidateApi("/api/webhooks/{id}/deliveries");
  };
  // a rolled secret is shown once, like a new endpoint's; the old one signs beside it for 24 hours
  const roll = async (w: Webhook) => {
    const res = await call(api.POST("/api/webhooks/{id}/roll-secret", { params: { path: { id: w._id } }, body: { overlapHours: 24 } }));
    toast.success(res.message ?? "Signing secret rolled");
    setSecret(res.data.secret);
    await refresh();
  };
  const remove = async (w: Webhook) => {
    await call(api.DELETE("/api/webhooks/{id}", { params: { path: { id: w._id } } }));
    toast.success("Webhook deleted");
    await refresh();
  };

  return (
    <Card title="Webhooks" extra={<Button type="primary" icon={<PlusOutlined />} onClick={() => add.modal.show()}>Add endpoint</Button>}>
      <Typography.Paragraph type="secondary">
        We POST events to your URL as they happen, signed with the endpoint&apos;s secret (header <code>GangSheet-Signature</code>).
        Failed deliveries are retried for 24 hours; expand an endpoint to see its deliveries. A test endpoint receives only the events of test keys&apos; prints, a live one only the others.
      </Typography.Paragraph>
      <ResponsiveTable<Webhook>
        rowKey="_id"
        size="middle"
        loading={query.isLoading}
        dataSource={hooks.data}
        pagination={false}
        locale={{ emptyText: "You have no webhooks yet." }}
        expandable={{ expandedRowRender: (w) => <Deliveries endpointId={w._id} />, expandRowByClick: false }}
        scroll={{ x: true }}
        columns={[
          {
            title: "URL",
            dataIndex: "url",
            render: (u: string, w) => (
              <span>
                <code>{u}</code>
                {w.mode === "test" ? (
                  <Tag color="gold" style={{ marginLeft: 8 }}>
                    Test
                  </Tag>
                ) : null}
                {w.description ? <Typography.Text type="secondary"> — {w.description}</Typography.Text> : null}
                {w.previousSecretExpiresAt ? (
                  <div>
                    <Typography.Text type="secondary">Old secret also signs until {when(w.previousSecretExpiresAt)}</Typography.Text>
                  </div>
                ) : null}
              </span>
            ),
          },
          { title: "Events", dataIndex: "events", render: (ev: string[]) => ev.map((e) => <Tag key={e}>{e}</Tag>) },
          { title: "Active", dataIndex: "active", render: (a: boolean, w) => <Switch size="small" checked={a} onChange={(v) => setActive(w, v).catch(() => undefined)} aria-label="Active" /> },
          {
            title: "",
            key: "actions",
            render: (_: unknown, w) => (
              <Space>
                <Button size="small" onClick={() => test(w).catch(() => undefined)}>Send test event</Button>
                <Popconfirm
                  title="Roll the signing secret?"
                  description="You get a new secret. The old one keeps signing deliveries beside it for 24 hours, so you can switch your receiver first."
                  okText="Roll secret"
                  onConfirm={() => roll(w).catch(() => undefined)}
                >
                  <Button size="small">Roll secret</Button>
                </Popconfirm>
                <Popconfirm title="Delete this webhook?" description="Its delivery log is deleted too." okText="Delete" onConfirm={() => remove(w).catch(() => undefined)}>
                  <Button size="small" danger>Delete</Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <QueryFormModal form={add} title="Add webhook endpoint" okText="Add">
        <Form.Item name="url" label="URL" rules={[{ required: true, whitespace: true, message: "URL is required" }, { validator: (_, v?: string) => (!v || /^https?:\/\/[^\s/]+/i.test(v.trim()) ? Promise.resolve() : Promise.reject(new Error("Enter a valid URL, e.g. https://example.com/webhooks/gangsheet"))) }]}>
          <Input placeholder="https://shop.example.com/hooks/gangsheet" autoFocus />
        </Form.Item>
        <Form.Item name="events" label="Events" rules={[{ required: true, type: "array", min: 1, message: "Choose at least one event" }]}>
          <Checkbox.Group options={WEBHOOK_EVENTS.map((e) => ({ label: e, value: e }))} />
        </Form.Item>
        <Form.Item name="description" label="Description (optional)" rules={[{ max: 200, message: "The description must be at most 200 characters" }]}>
          <Input placeholder="Order system" />
        </Form.Item>
        <Form.Item name="mode" label="Mode" extra="Test endpoints receive only the events of test keys' prints; live ones only the others.">
          <Radio.Group>
            <Radio value="live">Live</Radio>
            <Radio value="test">Test</Radio>
          </Radio.Group>
        </Form.Item>
      </QueryFormModal>
      <SecretReveal title="Signing secret of your webhook" secret={secret} onClose={() => setSecret(null)} />
    </Card>
  );
}
