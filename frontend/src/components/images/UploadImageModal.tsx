import { useState } from "react";
import { Button, Flex, Form, List, Modal, Progress, Rate, Typography, Upload } from "antd";
import { DeleteOutlined, InboxOutlined } from "@ant-design/icons";
import { useInvalidate } from "@refinedev/core";
import { useQueryModal } from "../../lib/queryModal";
import { toast } from "../../lib/toast";
import { uploadImages } from "./api";
import { CategorySelect } from "./CategorySelect";
import { ACCEPT_ATTRIBUTE, UNSUPPORTED_FILE, canUpload, isAcceptedFile, perFileProgress } from "./library";

interface Entry {
  uid: string;
  file: File;
  percent: number;
  status: "ready" | "uploading" | "done" | "error";
  error?: string;
}

let nextUid = 0;

/**
 * addImage: drop files, choose category and rating, upload. One request carries the
 * batch; per-file progress comes from its byte count, per-file errors from the reply.
 * Files the server rejected stay listed with its reason; stored ones leave the list.
 */
export function UploadImageModal() {
  const modal = useQueryModal("addImage");
  const invalidate = useInvalidate();
  const [entries, setEntries] = useState<Entry[]>([]);
  const [categoryId, setCategoryId] = useState<string | null>(null);
  const [customMode, setCustomMode] = useState(false);
  const [score, setScore] = useState(0);
  const [uploading, setUploading] = useState(false);

  const pending = entries.filter((e) => e.status !== "done" && e.status !== "error");
  const close = () => {
    if (uploading) return;
    setEntries([]);
    setCategoryId(null);
    setCustomMode(false);
    setScore(0);
    modal.close();
  };

  const upload = async () => {
    const batch = pending;
    const uids = new Set(batch.map((e) => e.uid));
    const sizes = batch.map((e) => e.file.size);
    setUploading(true);
    setEntries((all) => all.map((e) => (uids.has(e.uid) ? { ...e, status: "uploading", percent: 0, error: undefined } : e)));
    try {
      const result = await uploadImages(
        batch.map((e) => e.file),
        { imageCategoryId: categoryId, score },
        (loaded, total) => {
          const pct = perFileProgress(sizes, loaded, total);
          setEntries((all) => all.map((e) => (uids.has(e.uid) ? { ...e, percent: pct[batch.findIndex((b) => b.uid === e.uid)] } : e)));
        },
      );
      // The reply names rejected files; when two share a name, match them in order.
      const errors = [...result.errors];
      const outcome = batch.map((e) => {
        const i = errors.findIndex((x) => x.name === e.file.name);
        return i >= 0 ? { ...e, status: "error" as const, percent: 100, error: errors.splice(i, 1)[0].message } : { ...e, status: "done" as const, percent: 100 };
      });
      const byUid = new Map(outcome.map((e) => [e.uid, e]));
      await Promise.all([
        invalidate({ resource: "images", invalidates: ["list", "detail"] }),
        invalidate({ resource: "image-categories", invalidates: ["list"] }),
      ]);
      const stored = result.data.length;
      if (stored) toast.success(result.message ?? `${stored} image${stored === 1 ? "" : "s"} uploaded`);
      if (outcome.every((e) => e.status === "done")) {
        setUploading(false);
        setEntries([]);
        close();
        return;
      }
      setEntries((all) => all.map((e) => byUid.get(e.uid) ?? e).filter((e) => e.status !== "done"));
    } catch {
      setEntries((all) => all.map((e) => (uids.has(e.uid) ? { ...e, status: "ready", percent: 0 } : e)));
    }
    setUploading(false);
  };

  return (
    <Modal
      title="Upload Image"
      open={modal.open}
      onCancel={close}
      maskClosable={!uploading}
      destroyOnHidden
      width={600}
      footer={
        <Flex justify="end" gap={8}>
          <Button onClick={close} disabled={uploading}>Cancel</Button>
          <Button type="primary" loading={uploading} disabled={!canUpload(pending.length, customMode, uploading)} onClick={() => void upload()}>
            Upload
          </Button>
        </Flex>
      }
    >
      <Upload.Dragger
        multiple
        accept={ACCEPT_ATTRIBUTE}
        showUploadList={false}
        disabled={uploading}
        beforeUpload={(file) => {
          if (!isAcceptedFile(file)) {
            toast.error(`${file.name}: ${UNSUPPORTED_FILE}`);
            return Upload.LIST_IGNORE;
          }
          setEntries((all) => [...all, { uid: `f${nextUid++}`, file, percent: 0, status: "ready" }]);
          return false; // we send the batch ourselves
        }}
      >
        <p className="ant-upload-drag-icon"><InboxOutlined /></p>
        <p className="ant-upload-text">Click or drag images to this area</p>
        <p className="ant-upload-hint">JPEG, PNG or SVG</p>
      </Upload.Dragger>

      {entries.length > 0 && (
        <List
          className="gs-upload-list"
          size="small"
          dataSource={entries}
          renderItem={(e) => (
            <List.Item
              data-testid="upload-entry"
              actions={
                e.status === "uploading"
                  ? []
                  : [<Button key="remove" type="text" size="small" icon={<DeleteOutlined />} aria-label={`Remove ${e.file.name}`} onClick={() => setEntries((all) => all.filter((x) => x.uid !== e.uid))} />]
              }
            >
              <div style={{ width: "100%", minWidth: 0 }}>
                <Typography.Text ellipsis style={{ maxWidth: "100%" }}>{e.file.name}</Typography.Text>
                {e.status === "error" ? (
                  <Typography.Text type="danger" style={{ display: "block" }}>{e.error}</Typography.Text>
                ) : (
                  <Progress percent={e.percent} size="small" status={e.status === "uploading" ? "active" : "normal"} showInfo={e.status !== "ready"} />
                )}
              </div>
            </List.Item>
          )}
        />
      )}

      <Form layout="vertical" style={{ marginTop: 16 }} component="div">
        <Form.Item label="Category">
          <CategorySelect value={categoryId} onChange={setCategoryId} onCustomModeChange={setCustomMode} />
        </Form.Item>
        <Form.Item label="Score">
          <Rate allowHalf value={score} onChange={setScore} aria-label="Score" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
