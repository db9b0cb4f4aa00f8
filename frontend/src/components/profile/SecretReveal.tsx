import { Alert, Button, Input, Modal, Space } from "antd";
import { CopyOutlined } from "@ant-design/icons";
import { toast } from "../../lib/toast";

/** Shows a secret once (an API key, a webhook signing secret) with a copy button. */
export function SecretReveal({ title, secret, onClose }: { title: string; secret: string | null; onClose: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret ?? "");
      toast.success("Copied to clipboard");
    } catch {
      toast.error("Copy failed: select the text and copy it yourself");
    }
  };
  return (
    <Modal open={!!secret} title={title} onCancel={onClose} footer={<Button type="primary" onClick={onClose}>Done</Button>} destroyOnHidden>
      <Alert type="warning" showIcon message="Copy it now: it will not be shown again." style={{ marginBottom: 16 }} />
      <Space.Compact style={{ width: "100%" }}>
        <Input readOnly value={secret ?? ""} data-testid="secret-value" onFocus={(e) => e.target.select()} />
        <Button icon={<CopyOutlined />} onClick={copy}>Copy</Button>
      </Space.Compact>
    </Modal>
  );
}
