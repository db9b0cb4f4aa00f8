// The prints table's columns, shared by /prints and the user detail page.
import { Button, Flex, Image, Tooltip, Typography } from "antd";
import { DeleteOutlined, EyeOutlined, ThunderboltOutlined } from "@ant-design/icons";
import dayjs from "dayjs";
import { Link } from "react-router";
import type { DataColumn } from "../table/DataTable";
import { PrintStatusTag, RetentionTag, TestModeTag } from "./PrintBits";
import { canDelete, canProcess, processLabel, totalQuantity } from "./rules";
import type { Print } from "../../api/types";

export const shortPrintId = (id: string) => id.slice(0, 8).toUpperCase();
const formatDate = (iso: string | null | undefined) => (iso ? dayjs(iso).format("MMM D, YYYY HH:mm") : "—");

export interface PrintColumnOptions {
  /**
   * Whether the signed-in user may open /prints/{id} for this row (the page edits and
   * processes, which only the owner may). Without it every row links; a row that may not
   * gets no View link.
   */
  canOpen?: (p: Print) => boolean;
  /** Adds the Process column; gets the print and its total quantity. */
  onProcess?: (p: Print, quantity: number) => void;
  /** Adds the Delete column. */
  onDelete?: (p: Print) => void;
}

/** File, Print ID, Type, Status, Print date, View, then Process and Delete when handled. */
export function printColumns({ canOpen = () => true, onProcess, onDelete }: PrintColumnOptions = {}): DataColumn<Print>[] {
  const columns: DataColumn<Print>[] = [
    {
      key: "file",
      title: "File",
      render: (_, p) => {
        const file = p.fileId[0];
        const src = file?.previewPath;
        if (p.status !== "Completed" || !file) return <Typography.Text type="secondary">—</Typography.Text>;
        return src ? (
          <Image src={src} width={56} height={56} style={{ objectFit: "contain", background: "#f1f5f9", borderRadius: 6 }} preview={{ src }} alt="Sheet preview" />
        ) : (
          <a href={file.path} download>Download</a>
        );
      },
    },
    {
      key: "id",
      title: "Print ID",
      render: (_, p) => {
        const id = <Typography.Text code>{shortPrintId(p._id)}</Typography.Text>;
        return canOpen(p) ? <Link to={`/prints/${p._id}`}>{id}</Link> : id;
      },
    },
    { key: "type", title: "Type", dataIndex: "type" },
    {
      key: "status",
      title: "Status",
      render: (_, p) => (
        <Flex gap={4} wrap>
          <PrintStatusTag status={p.status} />
          <TestModeTag print={p} />
        </Flex>
      ),
    },
    {
      key: "printedAt",
      title: "Print date",
      render: (_, p) => (
        <Flex vertical gap={4} align="flex-start">
          <span>{formatDate(p.printedAt)}</span>
          <RetentionTag print={p} />
        </Flex>
      ),
    },
    {
      key: "view",
      title: "View",
      render: (_, p) =>
        canOpen(p) ? (
          <Link to={`/prints/${p._id}`}><Button size="small" icon={<EyeOutlined />}>View</Button></Link>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
  ];
  if (onProcess)
    columns.push({
      key: "process",
      title: "Process",
      render: (_, p) => (
        <Button
          size="small"
          type={p.status === "In Draft" ? "primary" : "default"}
          icon={<ThunderboltOutlined />}
          disabled={!canProcess(p.status)}
          onClick={() => onProcess(p, totalQuantity(p.printItems ?? []))}
        >
          {processLabel(p.status)}
        </Button>
      ),
    });
  if (onDelete)
    columns.push({
      key: "delete",
      title: "Delete",
      render: (_, p) => (
        <Tooltip title={canDelete(p.status) ? "Delete" : "Only Completed, In Draft or Deleted prints can be deleted"}>
          <Button size="small" danger icon={<DeleteOutlined />} disabled={!canDelete(p.status)} aria-label={`Delete print ${shortPrintId(p._id)}`}
            onClick={() => onDelete(p)} />
        </Tooltip>
      ),
    });
  return columns;
}
