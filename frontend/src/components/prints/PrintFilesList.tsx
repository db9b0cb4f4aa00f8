import { Button, Flex, List, Typography } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import { CopyLinkButton } from "./CopyLinkButton";
import { ownFilePath } from "./rules";
import { FORMAT_LABELS, fileLabel, formatBytes, groupByFormat, type ListedFile } from "./printFiles";

/**
 * A print's files listed by format: one list per format (PNG, then PDF), a row per sheet
 * with its link, size when known, Download and (optionally) Copy link. With `shareLink`,
 * Copy link copies the file's share link (works without an account) instead of its own path.
 */
export function PrintFilesList({ files, shareable = true, shareLink }: { files: ListedFile[]; shareable?: boolean; shareLink?: (f: ListedFile) => Promise<string> }) {
  // Only paths on our own API are linked (see ownFilePath).
  const groups = groupByFormat(files.filter((f) => ownFilePath(f.path)));
  if (groups.length === 0) return <List size="small" bordered dataSource={[]} locale={{ emptyText: "No files" }} />;
  return (
    <Flex vertical gap={12} data-testid="print-files">
      {groups.map((g) => (
        <div key={g.format} data-testid={`files-${g.format}`}>
          <Typography.Text strong>{FORMAT_LABELS[g.format]} files</Typography.Text>
          <List
            size="small"
            bordered
            style={{ marginTop: 6 }}
            dataSource={g.files}
            renderItem={(f, i) => {
              const url = f.path;
              const size = formatBytes(f.bytes);
              return (
                <List.Item
                  data-testid="success-file"
                  data-format={f.format}
                  actions={[
                    <Button key="dl" size="small" icon={<DownloadOutlined />} href={url} download aria-label={`Download ${fileLabel(f, i, g.files.length)}`}>Download</Button>,
                    ...(shareable ? [<CopyLinkButton key="copy" url={shareLink ? () => shareLink(f) : url} />] : []),
                  ]}
                >
                  <Typography.Link href={url} target="_blank" rel="noreferrer">
                    {fileLabel(f, i, g.files.length)}
                  </Typography.Link>
                  {size && <Typography.Text type="secondary" style={{ marginLeft: 8, fontSize: 12 }}>{size}</Typography.Text>}
                </List.Item>
              );
            }}
          />
        </div>
      ))}
    </Flex>
  );
}
