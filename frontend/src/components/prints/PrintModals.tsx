import { Alert, Button, Descriptions, Flex, Modal, Progress, Spin, Typography } from "antd";
import { ExclamationCircleOutlined } from "@ant-design/icons";
import { useSearchParams } from "../../lib/searchParams";
import { useProfile } from "../../hooks/useProfile";
import { useQueryModal } from "../../lib/queryModal";
import { PrintFilesList } from "./PrintFilesList";
import { ShareNote, type ShareLinks } from "./ShareLinks";
import { fileOfPath } from "./printFiles";
import { MSG, ownFilePath, showFilesOnlyDelete, stageText } from "./rules";
import type { PrintStatus } from "../../api/types";

/**
 * printWarningModal=<value>: confirms processing. On a print the value is the credit
 * cost (shown with the user's balance); on manual create it is the total quantity.
 */
export function ProcessWarningModal({ kind, onProceed, pending, value: live }: { kind: "cost" | "quantity"; onProceed: () => void; pending: boolean; value?: number }) {
  const modal = useQueryModal("printWarningModal");
  const { profile } = useProfile();
  // A live figure from the page wins over the one written into the URL when it opened.
  const value = live ?? Number(modal.value ?? 0);
  const balance = profile?.credit.availableCredits ?? 0;
  const short = kind === "cost" && value > balance;
  return (
    <Modal
      open={modal.open}
      title={<Flex gap={8} align="center"><ExclamationCircleOutlined style={{ color: "#f59e0b" }} /> Process print</Flex>}
      onCancel={modal.close}
      okText="Proceed"
      onOk={onProceed}
      okButtonProps={{ loading: pending, disabled: pending || short }}
      cancelButtonProps={{ disabled: pending }}
      destroyOnHidden
    >
      <Typography.Paragraph>
        Processing lays out every copy on gang sheets and renders the print files. This cannot be undone.
      </Typography.Paragraph>
      <Descriptions column={1} size="small" bordered>
        {kind === "cost" ? (
          <Descriptions.Item label="Credit cost"><strong data-testid="warning-cost">{value}</strong> credits</Descriptions.Item>
        ) : (
          <Descriptions.Item label="Total quantity"><strong data-testid="warning-quantity">{value}</strong> copies ({value} credits)</Descriptions.Item>
        )}
        <Descriptions.Item label="Your balance"><span data-testid="warning-balance">{balance}</span> credits</Descriptions.Item>
      </Descriptions>
      {short && <Alert style={{ marginTop: 12 }} type="error" showIcon message={`You need ${value - balance} more credits to process this print.`} />}
    </Modal>
  );
}

/**
 * Covers the page while a print is being processed (spec: Manual print create). With
 * `onCancel` it offers to stop processing (credits refunded, the print back in draft).
 */
export function ProcessingOverlay({ open, percent, stage, onCancel, cancelling = false }: { open: boolean; percent?: number; stage?: string; onCancel?: () => void; cancelling?: boolean }) {
  if (!open) return null;
  return (
    <div className="gs-processing-overlay" role="alertdialog" aria-live="polite" data-testid="processing-overlay"
      style={{ position: "fixed", inset: 0, zIndex: 1100, background: "rgba(15,23,42,0.55)", display: "flex", alignItems: "center", justifyContent: "center", padding: 24 }}>
      <Flex vertical align="center" gap={16} style={{ background: "#fff", borderRadius: 12, padding: 32, maxWidth: 460, textAlign: "center", boxShadow: "0 20px 50px rgba(0,0,0,.25)" }}>
        <Spin size="large" />
        <Typography.Text strong>{MSG.processing}</Typography.Text>
        {/* The bar from the start: "Waiting to start" until the job's first event, then the stage in words. */}
        <div style={{ width: "100%" }} data-testid="processing-progress">
          <Progress percent={Math.round(percent ?? 0)} size="small" />
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="processing-stage">{stageText(percent === undefined ? undefined : stage)}</Typography.Text>
        </div>
        {onCancel && (
          <Button onClick={onCancel} loading={cancelling} disabled={cancelling}>
            Cancel processing
          </Button>
        )}
      </Flex>
    </div>
  );
}

/**
 * printSuccessModal with one filePath parameter per file: the files by format (PNG, PDF),
 * each with its link, Download and Copy link. Sheet files are served as
 * /api/print/{id}/files/{n} (PNG) and /api/print/{id}/files/{n}/pdf (PDF); with `share`,
 * Copy link copies share links instead, explained under the list with Revoke links.
 */
export function PrintSuccessModal({ shareable = true, share, filesExpireAt, packingList }: { shareable?: boolean; share?: ShareLinks; filesExpireAt?: string | null; packingList?: string | null }) {
  const modal = useQueryModal("printSuccessModal", ["filePath"]);
  const [params] = useSearchParams();
  const paths = params.getAll("filePath").flatMap((p) => ownFilePath(p) ?? []);
  return (
    <Modal open={modal.open} title="Print processed" onCancel={modal.close} footer={<Button type="primary" onClick={modal.close}>Close</Button>} destroyOnHidden>
      <Typography.Paragraph>Your gang sheets are ready. Download them before the files expire.</Typography.Paragraph>
      <PrintFilesList files={paths.map(fileOfPath)} shareable={shareable} shareLink={share?.linkFor} />
      {packingList && <PackingListLink href={packingList} />}
      {shareable && share && paths.length > 0 && <ShareNote share={share} filesExpireAt={filesExpireAt} />}
    </Modal>
  );
}

/** The packing list of a print made from shop orders (a PDF: sheet maps with numbered positions, a table by order). */
export function PackingListLink({ href }: { href: string }) {
  return (
    <Flex align="center" gap={8} style={{ marginTop: 12 }} data-testid="packing-list">
      <Typography.Text strong>Packing list</Typography.Text>
      <Typography.Link href={href} target="_blank" rel="noreferrer">Open PDF</Typography.Link>
      <Button size="small" href={href} download>Download</Button>
    </Flex>
  );
}

/**
 * deletePrint: Delete removes only the files (hidden once Deleted) so the print can be
 * processed again; Force Delete removes the print and everything of it.
 */
export function DeletePrintModal({ status, onDeleteFiles, onForceDelete, pending }: { status: PrintStatus | undefined; onDeleteFiles: () => void; onForceDelete: () => void; pending: boolean }) {
  const modal = useQueryModal("deletePrint");
  const filesOnly = status ? showFilesOnlyDelete(status) : false;
  return (
    <Modal
      open={modal.open}
      title="Delete print"
      onCancel={modal.close}
      destroyOnHidden
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={modal.close} disabled={pending}>Cancel</Button>
          {filesOnly && <Button danger onClick={onDeleteFiles} loading={pending} disabled={pending}>Delete</Button>}
          <Button danger type="primary" onClick={onForceDelete} loading={pending} disabled={pending}>Force Delete</Button>
        </Flex>
      }
    >
      {filesOnly && (
        <Typography.Paragraph>
          <strong>Delete</strong> removes only the print files; the print stays and can be processed again.
        </Typography.Paragraph>
      )}
      <Typography.Paragraph>
        <strong>Force Delete</strong> removes the print and all of its data. This cannot be undone.
      </Typography.Paragraph>
    </Modal>
  );
}
