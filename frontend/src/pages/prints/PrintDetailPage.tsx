import { useEffect, useMemo, useState } from "react";
import { Alert, Button, Card, Col, Empty, Flex, Popconfirm, Row, Space, Tooltip, Typography } from "antd";
import { AppstoreAddOutlined, BorderOuterOutlined, CopyOutlined, DeleteOutlined, EditOutlined, PlusOutlined, ShareAltOutlined, ThunderboltOutlined } from "@ant-design/icons";
import dayjs from "dayjs";
import { useNavigate, useParams } from "react-router";
import { useSearchParams } from "../../lib/searchParams";
import { PageShell } from "../../components/common/PageShell";
import { ResponsiveTable } from "../../components/table/ResponsiveTable";
import { FullScreenSpinner } from "../../components/common/Spinners";
import { IMAGE_ADDED } from "../../components/images/ImageLibrary";
import { sizeLabel } from "../../components/images/library";
import { AddItemModal } from "../../components/prints/AddItemModal";
import { useAnyMutationPending, useLayoutPreview, usePrintActions, useSheetSettings } from "../../components/prints/api";
import { ChangeImageModal, ChangeSizeModal, Thumb } from "../../components/prints/ItemPickers";
import { QuantityStepper } from "../../components/prints/QuantityStepper";
import { LayoutPreview } from "../../components/prints/LayoutPreview";
import { LayoutEditorModal } from "../../components/prints/layout-editor/LayoutEditorModal";
import { SaveTemplateModal } from "../../components/templates/SaveTemplateModal";
import { usePrintLayout } from "../../hooks/usePrintLayout";
import { OrderLineCell } from "../../components/orders/orderBits";
import { PrintStatusTag, RetentionTag, TestModeTag } from "../../components/prints/PrintBits";
import { DeletePrintModal, PackingListLink, PrintSuccessModal, ProcessingOverlay, ProcessWarningModal } from "../../components/prints/PrintModals";
import { PrintFilesList } from "../../components/prints/PrintFilesList";
import { ShareNote, useShareLinks } from "../../components/prints/ShareLinks";
import { listedFiles } from "../../components/prints/printFiles";
import {
  MSG, canAddItem, canDelete, canEditItems, canProcess, canShareFile, creditCostOf, detailProcessLabel, missingItemMessage, processBlockedReason, problemsByItem,
} from "../../components/prints/rules";
import { SheetSettingsForm } from "../../components/prints/SheetSettingsForm";
import type { PrintItem, SheetSettings } from "../../api/types";
import { usePrintProcessing } from "../../components/prints/usePrintProcessing";
import { closeModalParams, openModalParams, useQueryModal } from "../../lib/queryModal";
import { toast } from "../../lib/toast";
import { useResourceOne } from "../../hooks/useResource";

