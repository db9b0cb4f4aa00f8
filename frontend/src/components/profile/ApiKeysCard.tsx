import { useState } from "react";
import { Button, Card, DatePicker, Form, Input, Popconfirm, Radio, Space, Tag, Typography } from "antd";
import { ResponsiveTable } from "../table/ResponsiveTable";
import { PlusOutlined } from "@ant-design/icons";
import { useInvalidate } from "@refinedev/core";
import dayjs, { type Dayjs } from "dayjs";
import { api, call } from "../../api/client";
import type { components } from "../../api/schema";
import { toast } from "../../lib/toast";
import { useResourceList } from "../../hooks/useResource";
import { QueryFormModal, useQueryModalForm } from "../common/QueryFormModal";
import { SecretReveal } from "./SecretReveal";

type ApiKey = components["schemas"]["ApiKeyDto"];
type ApiKeyValues = { name: string; scope: "read" | "read-write"; mode: "live" | "test"; expiresAt?: Dayjs };

const SCOPE_LABEL: Record<string, string> = { read: "Read only", "read-write": "Read and write" };
const STATUS_COLOR: Record<string, string> = { active: "green", expired: "orange", revoked: "default" };
const when = (d?: string | null) => (d ? dayjs(d).format("MMM D, YYYY HH:mm") : "—");

/** Profile section "API keys": create (secret shown once), list, revoke, delete. */
export function ApiKeysCard() {
  const { result: keys, query } = useResourceList("api-keys", { pagination: { mode: "off" } });
  const invalidate = useInvalidate();
  const [secret, setSecret] = useState<string | null>(null);
  const refresh = () => invalidate({ resource: "api-keys", invalidates: ["all"] });
  // addApiKey: the one modal-form way; the answer carries the secret, shown once.
  const create = useQueryModalForm<ApiKey & { secret?: string }, ApiKeyValues>({
    param: "addApiKey",
    resource: "api-keys",
    action: "create",
    successMessage: "API key created",
    defaults: { scope: "read-write", mode: "live" },
    toPayload: (v) => ({ name: v.name, scope: v.scope, mode: v.mode, expiresAt: v.expiresAt ? v.expiresAt.endOf("day").toISOString() : undefined }),
    onSaved: async (saved) => {
      setSecret(saved?.secret ?? null);
      await refresh();
    },
  });
  const revoke = async (k: ApiKey) => {
    await call(api.POST("/api/api-keys/{id}/revoke", { params: { path: { id: k._id } } }));
    toast.success("API key revoked");
    await refresh();
  };
  const remove = async (k: ApiKey) => {
    await call(api.DELETE("/api/api-keys/{id}", { params: { path: { id: k._id } } }));
    toast.success("API key deleted");
    await refresh();
  };

  return (
    <Card title="API keys" extra={<Button type="primary" icon={<PlusOutlined />} onClick={() => create.modal.show()}>Create key</Button>}>
      <Typography.Paragraph type="secondary">
        Your own systems call the API with a key: send it as <code>Authorization: Bearer &lt;key&gt;</code>. A read-only key can only read;
        processing prints spends credits and needs a read-and-write key. A test key (<code>gsk_test_…</code>) runs the same API without spending
        credits: its prints are watermarked TEST and its events go to test webhooks only. Try the API at{" "}
        <a href="/api/docs" target="_blank" rel="noreferrer">/api/docs</a>.
      </Typography.Paragraph>
      <ResponsiveTable<ApiKey>
        rowKey="_id"
        size="middle"
        loading={query.isLoading}
        dataSource={keys.data}
        pagination={false}
        locale={{ emptyText: "You have no API keys yet." }}
        scroll={{ x: true }}
        columns={[
          {
            title: "Name",
            dataIndex: "name",
            render: (n: string, k) => (
              <Space size={6}>
                {n}
                {k.mode === "test" ? <Tag color="gold">Test</Tag> : null}
              </Space>
            ),
          },
          { title: "Key", dataIndex: "prefix", render: (p: string) => <code>{p}…</code> },
          { title: "Access", dataIndex: "scope", render: (s: string) => SCOPE_LABEL[s] ?? s },
          { title: "Created", dataIndex: "createdAt", render: when },
          { title: "Expires", dataIndex: "expiresAt", render: (d: string | null) => (d ? when(d) : "Never") },
          { title: "Last used", dataIndex: "lastUsedAt", render: (d: string | null) => (d ? when(d) : "Never") },
          { title: "Status", dataIndex: "status", render: (s: string) => <Tag color={STATUS_COLOR[s]}>{s[0].toUpperCase() + s.slice(1)}</Tag> },
          {
            title: "",
            key: "actions",
            render: (_: unknown, k) => (
              <Space>
                {k.status === "active" ? (
                  <Popconfirm title="Revoke this key?" description="Anything using it stops working at once." okText="Revoke" onConfirm={() => revoke(k).catch(() => undefined)}>
                    <Button danger size="small">Revoke</Button>
                  </Popconfirm>
                ) : (
                  <Popconfirm title="Delete this key?" okText="Delete" onConfirm={() => remove(k).catch(() => undefined)}>
                    <Button size="small">Delete</Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <QueryFormModal form={create} title="Create API key" okText="Create">
        <Form.Item name="name" label="Name" rules={[{ required: true, whitespace: true, message: "Name is required" }, { max: 100, message: "Name must be at most 100 characters" }]}>
          <Input placeholder="Shop backend" autoFocus />
        </Form.Item>
        <Form.Item name="scope" label="Access">
          <Radio.Group>
            <Radio value="read-write">Read and write</Radio>
            <Radio value="read">Read only</Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="mode"
          label="Mode"
          extra="Test keys spend no credits: their prints are watermarked TEST, their events go to test webhooks only, and they cannot buy credits or work with shops."
        >
          <Radio.Group>
            <Radio value="live">Live</Radio>
            <Radio value="test">Test</Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item name="expiresAt" label="Expires (optional)">
          <DatePicker disabledDate={(d) => d.isBefore(dayjs(), "day")} style={{ width: "100%" }} placeholder="Never" />
        </Form.Item>
      </QueryFormModal>
      <SecretReveal title="Your new API key" secret={secret} onClose={() => setSecret(null)} />
    </Card>
  );
}
