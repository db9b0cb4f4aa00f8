import { useEffect, useRef, useState } from "react";
import { Button } from "antd";
import { CheckOutlined, LinkOutlined } from "@ant-design/icons";
import { toast } from "../../lib/toast";
import { MSG } from "./rules";

export const COPY_REVERT_MS = 2000;

/** Copies an absolute link; the button says 'Copied' for 2 seconds. */
export function CopyLinkButton({ url, label = "Copy link" }: { url: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    const absolute = new URL(url, window.location.origin).toString();
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
    <Button size="small" icon={copied ? <CheckOutlined /> : <LinkOutlined />} onClick={copy}>
      {copied ? "Copied" : label}
    </Button>
  );
}