/** The print detail: items, status rules, process checks and the live layout (docs/prints.md, docs/frontend.md). */
export function PrintDetailPage() {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const [, setParams] = useSearchParams();
  const { result, query } = useResourceOne("print", id);
  const print = result?._id ? result : undefined;
  const actions = usePrintActions(id);
  const busy = useAnyMutationPending();

  const saved = useSheetSettings();
  const [settings, setSettings] = useState<SheetSettings>();
  // Another print (e.g. the draft "Duplicate" opened) starts again from its own settings.
  useEffect(() => setSettings(undefined), [id]);
  const carried = print?.settings;
  useEffect(() => {
    // A draft that carries settings (a duplicate) starts from them, the rest from the seller's.
    if (saved.data && print && !settings) setSettings({ ...saved.data, ...(carried ?? {}) });
  }, [saved.data, print, carried, settings]);

  const printItems = print?.printItems;
  const items = useMemo(() => printItems ?? [], [printItems]);
  const complete = items.length > 0 && !missingItemMessage(items);
  const itemsVersion = useMemo(() => items.map((i) => [i._id, i.imageId, i.sizeId, i.quantity]), [items]);
  const preview = useLayoutPreview({ printId: id, settings, version: itemsVersion, enabled: !!print && complete });
  const layout = complete ? preview.data : undefined;

  const processing = usePrintProcessing({ id, print, actions, refetch: query.refetch });
  const share = useShareLinks(id);

  // The warning modal shows the layout's real cost once it is known (the list opens it
  // with the sum of the quantities).
  const cost = print ? creditCostOf(print, layout) : 0;
  // A design larger than the sheet (or an image not ready) blocks processing; say so on the item.
  const blocked = processBlockedReason(layout);
  const problems = problemsByItem(layout);

  const [changing, setChanging] = useState<{ kind: "image" | "size"; item: PrintItem } | null>(null);
  const layoutEditor = useQueryModal("editLayout");
  const [savingTemplate, setSavingTemplate] = useState(false);
  const layoutOps = usePrintLayout(id);

  if (query.isLoading || !print) {
    if (query.isError) return <PageShell title="Print Detail"><Empty description="Print not found" /></PageShell>;
    return <FullScreenSpinner />;
  }

  const editable = canEditItems(print.status);
  // the editor works on a layout of every item (nothing blocked) with the settings in use
  const canEditLayout = editable && !!layout && !!settings && layout.canProcess && layout.sheets.length > 0 && !preview.isFetching;
  const files = print.fileId;
  // a print made from shop orders has a packing list once its sheets exist
  const packingList = files.length > 0 && items.some((i) => i.orderItemId) ? `/api/print/${print._id}/packing-list` : null;
  const startProcess = () => {
    const missing = missingItemMessage(items);
    if (items.length === 0) return toast.error(MSG.imageOrSizeMissing);
    if (missing) return toast.error(missing);
    if (blocked) return toast.error(blocked);
    setParams((p) => openModalParams(p, "printWarningModal", String(cost)));
  };
  const updateItem = (itemId: string, values: { imageId?: string; sizeId?: string; quantity?: number }, after?: () => void) =>
    actions.updateItem.mutate({ itemId, ...values }, { onSuccess: after });

  const columns = [
    {
      key: "image",
      title: "Image",
      render: (_: unknown, item: PrintItem) => (
        <Flex gap={10} align="center">
          <Thumb image={item.image} />
          <Flex vertical align="flex-start">
            {item.image ? <Typography.Text>{item.image.name}</Typography.Text> : <Typography.Text type="danger">Image missing</Typography.Text>}
            {problems.get(item._id)?.map((m) => (
              <Typography.Text key={m} type="danger" style={{ fontSize: 12, maxWidth: 320 }} data-testid="item-problem">{m}</Typography.Text>
            ))}
            {editable && <Button size="small" type="link" style={{ padding: 0, height: "auto" }} icon={<EditOutlined />} disabled={busy} onClick={() => setChanging({ kind: "image", item })}>Change image</Button>}
          </Flex>
        </Flex>
      ),
    },
    {
      key: "size",
      title: "Size",
      render: (_: unknown, item: PrintItem) => (
        <Flex vertical align="flex-start">
          {item.size ? <span>{sizeLabel(item.size)}</span> : <Typography.Text type="danger">Size missing</Typography.Text>}
          {editable && <Button size="small" type="link" style={{ padding: 0, height: "auto" }} icon={<EditOutlined />} disabled={busy} onClick={() => setChanging({ kind: "size", item })}>Change size</Button>}
        </Flex>
      ),
    },
    {
      key: "quantity",
      title: "Quantity",
      render: (_: unknown, item: PrintItem) => (
        <QuantityStepper value={item.quantity} disabled={!editable} onCommit={(quantity) => updateItem(item._id, { quantity })} />
      ),
    },
    { key: "order", title: "Order Item", render: (_: unknown, item: PrintItem) => <OrderLineCell item={item} /> },
    {
      key: "delete",
      title: "Delete",
      render: (_: unknown, item: PrintItem) => (
        <Popconfirm title="Remove this item?" okText="Delete" okButtonProps={{ danger: true }} disabled={!editable || busy} onConfirm={() => actions.deleteItem.mutate(item._id)}>
          <Button size="small" danger icon={<DeleteOutlined />} disabled={!editable || busy} aria-label="Delete item" />
        </Popconfirm>
      ),
    },
  ];

  return (
    <PageShell
      title="Print Detail"
      crumbs={[{ title: "Prints", to: "/prints" }, { title: print._id.slice(0, 8).toUpperCase() }]}
      heading={
        // Words and the id never break inside; the tags move to the next line instead.
        <Space align="center" wrap style={{ whiteSpace: "nowrap" }}>
          Print <Typography.Text code style={{ fontSize: 16 }}>{print._id.slice(0, 8).toUpperCase()}</Typography.Text>
          <PrintStatusTag status={print.status} />
          <TestModeTag print={print} />
          <RetentionTag print={print} />
        </Space>
      }
      extra={
        <Space wrap>
          {canShareFile(print.status) && (
            <Button icon={<ShareAltOutlined />} onClick={() => processing.showFiles(files)} disabled={files.length === 0}>Share File</Button>
          )}
          <Button icon={<PlusOutlined />} disabled={!canAddItem(print.status) || busy} onClick={() => setParams((p) => openModalParams(p, "addPrint"))}>Add Item</Button>
          <Tooltip title={canProcess(print.status) ? blocked : null}>
            <Button type="primary" icon={<ThunderboltOutlined />} disabled={!canProcess(print.status) || busy || !!blocked} onClick={startProcess}>{detailProcessLabel(print.status)}</Button>
          </Tooltip>
          <Button
            icon={<CopyOutlined />}
            disabled={items.length === 0 || busy}
            onClick={() =>
              actions.duplicate.mutate(undefined, {
                onSuccess: (res) => {
                  toast.success(res.message ?? "Print duplicated");
                  navigate(`/prints/${res.data._id}`);
                },
              })
            }
          >
            Duplicate
          </Button>
          <Tooltip title="Keep where the designs sit on the sheet, for new prints with other artwork">
            <Button icon={<AppstoreAddOutlined />} disabled={!layout?.sheets.length || !settings || busy} onClick={() => setSavingTemplate(true)}>Save as template</Button>
          </Tooltip>
          <Button danger icon={<DeleteOutlined />} disabled={!canDelete(print.status) || busy} onClick={() => setParams((p) => openModalParams(p, "deletePrint", print._id))}>Delete</Button>
        </Space>
      }
    >
      {print.status === "Error" && print.error && <Alert type="error" showIcon message="Processing failed" description={print.error} style={{ marginBottom: 16 }} />}
      <Row gutter={[24, 24]}>
        <Col xs={24} xxl={14}>
          <Card
            title="Items"
            extra={<Typography.Text type="secondary">Created {dayjs(print.createdAt).format("MMM D, YYYY")}{print.printedAt ? ` · printed ${dayjs(print.printedAt).format("MMM D, YYYY HH:mm")}` : ""}</Typography.Text>}
          >
            <ResponsiveTable<PrintItem> rowKey="_id" columns={columns} dataSource={items} pagination={false} scroll={{ x: "max-content" }} locale={{ emptyText: "No data" }} />
          </Card>
        </Col>
        <Col xs={24} xxl={10}>
          <Flex vertical gap={24}>
            {files.length > 0 && (
              <Card title="Files" size="small" data-testid="print-detail-files">
                <PrintFilesList files={listedFiles(files)} shareable={canShareFile(print.status)} shareLink={share.linkFor} />
                {canShareFile(print.status) && <ShareNote share={share} filesExpireAt={print.filesExpireAt} />}
                {packingList && <PackingListLink href={packingList} />}
              </Card>
            )}
            {editable && layout?.layoutState === "saved" && (
              <Alert
                type="info"
                showIcon
                data-testid="layout-edited"
                message="This print uses your edited layout"
                description="Preview, cost and processing use it as saved. Changing the items or sheet settings replaces it; pinned copies stay pinned where they still fit."
                action={<Button size="small" disabled={busy} onClick={() => layoutOps.discard.mutate(undefined, { onSuccess: () => toast.success("Edited layout discarded") })}>Discard edit</Button>}
              />
            )}
            {editable && layout?.layoutState === "replaced" && layout.layoutMessage && (
              <Alert type="warning" showIcon data-testid="layout-replaced" message="Edited layout replaced" description={layout.layoutMessage} />
            )}
            {editable && (
              <Flex justify="flex-end">
                <Tooltip title={canEditLayout ? null : "The layout can be edited once every item is ready and the preview is shown"}>
                  <Button icon={<BorderOuterOutlined />} disabled={!canEditLayout || busy} onClick={() => layoutEditor.show()}>Edit layout</Button>
                </Tooltip>
              </Flex>
            )}
            <LayoutPreview
              layout={layout}
              images={items.flatMap((i) => (i.image ? [i.image] : []))}
              // Until the first layout arrives (settings, debounce, request) it is loading, not empty.
              loading={preview.isFetching || (complete && preview.isPending)}
              error={complete ? preview.error : null}
              emptyText={items.length === 0 ? "Add items to see the layout." : missingItemMessage(items) ?? undefined}
            />
            {editable && settings && (
              <Card title="Sheet settings" size="small">
                <SheetSettingsForm value={settings} onChange={setSettings} compact />
              </Card>
            )}
          </Flex>
        </Col>
      </Row>

      {layoutEditor.open && layout && settings && (
        // not closed by a refetch of the preview (a window focus): the edit in progress stays
        <LayoutEditorModal open={layoutEditor.open && editable} onClose={layoutEditor.close} printId={id} layout={layout} items={items} settings={settings} />
      )}
      {savingTemplate && layout && settings && (
        <SaveTemplateModal open onClose={() => setSavingTemplate(false)} source={{ printId: id, sheets: layout.sheets.map((s) => s.index), settings: layout.settings ?? settings }} />
      )}
      <AddItemModal
        onAdd={(image, sizeId, quantity) => actions.addItem.mutateAsync({ imageId: image._id, sizeId, quantity }).then(() => toast.success(IMAGE_ADDED))}
      />
      <ChangeImageModal
        open={changing?.kind === "image"}
        current={changing?.item.imageId ?? undefined}
        pending={actions.updateItem.isPending}
        onCancel={() => setChanging(null)}
        onSave={(imageId) => changing && updateItem(changing.item._id, { imageId }, () => setChanging(null))}
      />
      <ChangeSizeModal
        open={changing?.kind === "size"}
        current={changing?.item.sizeId ?? undefined}
        pending={actions.updateItem.isPending}
        onCancel={() => setChanging(null)}
        onSave={(sizeId) => changing && updateItem(changing.item._id, { sizeId }, () => setChanging(null))}
      />
      <ProcessWarningModal kind="cost" value={cost} pending={actions.process.isPending} onProceed={() => processing.proceed(settings)} />
      <ProcessingOverlay
        open={processing.processing}
        percent={processing.progress?.percent}
        stage={processing.progress?.stage}
        cancelling={actions.cancel.isPending}
        // Only once the server knows the print is Processing (a click before that has nothing to stop).
        onCancel={print.status === "Processing" ? processing.cancel : undefined}
      />
      <PrintSuccessModal share={share} filesExpireAt={print.filesExpireAt} packingList={packingList} />
      <DeletePrintModal
        status={print.status}
        pending={actions.removeFiles.isPending || actions.forceDelete.isPending}
        onDeleteFiles={() =>
          actions.removeFiles.mutate(undefined, {
            onSuccess: () => {
              toast.success(MSG.deleted);
              setParams((p) => closeModalParams(p, ["deletePrint"]).params);
            },
          })
        }
        onForceDelete={() =>
          actions.forceDelete.mutate(undefined, {
            onSuccess: () => {
              toast.success(MSG.deleted);
              navigate("/prints", { replace: true });
            },
          })
        }
      />
    </PageShell>
  );
}
