import { Badge, Button, Empty, List, Popover, Typography } from "antd";
import { BellOutlined } from "@ant-design/icons";
import { useNavigate } from "react-router";
import dayjs from "dayjs";

/** What the spec says a notification carries (no API route serves it yet). */
export interface AppNotification {
  _id: string;
  type: "print" | "image" | "size" | "payment" | "profile";
  message: string;
  attachmentId?: string;
  createdAt: string;
}

export const truncate = (text: string, max = 50) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** Where a notification leads; the product names no target for sizes. */
export function notificationTarget(n: Pick<AppNotification, "type" | "attachmentId">): string | null {
  switch (n.type) {
    case "print": return n.attachmentId ? `/prints/${n.attachmentId}` : "/prints";
    case "image": return n.attachmentId ? `/images?editImage=${n.attachmentId}` : "/images";
    case "payment": return "/profile/#payments";
    case "profile": return "/profile";
    default: return null;
  }
}

/**
 * Bell with the unread count. The API has no notifications route yet, so nothing is
 * requested and the panel shows its empty state; when `GET /api/notifications` lands,
 * read it here through the typed client (`api.GET`) and its schema type.
 */
export function NotificationBell() {
  const navigate = useNavigate();
  const data: { data: AppNotification[]; pagination: { totalDocuments: number } } = { data: [], pagination: { totalDocuments: 0 } };
  const count = data.pagination?.totalDocuments ?? 0;

  const panel = data.data.length ? (
    <List
      size="small"
      style={{ width: 320 }}
      dataSource={data.data}
      renderItem={(n) => (
        <List.Item
          style={{ cursor: "pointer" }}
          onClick={() => {
            const to = notificationTarget(n);
            if (to) navigate(to);
          }}
        >
          <List.Item.Meta title={truncate(n.message)} description={dayjs(n.createdAt).format("MMM D, YYYY HH:mm")} />
        </List.Item>
      )}
    />
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No notifications" style={{ width: 240 }} />
  );

  return (
    <Popover trigger="click" placement="bottomRight" title={<Typography.Text strong>Notifications</Typography.Text>} content={panel}>
      <Badge count={count} size="small" showZero color={count ? undefined : "#94a3b8"} offset={[-4, 4]}>
        <Button type="text" shape="circle" icon={<BellOutlined style={{ fontSize: 18 }} />} aria-label={`Notifications (${count})`} />
      </Badge>
    </Popover>
  );
}
