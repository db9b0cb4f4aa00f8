import { useState } from "react";
import { Button, Flex, Form, Input, Modal, Tag, Typography } from "antd";
import { CarOutlined, RedoOutlined } from "@ant-design/icons";
import { useMutation } from "@tanstack/react-query";
import dayjs from "dayjs";
import { api, call } from "../../api/client";
import { useInvalidate } from "@refinedev/core";
import type { components } from "../../api/schema";
import { toast } from "../../lib/toast";

type Order = components["schemas"]["OrderDto"];
export type OrderFulfilment = components["schemas"]["OrderFulfilmentDto"];

export const FULFILMENT_STATUSES = ["none", "pending", "fulfilled", "failed"] as const;
export const FULFILMENT_LABEL: Record<string, string> = { none: "Not shipped", pending: "Updating shop…", fulfilled: "Fulfilled", failed: "Shop refused" };
const COLOR: Record<string, string> = { none: "default", pending: "processing", fulfilled: "success", failed: "error" };

function useFulfilmentMutations() {
  const invalidate = useInvalidate();
  const refresh = () => invalidate({ resource: "orders", invalidates: ["all"] });
  const ship = useMutation({
    mutationFn: ({ id, carrier, trackingNumber }: { id: string; carrier?: string; trackingNumber?: string }) =>
      call(api.POST("/api/orders/{id}/ship", { params: { path: { id } }, body: { carrier: carrier || undefined, trackingNumber: trackingNumber || undefined } }), { silent: true }),
    onSettled: refresh,
  });
  const retry = useMutation({
    mutationFn: (id: string) => call(api.POST("/api/orders/{id}/fulfilment/retry", { params: { path: { id } } }), { silent: true }),
    onSettled: refresh,
  });
  return { ship, retry };
}

/** The order's fulfilment back to the shop: its state, the shop's refusal with Retry, and "Mark shipped". */
export function FulfilmentCell({ order }: { order: Order }) {
  const f = order.fulfilment;
  const { ship, retry } = useFulfilmentMutations();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ carrier?: string; trackingNumber?: string }>();
  const etsy = order.integrationId.type === "Etsy";
  const label = `order #${order.orderId}`;

  const submit = async () => {
    // An invalid form shows its messages beside the fields; nothing to send.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    ship.mutate(
      { id: order._id, carrier: v.carrier?.trim(), trackingNumber: v.trackingNumber?.trim() },
      {
        onSuccess: (r) => {
          toast.success(r.message);
          setOpen(false);
          form.resetFields();
        },
        onError: (e) => toast.error(e.message),
      },
    );
  };

  return (
    <Flex vertical gap={4} align="flex-start" data-testid={`fulfilment-${order.orderId}`}>
      <Tag color={COLOR[f.status]}>{FULFILMENT_LABEL[f.status] ?? f.status}</Tag>
      {f.status === "fulfilled" && f.fulfilledAt && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {dayjs(f.fulfilledAt).format("MMM D, HH:mm")}
          {f.trackingNumber ? ` · ${f.carrier ?? ""} ${f.trackingNumber}` : f.carrier ? ` · ${f.carrier}` : ""}
        </Typography.Text>
      )}
      {f.status === "pending" && f.error && (
        <Typography.Text type="secondary" style={{ fontSize: 12, maxWidth: 220 }}>
          Trying again: {f.error}
        </Typography.Text>
      )}
      {f.status === "failed" && (
        <>
          <Typography.Text type="danger" style={{ fontSize: 12, maxWidth: 220 }} role="alert">
            {f.error}
          </Typography.Text>
          <Button
            size="small"
            icon={<RedoOutlined />}
            loading={retry.isPending}
            aria-label={`Retry: ${label}`}
            onClick={() => retry.mutate(order._id, { onSuccess: (r) => toast.success(r.message), onError: (e) => toast.error(e.message) })}
          >
            Retry
          </Button>
        </>
      )}
      {f.status === "none" && (
        <Button size="small" icon={<CarOutlined />} aria-label={`Mark shipped: ${label}`} onClick={() => setOpen(true)}>
          Mark shipped
        </Button>
      )}
      <Modal
        title={`Mark ${label} shipped`}
        open={open}
        okText="Mark shipped"
        confirmLoading={ship.isPending}
        onOk={() => void submit()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">
          {etsy
            ? "Etsy records the shipment and tells the buyer when you give a tracking number. Without one, nothing is sent to Etsy; the order is only marked fulfilled here."
            : "The order gets the status chosen for this shop (normally completed) and a private note with the carrier and tracking number."}
        </Typography.Paragraph>
        <Form form={form} layout="vertical" requiredMark="optional">
          <Form.Item
            name="carrier"
            label="Carrier"
            extra={etsy ? "Etsy's carrier name, e.g. usps, fedex, dhl, royal-mail, other" : undefined}
            rules={[
              { max: 60, message: "At most 60 characters" },
              ({ getFieldValue }) => ({
                validator: (_, v) => (getFieldValue("trackingNumber")?.trim() && !v?.trim() ? Promise.reject(new Error("Give the carrier together with the tracking number")) : Promise.resolve()),
              }),
            ]}
            dependencies={["trackingNumber"]}
          >
            <Input autoComplete="off" maxLength={60} />
          </Form.Item>
          <Form.Item
            name="trackingNumber"
            label="Tracking number"
            rules={[
              { max: 100, message: "At most 100 characters" },
              { pattern: /^\s*([A-Za-z0-9][A-Za-z0-9 ._/-]*)?\s*$/, message: "Letters, digits, spaces and . _ / - only" },
            ]}
          >
            <Input autoComplete="off" maxLength={100} />
          </Form.Item>
        </Form>
      </Modal>
    </Flex>
  );
}
