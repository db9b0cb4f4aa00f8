import { useState } from "react";
import { Button, Card, Flex, Form, Input, InputNumber, Modal, Tag, Typography } from "antd";
import { ResponsiveTable } from "../../components/table/ResponsiveTable";
import type { ColumnsType } from "antd/es/table";
import type { Rule } from "antd/es/form";
import { useMutation } from "@tanstack/react-query";
import { api, call } from "../../api/client";
import type { components } from "../../api/schema";
import { formatDate } from "../../components/payments/PaymentHistory";
import { useProfile } from "../../hooks/useProfile";
import { toast } from "../../lib/toast";
import { useLocalPages } from "../../lib/urlList";
import { useApiQuery, useInvalidateApi } from "../../api/query";

export type CreditHistoryEntry = components["schemas"]["CreditHistoryEntryDto"];

/** Every balance change an admin makes says why; the server keeps it in the credit history. */
export const reasonRules: Rule[] = [
  { required: true, whitespace: true, message: "A reason is required" },
  { min: 3, message: "A reason is required (at least 3 characters)" },
  { max: 300, message: "The reason is too long (at most 300 characters)" },
];

/** After an admin changed a balance: the credit history and (for the admin's own account) the header refetch. */
export function useRefreshCredits(userId: string) {
  const invalidateApi = useInvalidateApi();
  const { profile } = useProfile();
  return () => {
    void invalidateApi("/api/users/{id}/credit/history");
    if (profile?._id === userId) void invalidateApi("/api/profile");
  };
}

const PRESETS = [500, 1000, 5000];

/**
 * "Add credit to {user}": a grant, not a payment (no money moves). Each button only opens
 * the confirmation, which shows the amount (editable) and asks for the reason; nothing
 * changes before "Add … credits" there.
 */
export function AddCreditCard({ user, onAdded }: { user: { _id: string; username: string }; onAdded: () => void }) {
  const [credits, setCredits] = useState<number | null>(null);
  return (
    <Card title={`Add credit to ${user.username}`} data-testid="add-credit">
      <Typography.Paragraph type="secondary">
        Gives credits without a payment: it is not counted as revenue. The change, your name and the reason are kept in the credit history below.
      </Typography.Paragraph>
      <Flex gap={12} wrap>
        {PRESETS.map((n) => (
          <Button key={n} type="primary" onClick={() => setCredits(n)} data-testid={`add-credits${n}`}>
            Add {n.toLocaleString("en-US")} credits
          </Button>
        ))}
        <Button onClick={() => setCredits(100)} data-testid="add-credits-other">Other amount…</Button>
      </Flex>
      {credits !== null && <GrantCreditModal user={user} initialCredits={credits} onClose={() => setCredits(null)} onAdded={onAdded} />}
    </Card>
  );
}

function GrantCreditModal({ user, initialCredits, onClose, onAdded }: { user: { _id: string; username: string }; initialCredits: number; onClose: () => void; onAdded: () => void }) {
  const [form] = Form.useForm<{ credits: number; reason: string }>();
  const credits = Form.useWatch("credits", form) ?? initialCredits;
  const refresh = useRefreshCredits(user._id);
  const grant = useMutation({
    mutationFn: async (body: { credits: number; reason: string }) =>
      call(api.POST("/api/users/{id}/credit/grant", { params: { path: { id: user._id } }, body })),
    onSuccess: (res) => {
      toast.success(res.message ?? "Credit added successfully");
      refresh();
      onAdded();
      onClose();
    },
  });
  const valid = Number.isInteger(credits) && credits > 0;
  return (
    <Modal
      open
      title={`Add credit to ${user.username}`}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={valid ? `Add ${credits.toLocaleString("en-US")} credits` : "Add credits"}
      okButtonProps={{ loading: grant.isPending }}
      destroyOnHidden
    >
      <Form
        form={form}
        name="grantCredit"
        layout="vertical"
        requiredMark={false}
        initialValues={{ credits: initialCredits }}
        onFinish={(v) => grant.mutate({ credits: v.credits, reason: v.reason.trim() })}
      >
        <Form.Item
          name="credits"
          label="Credits to add"
          rules={[
            { required: true, message: "Credits is required" },
            { validator: (_, v) => (v == null || (Number.isInteger(v) && v > 0 && v <= 1_000_000) ? Promise.resolve() : Promise.reject(new Error("Credits must be a whole number from 1 to 1,000,000"))) },
          ]}
        >
          <InputNumber style={{ width: "100%" }} />
        </Form.Item>
        <Form.Item name="reason" label="Reason" rules={reasonRules} extra="Kept in the credit history with your name. The user is told the amount, not the reason.">
          <Input.TextArea rows={2} maxLength={300} placeholder="e.g. Goodwill for a failed print" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

const REASON_LABEL: Record<CreditHistoryEntry["reason"], string> = {
  purchase: "Payment",
  admin_grant: "Added by an admin",
  admin_adjust: "Balance set by an admin",
  print_charge: "Print processed",
  refund: "Print refunded",
  payment_refund: "Payment refunded",
};

const actorName = (e: CreditHistoryEntry) => {
  if (!e.actor) return "System";
  return [e.actor.firstName, e.actor.lastName].filter(Boolean).join(" ") || e.actor.username || "A deleted account";
};

/** The user's credit history (the ledger), newest first, paged on the server. */
export function CreditHistoryCard({ userId }: { userId: string }) {
  const pages = useLocalPages();
  const { page, limit } = pages;
  const { data, isLoading } = useApiQuery(
    ["/api/users/{id}/credit/history", { id: userId, page, limit }],
    () => api.GET("/api/users/{id}/credit/history", { params: { path: { id: userId }, query: { page, limit } } }),
    { placeholderData: (previous) => previous },
  );
  const columns: ColumnsType<CreditHistoryEntry> = [
    { key: "date", title: "Date", dataIndex: "createdAt", render: formatDate },
    {
      key: "change",
      title: "Change",
      align: "right",
      render: (_, e) => (
        <Typography.Text strong type={e.availableDelta < 0 ? "danger" : "success"} data-testid="credit-change">
          {e.availableDelta > 0 ? "+" : ""}
          {e.availableDelta.toLocaleString("en-US")}
        </Typography.Text>
      ),
    },
    { key: "after", title: "Balance after", dataIndex: "availableAfter", align: "right", render: (n: number) => n.toLocaleString("en-US") },
    {
      key: "what",
      title: "What",
      render: (_, e) => (
        <Flex vertical gap={2}>
          <span>
            <Tag color={e.reason.startsWith("admin") ? "purple" : undefined}>{REASON_LABEL[e.reason] ?? e.reason}</Tag>
          </span>
          {/* An admin's own words are quoted; the system's notes (which print, which payment) are not. */}
          {e.note && <Typography.Text data-testid="credit-note">{e.reason.startsWith("admin") ? `“${e.note}”` : e.note}</Typography.Text>}
        </Flex>
      ),
    },
    { key: "by", title: "By", render: (_, e) => actorName(e) },
  ];
  return (
    <Card title="Credit history" style={{ marginTop: 24 }} data-testid="credit-history">
      <ResponsiveTable<CreditHistoryEntry>
        rowKey="_id"
        size="small"
        columns={columns}
        dataSource={data?.data ?? []}
        loading={isLoading}
        locale={{ emptyText: "No credit changes yet" }}
        pagination={{ ...pages.tablePagination(data?.pagination.totalDocuments ?? 0), showTotal: (total) => `${total.toLocaleString("en-US")} changes` }}
      />
    </Card>
  );
}
