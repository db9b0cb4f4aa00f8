import { useState } from "react";
import { Button, Flex, Popconfirm, Typography } from "antd";
import { StopOutlined } from "@ant-design/icons";
import { useMutation } from "@tanstack/react-query";
import dayjs from "dayjs";
import { api, call } from "../../api/client";
import { toast } from "../../lib/toast";
import type { ListedFile } from "./printFiles";

type ShareLinksData = Awaited<ReturnType<typeof createLinks>>["data"];

const createLinks = (id: string) => call(api.POST("/api/print/{id}/share", { params: { path: { id } } }));

export const SHARE_FILE_MISSING = "This file cannot be shared any more. Reload the page.";

/**
 * A print's share links (docs/prints.md, "Share links"): fetched on the first Copy link,
 * then reused; revoking ends every link sent so far, and the next Copy link makes new ones.
 */
export function useShareLinks(printId: string) {
  const [links, setLinks] = useState<{ printId: string; data: ShareLinksData } | null>(null);
  const current = links?.printId === printId ? links.data : undefined;
  const create = useMutation({ mutationFn: () => createLinks(printId) });
  const revoke = useMutation({
    mutationFn: () => call(api.DELETE("/api/print/{id}/share", { params: { path: { id: printId } } })),
    onSuccess: (res) => {
      setLinks(null);
      toast.success(res.message);
    },
  });
  const linkFor = async (f: ListedFile) => {
    const data = current ?? (await create.mutateAsync()).data;
    setLinks({ printId, data });
    const match = data.files.find((x) => x.format === f.format && x.sheet === (f.sheet ?? 1));
    if (!match) {
      toast.error(SHARE_FILE_MISSING);
      throw new Error(SHARE_FILE_MISSING);
    }
    return match.path;
  };
  return { expiresAt: current?.expiresAt, linkFor, revoke: () => revoke.mutateAsync().catch(() => undefined), revoking: revoke.isPending };
}

export type ShareLinks = ReturnType<typeof useShareLinks>;

/**
 * Under a print's files: what Copy link shares and until when (the links' expiry once
 * made, else the files' retention end, which is the same date), and Revoke links.
 */
export function ShareNote({ share, filesExpireAt }: { share: ShareLinks; filesExpireAt: string | null | undefined }) {
  const until = share.expiresAt ?? filesExpireAt;
  return (
    <Flex vertical gap={8} align="flex-start" style={{ marginTop: 12 }} data-testid="share-note">
      <Typography.Text type="secondary" style={{ fontSize: 13 }}>
        Copy link gives a link anyone can open without an account
        {until ? <>, until <strong data-testid="share-until">{dayjs(until).format("MMM D, YYYY HH:mm")}</strong> when the files are deleted</> : null}.
      </Typography.Text>
      <Popconfirm
        title="Revoke every link to these files?"
        description="Links you already sent stop working. Copy link makes new ones."
        okText="Revoke links"
        okButtonProps={{ danger: true }}
        onConfirm={share.revoke}
      >
        <Button size="small" danger icon={<StopOutlined />} loading={share.revoking}>Revoke links</Button>
      </Popconfirm>
    </Flex>
  );
}
