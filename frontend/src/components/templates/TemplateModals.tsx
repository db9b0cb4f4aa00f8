import { useEffect, useMemo, useState } from "react";
import { Alert, Button, Flex, Form, Input, Modal, Typography } from "antd";
import { useNavigate } from "react-router";
import { QueryFormModal, useQueryModalForm } from "../common/QueryFormModal";
import { DeleteRecordModal, useRecordModal } from "../common/recordModal";
import { ImageSelect } from "../prints/ItemPickers";
import { SizeSelect, useAllSizes } from "../sizes/SizeSelect";
import { toast } from "../../lib/toast";
import { slotHint, slotSize, useTemplateActions, type SheetTemplate } from "./api";
import { TemplateDrawing } from "./TemplateDrawing";

export const nameRules = [
  { required: true, whitespace: true, message: "Name is required" },
  { max: 100, message: "Name must be at most 100 characters" },
];

/** renameTemplate={id}: PATCH the name. */
export function RenameTemplateModal() {
  const form = useQueryModalForm<SheetTemplate, { name: string }>({
    param: "renameTemplate",
    resource: "templates",
    action: "edit",
    mutationMeta: { method: "PATCH" },
    successMessage: "Template renamed",
    toValues: (t) => ({ name: t.name }),
    toPayload: (v) => ({ name: v.name.trim() }),
  });
  return (
    <QueryFormModal form={form} title="Rename template" okText="Save">
      <Form.Item name="name" label="Name" rules={nameRules}>
        <Input autoFocus maxLength={100} />
      </Form.Item>
    </QueryFormModal>
  );
}

/** deleteTemplate={id}. */
export function DeleteTemplateModal() {
  return (
    <DeleteRecordModal<SheetTemplate> param="deleteTemplate" resource="templates" title="Delete template" successMessage="Template deleted">
      {(t) => (
        <>
          Delete the template <strong>{t?.name ?? ""}</strong>? Prints made from it stay as they are.
        </>
      )}
    </DeleteRecordModal>
  );
}

type Choice = { imageId?: string; sizeId?: string };

/**
 * newPrintFromTemplate={id}: an image (and a size, by default the seller's size of the slot's
 * printed width) for each slot; slots left empty stay empty. Creates the draft and opens it.
 */
export function NewPrintFromTemplateModal() {
  const { modal, record: template, loading } = useRecordModal<SheetTemplate>("newPrintFromTemplate", "templates");
  const { sizes } = useAllSizes();
  const { createPrint } = useTemplateActions();
  const navigate = useNavigate();
  const [picked, setPicked] = useState<Record<number, Choice>>({});
  const [error, setError] = useState<string | null>(null);
  const slots = useMemo(() => template?.slots ?? [], [template]);

  // each opening starts empty
  useEffect(() => {
    if (!modal.open) return;
    setError(null);
    setPicked({});
  }, [modal.open, modal.value]);

  // a slot's size until one is picked: the seller's size of the slot's printed width (its own size name first)
  const choices: Choice[] = slots.map((s, i) => {
    const same = sizes.filter((z) => s.sizeValue != null && Math.abs(z.value - s.sizeValue) < 0.0005);
    return { imageId: picked[i]?.imageId, sizeId: picked[i]?.sizeId ?? (same.find((z) => z.name === s.sizeName) ?? same[0])?._id };
  });
  const set = (i: number, c: Choice) => setPicked((all) => ({ ...all, [i]: { ...all[i], ...c } }));
  const filled = choices.flatMap((c, slot) => (c.imageId ? [{ slot, imageId: c.imageId, ...(c.sizeId ? { sizeId: c.sizeId } : {}) }] : []));
  const submit = async () => {
    if (!template) return;
    setError(null);
    try {
      const res = await createPrint.mutateAsync({ id: template._id, items: filled });
      toast.success(res.message ?? "Print created from the template");
      navigate(`/prints/${res.data._id}`);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <Modal
      // the title wraps clear of the close button on a phone
      title={<span style={{ display: "block", paddingInlineEnd: 28 }}>{template ? `New print from "${template.name}"` : "New print from template"}</span>}
      open={modal.open}
      onCancel={modal.close}
      width="min(760px, 100vw)"
      style={{ top: 16, maxWidth: "100vw" }}
      destroyOnHidden
      footer={
        <Flex justify="space-between" align="center" wrap gap={8}>
          <Typography.Text type="secondary">{filled.length} of {slots.length} {slots.length === 1 ? "slot" : "slots"} filled</Typography.Text>
          <Flex gap={8}>
            <Button onClick={modal.close}>Cancel</Button>
            <Button type="primary" disabled={!filled.length} loading={createPrint.isPending} onClick={submit}>Create print</Button>
          </Flex>
        </Flex>
      }
    >
      {loading || !template ? (
        <Typography.Text type="secondary">Loading…</Typography.Text>
      ) : (
        <Flex vertical gap={12}>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            Choose the artwork for each slot. Each copy is placed in its slot (centred, turned as the slot) on a {template.settings.width} in sheet; you can still edit the layout before processing.
          </Typography.Paragraph>
          {error && <Alert type="error" showIcon message={error} data-testid="template-print-error" closable onClose={() => setError(null)} />}
          {slots.map((s, i) => (
            <Flex key={i} gap={12} align="center" wrap data-testid="template-slot-row" style={{ borderTop: "1px solid #e2e8f0", paddingTop: 12 }}>
              <TemplateDrawing template={template} width={64} highlight={i} />
              <Flex vertical style={{ minWidth: 140, flex: "1 1 140px" }}>
                <Typography.Text strong>Slot {i + 1}</Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>{slotSize(s)}{s.rotation ? `, turned ${s.rotation}°` : ""}</Typography.Text>
                {slotHint(s) && <Typography.Text type="secondary" style={{ fontSize: 12 }}>was {slotHint(s)}</Typography.Text>}
              </Flex>
              <Flex vertical gap={6} style={{ flex: "2 1 240px", minWidth: 0 }}>
                <ImageSelect value={choices[i]?.imageId} onChange={(img) => set(i, { imageId: img._id })} ariaLabel={`Image for slot ${i + 1}`} />
                <SizeSelect value={choices[i]?.sizeId} onChange={(id) => set(i, { sizeId: id })} aria-label={`Size for slot ${i + 1}`} style={{ width: "100%" }} />
              </Flex>
            </Flex>
          ))}
        </Flex>
      )}
    </Modal>
  );
}
