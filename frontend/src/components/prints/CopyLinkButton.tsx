import { useEffect, useRef, useState } from "react";
import { Button } from "antd";
import { CheckOutlined, LinkOutlined } from "@ant-design/icons";
import { toast } from "../../lib/toast";
import { MSG } from "./rules";

export const COPY_REVERT_MS = 2000;

/**
 * Copies an absolute link; the button says 'Copied' for 2 seconds. `url` may be a function
 * that fetches the link first (a share link); when it fails nothing is copied (the request
 * already said why).
 */
export function CopyLinkButton({ url, label = "Copy link" }: { url: string | (() => Promise<string>); label?: string }) {
  const [copied, setCopied] = useState(false);
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const resolve = async () => {
    if (typeof url === "string") return url;
    setBusy(true);
    try {
      return await url();
    } catch {
      return null;
    } finally {
      setBusy(false);
    }
  };
  const copy = async () => {
    const link = await resolve();
    if (link === null) return;
    const absolute = new URL(link, window.location.origin).toString();
    try {
      await navigator.clipboard.writeText(absolute);
    } catch {
      // Clipboard API refused (insecure context): fall back to a hidden text area.
      const area = document.createElement("textarea");
      area.value = absolute;
      document.body.appendChild(area);
      area.select();
      document.execCommand?.("copy");
      area.remove();
    }
    toast.success(MSG.linkCopied);
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_REVERT_MS);
  };
  return (
    <Button size="small" icon={copied ? <CheckOutlined /> : <LinkOutlined />} loading={busy} onClick={copy}>
      {copied ? "Copied" : label}
    </Button>
  );
}
