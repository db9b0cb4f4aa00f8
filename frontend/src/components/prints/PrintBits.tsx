import dayjs from "dayjs";
import { Select, Tag, Tooltip } from "antd";
import { ClockCircleOutlined } from "@ant-design/icons";
import { retentionColor, retentionDaysLeft, retentionText } from "./rules";
import { PRINT_STATUSES, type Print, type PrintStatus } from "../../api/types";

const STATUS_COLORS: Record<PrintStatus, string> = {
  "In Draft": "processing",
  Processing: "gold",
  Completed: "success",
  Deleted: "default",
  Cancelled: "default",
  Error: "error",
};

export function PrintStatusTag({ status }: { status: PrintStatus }) {
  return <Tag color={STATUS_COLORS[status] ?? "default"} data-testid="print-status">{status}</Tag>;
}

/** Marks a print made with a test API key: free, at most 100 copies, its files watermarked. */
export function TestModeTag({ print }: { print: Pick<Print, "test"> }) {
  if (!print.test) return null;
  return (
    <Tooltip title="Made with a test API key: no credits charged, files watermarked TEST">
      <Tag color="orange" data-testid="print-test">Test</Tag>
    </Tooltip>
  );
}

/** The prints tables' Status filter (cleared = every status). */
export function PrintStatusSelect({ value, onChange }: { value?: string; onChange: (status?: string) => void }) {
  return (
    <Select
      allowClear
      placeholder="Status"
      aria-label="Status"
      style={{ width: 160 }}
      value={value}
      onChange={(v?: string) => onChange(v)}
      options={PRINT_STATUSES.map((s) => ({ value: s, label: s }))}
    />
  );
}

const TAG_COLOR = { red: "red", amber: "orange", green: "green" } as const;

/**
 * Days until a Completed print's files are deleted, counted to the server's
 * `filesExpireAt` and coloured as docs/prints.md says.
 */
export function RetentionTag({ print, now }: { print: Pick<Print, "status" | "filesExpireAt">; now?: Date }) {
  if (print.status === "Deleted") return <Tag color="red" data-testid="retention">The file has been deleted</Tag>;
  if (print.status !== "Completed") return null;
  const days = retentionDaysLeft(print.filesExpireAt, now);
  if (days === null || !print.filesExpireAt) return null;
  const color = retentionColor(days);
  return (
    <Tooltip title={`Print files are deleted on ${dayjs(print.filesExpireAt).format("MMM D, YYYY HH:mm")}`}>
      <Tag color={TAG_COLOR[color]} icon={<ClockCircleOutlined />} data-testid="retention" data-color={color}>
        {retentionText(days)}
      </Tag>
    </Tooltip>
  );
}
