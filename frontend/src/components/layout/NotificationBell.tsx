import { useState } from "react";
import { Badge, Button, Empty, Flex, List, Popover, Tooltip, Typography } from "antd";
import { BellOutlined, CheckOutlined, DeleteOutlined } from "@ant-design/icons";
import { useMutation } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import dayjs from "dayjs";
import { api, call } from "../../api/client";
import type { components } from "../../api/schema";
import { useLiveEvent } from "../../providers/live";
import { useInvalidateApi } from "../../api/query";
import { useResourceList } from "../../hooks/useResource";
import { useInvalidate } from "@refinedev/core";

export type AppNotification = components["schemas"]["NotificationDto"];

const PANEL_SIZE = 10;

export const truncate = (text: string, max = 50) => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * Where a notification leads: the print, the image's edit modal, the payment history, the
 * profile (as the product spec says), and, our choice where it says nothing, the size's edit modal.
 */
export function notificationTarget(n: { type: AppNotification["type"]; attachmentId?: string | null }): string | null {
  switch (n.type) {
    case "print": return n.attachmentId ? `/prints/${n.attachmentId}` : "/prints";
    case "image": return n.attachmentId ? `/images?editImage=${n.attachmentId}` : "/images";
    case "payment": return "/profile/#payments";
    case "profile": return "/profile";
    case "size": return n.attachmentId ? `/sizes?editSize=${n.attachmentId}` : "/sizes";
    default: return null;
  }
}

/**
 * The header bell. The badge is the number of unread notifications (pagination.totalDocuments
 * of the unread list); the panel shows the latest ones, unread in bold, each with mark-read
 * and delete. A `notification-{userId}` event refreshes both at once.
 */
export function NotificationBell() {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const unread = useResourceList("notifications", {
    pagination: { currentPage: 1, pageSize: 1 },
    filters: [{ field: "status", operator: "eq", value: "unread" }],
    errorNotification: false,
    queryOptions: { retry: false },
  });
  const latest = useResourceList("notifications", {
    pagination: { currentPage: 1, pageSize: PANEL_SIZE },
    errorNotification: false,
    queryOptions: { retry: false, enabled: open },
  });
  const invalidate = useInvalidate();
  const invalidateApi = useInvalidateApi();
  const refresh = () => invalidate({ resource: "notifications", invalidates: ["all"] });
  // What a notification reports (credit added, a payment, a print charged or refunded) may
  // change the header's credit balance too.
  const refreshProfile = () => void invalidateApi("/api/profile");
  useLiveEvent("notification", () => {
    void refresh();
    refreshProfile();
  });
  useLiveEvent("print", refreshProfile);

  const markRead = useMutation({
    mutationFn: (id: string) => call(api.PUT("/api/notifications/{id}/read", { params: { path: { id } } })),
    onSettled: refresh,
  });
  const markAll = useMutation({ mutationFn: () => call(api.PUT("/api/notifications/read")), onSettled: refresh });
  const remove = useMutation({
    mutationFn: (id: string) => call(api.DELETE("/api/notifications/{id}", { params: { path: { id } } })),
    onSettled: refresh,
  });

  const count = unread.result.total ?? 0;
  const items = latest.result.data;
  const openTarget = (n: AppNotification) => {
    if (n.status === "unread") markRead.mutate(n._id);
    const to = notificationTarget(n);
    setOpen(false);
    if (to) navigate(to);
  };

  const panel = items.length ? (
    <List
      size="small"
      className="gs-notifications"
      style={{ width: "min(360px, calc(100vw - 48px))", maxHeight: 420, overflowY: "auto" }}
      dataSource={items}
      renderItem={(n) => (
        <List.Item
          data-testid="notification-item"
          data-status={n.status}
          style={{ cursor: "pointer" }}
          onClick={() => openTarget(n)}
          actions={[
            n.status === "unread" ? (
              <Tooltip title="Mark as read" key="read">
                <Button size="small" type="text" icon={<CheckOutlined />} aria-label="Mark as read" onClick={(e) => { e.stopPropagation(); markRead.mutate(n._id); }} />
              </Tooltip>
            ) : null,
            <Tooltip title="Delete" key="delete">
              <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label="Delete notification" onClick={(e) => { e.stopPropagation(); remove.mutate(n._id); }} />
            </Tooltip>,
          ].filter(Boolean)}
        >
          <List.Item.Meta
            title={
              <Typography.Text strong={n.status === "unread"} title={n.message}>
                {truncate(n.message)}
              </Typography.Text>
            }
            description={dayjs(n.createdAt).format("MMM D, YYYY HH:mm")}
          />
        </List.Item>
      )}
    />
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={latest.query.isLoading ? "Loading…" : "No notifications"} style={{ width: 240 }} />
  );

  const title = (
    <Flex justify="space-between" align="center" gap={16}>
      <Typography.Text strong>Notifications</Typography.Text>
      <Button size="small" type="link" disabled={!count || markAll.isPending} onClick={() => markAll.mutate()}>
        Mark all read
      </Button>
    </Flex>
  );

  return (
    <Popover trigger="click" placement="bottomRight" open={open} onOpenChange={setOpen} title={title} content={panel}>
      <Badge count={count} size="small" showZero color={count ? undefined : "#94a3b8"} offset={[-4, 4]}>
        <Button type="text" shape="circle" icon={<BellOutlined style={{ fontSize: 18 }} />} aria-label={`Notifications (${count})`} data-testid="notification-bell" />
      </Badge>
    </Popover>
  );
}
