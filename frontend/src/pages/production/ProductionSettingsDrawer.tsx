import { useEffect, useMemo } from "react";
import { Button, Drawer, Form, InputNumber, Select, Space, Switch, Typography } from "antd";
import { api } from "../../api/client";
import { useApiQuery } from "../../api/query";
import { toast } from "../../lib/toast";
import { useSaveProductionSettings, type ProductionSettings, type ProductionSettingsInput } from "./api";

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
/** The preset choice "no preset": an option of its own, so the choice reads as text, not as a faint placeholder. */
const OWN_SETTINGS = "";

interface FormValues {
  presetId: string | null;
  width?: number;
  maxLength?: number;
  nesting?: "shape" | "box";
  minLengthIn: number | null;
  density: number;
  cutoffs: string[];
  maxWaitHours: number | null;
  timeZone: string;
  rushTags: string[];
  rushShipping: string[];
  autoProcess: boolean;
  labels: boolean;
  maxCopiesPerBatch: number;
}

function timeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  return intl.supportedValuesOf?.("timeZone") ?? ["UTC"];
}

/** The batching rules: sheet, when to batch, rush, auto-process and labels. */
export function ProductionSettingsDrawer({ open, onClose, settings }: { open: boolean; onClose: () => void; settings?: ProductionSettings }) {
  const [form] = Form.useForm<FormValues>();
  const save = useSaveProductionSettings();
  const presets = useApiQuery(["/api/sheet-presets"], (signal) => api.GET("/api/sheet-presets", { signal }), { select: (r) => r.data, enabled: open });
  const zones = useMemo(() => timeZones().map((z) => ({ value: z, label: z })), []);

  useEffect(() => {
    if (!open || !settings) return;
    form.setFieldsValue({
      presetId: settings.presetId ?? OWN_SETTINGS,
      width: settings.sheet.width ?? settings.resolvedSheet.width,
      maxLength: settings.sheet.maxLength ?? settings.resolvedSheet.maxLength,
      nesting: settings.sheet.nesting ?? settings.resolvedSheet.nesting,
      minLengthIn: settings.triggers.minLengthIn,
      density: settings.triggers.density,
      cutoffs: settings.triggers.cutoffs,
      maxWaitHours: settings.triggers.maxWaitHours,
      timeZone: settings.timeZone,
      rushTags: settings.rush.tags,
      rushShipping: settings.rush.shippingMethods,
      autoProcess: settings.autoProcess,
      labels: settings.labels,
      maxCopiesPerBatch: settings.maxCopiesPerBatch,
    });
  }, [open, settings, form]);

  const submit = (v: FormValues) => {
    const body: ProductionSettingsInput = {
      presetId: v.presetId && v.presetId !== OWN_SETTINGS ? v.presetId : null,
      sheet: { width: v.width, maxLength: v.maxLength, nesting: v.nesting },
      triggers: { minLengthIn: v.minLengthIn ?? null, density: v.density, cutoffs: v.cutoffs ?? [], maxWaitHours: v.maxWaitHours ?? null },
      timeZone: v.timeZone,
      rush: { tags: v.rushTags ?? [], shippingMethods: v.rushShipping ?? [] },
      autoProcess: v.autoProcess,
      labels: v.labels,
      maxCopiesPerBatch: v.maxCopiesPerBatch,
    };
    save.mutate(body, {
      onSuccess: () => {
        toast.success("Batching rules saved");
        onClose();
      },
      onError: (e) => toast.error(e.message),
    });
  };

  return (
    <Drawer
      title="Batching rules"
      open={open}
      onClose={onClose}
      width="min(480px, 100vw)"
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>Close</Button>
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()}>Save</Button>
        </Space>
      }
    >
      <Form<FormValues> form={form} layout="vertical" onFinish={submit} requiredMark={false}>
        <Typography.Title level={2} style={{ fontSize: 16 }}>Sheet</Typography.Title>
        <Form.Item name="presetId" label="Preset">
          <Select options={[{ value: OWN_SETTINGS, label: "My sheet settings" }, ...(presets.data ?? []).map((p) => ({ value: p._id, label: p.name }))]} />
        </Form.Item>
        <Space wrap>
          <Form.Item name="width" label="Film width (in)"><InputNumber min={1} max={120} /></Form.Item>
          <Form.Item name="maxLength" label="Max sheet length (in)"><InputNumber min={1} max={1000} /></Form.Item>
          <Form.Item name="nesting" label="Nesting">
            <Select style={{ width: 150 }} options={[{ value: "shape", label: "True shape" }, { value: "box", label: "Rectangles" }]} />
          </Form.Item>
        </Space>
        <Typography.Title level={2} style={{ fontSize: 16 }}>When to batch</Typography.Title>
        <Typography.Paragraph type="secondary">Leave all empty to batch only with “Batch now”.</Typography.Paragraph>
        <Form.Item name="cutoffs" label="Cut-off times (HH:MM)" extra="e.g. 09:00 and 14:00, in the time zone below" rules={[{ validator: (_, v: string[] = []) => (v.every((t) => HHMM.test(t)) ? Promise.resolve() : Promise.reject(new Error("Use HH:MM, e.g. 09:00 or 14:00"))) }]}>
          <Select mode="tags" tokenSeparators={[",", " "]} open={false} suffixIcon={null} />
        </Form.Item>
        <Form.Item name="timeZone" label="Time zone"><Select showSearch options={zones} /></Form.Item>
        <Space wrap>
          <Form.Item name="minLengthIn" label="When ready film reaches (in)"><InputNumber min={1} max={10000} placeholder="off" /></Form.Item>
          <Form.Item name="density" label="at density"><InputNumber min={0.1} max={1} step={0.05} /></Form.Item>
        </Space>
        <Form.Item name="maxWaitHours" label="When the oldest ready item has waited (hours)"><InputNumber min={0.25} max={720} placeholder="off" /></Form.Item>
        <Form.Item name="maxCopiesPerBatch" label="Copies per batch at most"><InputNumber min={1} max={5000} /></Form.Item>
        <Typography.Title level={2} style={{ fontSize: 16 }}>Rush orders first</Typography.Title>
        <Typography.Paragraph type="secondary">Rush orders are batched before all others. Words match whole and ignore case.</Typography.Paragraph>
        <Form.Item name="rushTags" label="Rush tags" extra="An order tag from the shop (WooCommerce: order meta) or an item option named or valued like one of these, e.g. rush, express"><Select mode="tags" open={false} suffixIcon={null} /></Form.Item>
        <Form.Item name="rushShipping" label="Rush shipping methods" extra="The shipping method the buyer chose, by name or id, e.g. Express, Next day, flat_rate:3"><Select mode="tags" open={false} suffixIcon={null} /></Form.Item>
        <Typography.Title level={2} style={{ fontSize: 16 }}>Batches</Typography.Title>
        <Form.Item name="autoProcess" label="Process batches automatically (uses credits)" valuePropName="checked"><Switch /></Form.Item>
        <Form.Item name="labels" label="Order labels beside every copy" valuePropName="checked"><Switch /></Form.Item>
      </Form>
    </Drawer>
  );
}
