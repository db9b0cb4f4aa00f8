import { useEffect, useState } from "react";
import { Alert, Form, Input, Modal, Radio, Typography } from "antd";
import { Link } from "react-router";
import type { SheetSettings } from "../../api/types";
import { toast } from "../../lib/toast";
import { useTemplateActions, type TemplateSlot } from "./api";
import { nameRules } from "./TemplateModals";

/** A copy as the layout editor holds it, reduced to what a slot keeps. */
export interface SlotSource {
  sheet: number;
  /** The box as placed (after the turn), inches. */
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: TemplateSlot["rotation"];
  label: string | null;
  sizeName: string | null;
  sizeValue: number | null;
}

/** What a template is saved from: the layout editor's copies on screen, or a print's layout as its detail shows it. */
export type TemplateSource = { copies: SlotSource[]; settings: SheetSettings } | { printId: string; sheets: number[]; settings: SheetSettings };

/**
 * "Save as template" (layout editor, print detail): a name, and one sheet or all when the
 * layout has several; the editor sends its copies as explicit slots with the print's sheet
 * settings, the print detail sends the print (docs/prints.md "Templates").
 */
export function SaveTemplateModal({ open, onClose, source }: { open: boolean; onClose: () => void; source: TemplateSource }) {
  const [form] = Form.useForm<{ name: string; sheet: number }>();
  const { create } = useTemplateActions();
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const settings = source.settings;
  const sheets = "printId" in source ? source.sheets : [...new Set(source.copies.map((c) => c.sheet))].sort((a, b) => a - b);

  useEffect(() => {
    if (open) {
      setError(null);
      setSaved(null);
      form.setFieldsValue({ name: "", sheet: -1 });
    }
  }, [open, form]);

  const submit = async ({ name, sheet }: { name: string; sheet?: number }) => {
    setError(null);
    // the sheet choice shows only when the layout has several sheets
    const one = sheet !== undefined && sheet >= 0 ? sheet : null;
    const { width, maxLength, gap, margin, dpi, rotate, nesting } = settings;
    const body =
      "printId" in source
        ? { name: name.trim(), printId: source.printId, ...(one === null ? {} : { sheet: one }) }
        : {
            name: name.trim(),
            settings: { width, maxLength, gap, margin, dpi, rotate, nesting },
            slots: source.copies.filter((c) => one === null || c.sheet === one).map((c) => ({ ...c, sheet: one === null ? c.sheet : 0 })),
          };
    try {
      const res = await create.mutateAsync(body);
      toast.success(`Template "${res.data.name}" saved`);
      setSaved(res.data.name);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <Modal
      title="Save as template"
      open={open}
      onCancel={onClose}
      okText={saved ? "Done" : "Save template"}
      onOk={() => (saved ? onClose() : form.submit())}
      cancelButtonProps={{ style: saved ? { display: "none" } : undefined }}
      okButtonProps={{ loading: create.isPending }}
      destroyOnHidden
    >
      {saved ? (
        <Alert type="success" showIcon message={`"${saved}" is saved.`} description={<>Start a new print from it on the <Link to="/templates">Templates</Link> page.</>} />
      ) : (
        <Form form={form} layout="vertical" onFinish={submit} initialValues={{ name: "", sheet: -1 }}>
          <Typography.Paragraph type="secondary">
            Keeps where each design sits on the sheet ({settings.width} in wide, margins {settings.margin} in, gap {settings.gap} in), to start new prints with other artwork in the same places.
          </Typography.Paragraph>
          <Form.Item name="name" label="Template name" rules={nameRules}>
            <Input autoFocus maxLength={100} placeholder="e.g. Team set: front, back, sleeve" />
          </Form.Item>
          {sheets.length > 1 && (
            <Form.Item name="sheet" label="Sheets">
              <Radio.Group
                options={[{ value: -1, label: `All ${sheets.length} sheets` }, ...sheets.map((s) => ({ value: s, label: `Sheet ${s + 1} only` }))]}
              />
            </Form.Item>
          )}
          {error && <Alert type="error" showIcon message={error} />}
        </Form>
      )}
    </Modal>
  );
}
