import { useState } from "react";
import { Button, Checkbox, Col, Flex, Input, InputNumber, Popconfirm, Row, Segmented, Select, Space, Switch, Typography } from "antd";
import { DeleteOutlined, SaveOutlined } from "@ant-design/icons";
import { toast } from "../../lib/toast";
import { usePresetMutations, useSaveSheetSettings, useSheetPresets } from "./api";
import type { Nesting, SheetPreset, SheetSettings } from "../../api/types";

export const NESTING_OPTIONS: { value: Nesting; label: string }[] = [
  { value: "shape", label: "True shape" },
  { value: "box", label: "Rectangles" },
];

/** The settings a preset applies (every field, nesting included). */
export const presetSettings = (p: SheetPreset): SheetSettings => ({
  width: p.width,
  maxLength: p.maxLength,
  gap: p.gap,
  margin: p.margin,
  dpi: p.dpi,
  rotate: p.rotate,
  nesting: p.nesting,
  formats: p.formats,
  orderLabels: p.orderLabels ?? null,
});

/** Order labels: null follows the print (on for batches, off for other prints). */
export const ORDER_LABEL_OPTIONS = [
  { value: "auto", label: "Batches only" },
  { value: "on", label: "On" },
  { value: "off", label: "Off" },
];

export const FORMAT_OPTIONS = [
  { value: "png" as const, label: "PNG" },
  { value: "pdf" as const, label: "PDF" },
];

const FIELDS: { key: Exclude<keyof SheetSettings, "rotate" | "nesting" | "formats" | "orderLabels">; label: string; min: number; max: number; step: number; suffix?: string }[] = [
  { key: "width", label: "Sheet width", min: 1, max: 120, step: 0.5, suffix: "in" },
  { key: "maxLength", label: "Max length", min: 1, max: 1000, step: 1, suffix: "in" },
  { key: "gap", label: "Gap", min: 0, max: 5, step: 0.05, suffix: "in" },
  { key: "margin", label: "Margin", min: 0, max: 5, step: 0.05, suffix: "in" },
  { key: "dpi", label: "DPI", min: 72, max: 1200, step: 1 },
];

/**
 * Sheet settings as a controlled editor: width, max length, gap, margin, DPI, rotation,
 * nesting ("True shape" by the ink outline, or "Rectangles"), the print file formats (PNG,
 * PDF or both; the last one cannot be unticked), order labels (on for batches by default), plus presets (apply, save current as a preset, delete) and "Save as default".
 */
export function SheetSettingsForm({ value, onChange, compact = false }: { value: SheetSettings; onChange: (next: SheetSettings) => void; compact?: boolean }) {
  const presets = useSheetPresets();
  const { create, remove } = usePresetMutations();
  const saveDefault = useSaveSheetSettings();
  const [presetName, setPresetName] = useState("");
  const [presetId, setPresetId] = useState<string>();

  const set = (patch: Partial<SheetSettings>) => {
    setPresetId(undefined);
    onChange({ ...value, ...patch });
  };
  const span = compact ? { xs: 12, md: 8 } : { xs: 12, md: 8, xl: 4 };

  return (
    <Flex vertical gap={12} data-testid="sheet-settings">
      <Select
        placeholder="Apply a preset"
        aria-label="Preset"
        value={presetId}
        loading={presets.isLoading}
        allowClear
        onClear={() => setPresetId(undefined)}
        options={(presets.data ?? []).map((p) => ({ value: p._id, label: `${p.name} (${p.width} in)` }))}
        onChange={(id?: string) => {
          const p = presets.data?.find((x) => x._id === id);
          if (!p) return;
          onChange(presetSettings(p));
          setPresetId(id);
        }}
        optionRender={(o) => (
          <Flex justify="space-between" align="center">
            <span>{o.label}</span>
            <Popconfirm title="Delete this preset?" onConfirm={(e) => { e?.stopPropagation(); remove.mutate(String(o.value)); }}>
              <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={`Delete preset ${o.label}`} onClick={(e) => e.stopPropagation()} />
            </Popconfirm>
          </Flex>
        )}
      />
      <Row gutter={[12, 8]}>
        {FIELDS.map((f) => (
          <Col {...span} key={f.key}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>{f.label}</Typography.Text>
            <InputNumber
              aria-label={f.label}
              style={{ width: "100%" }}
              min={f.min}
              max={f.max}
              step={f.step}
              value={value[f.key] as number | undefined}
              suffix={f.suffix}
              onChange={(v) => typeof v === "number" && set({ [f.key]: v } as Partial<SheetSettings>)}
            />
          </Col>
        ))}
        <Col {...span}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>Rotation</Typography.Text>
          <div style={{ paddingTop: 4 }}>
            <Switch aria-label="Allow rotation" checked={value.rotate} onChange={(rotate) => set({ rotate })} checkedChildren="Allowed" unCheckedChildren="Off" />
          </div>
        </Col>
        <Col xs={24} md={compact ? 16 : 12} xl={compact ? 16 : 8}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>Nesting</Typography.Text>
          <div style={{ paddingTop: 2 }}>
            <Segmented<Nesting>
              aria-label="Nesting"
              data-testid="nesting"
              options={NESTING_OPTIONS}
              value={value.nesting ?? "shape"}
              onChange={(nesting) => set({ nesting })}
            />
          </div>
        </Col>
        <Col xs={24} md={compact ? 8 : 12} xl={compact ? 8 : 4}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>File format</Typography.Text>
          <div style={{ paddingTop: 4 }}>
            <Checkbox.Group
              aria-label="File format"
              data-testid="formats"
              options={FORMAT_OPTIONS.map((o) => ({ ...o, disabled: (value.formats ?? ["png"]).length === 1 && (value.formats ?? ["png"])[0] === o.value }))}
              value={value.formats ?? ["png"]}
              onChange={(checked) => {
                const formats = FORMAT_OPTIONS.map((o) => o.value).filter((f) => checked.includes(f));
                if (formats.length) set({ formats });
              }}
            />
          </div>
        </Col>
        <Col {...span}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} title="A small label beside each copy of a shop order's item, e.g. #5012 · 2/3, printed where it is cut off">
            Order labels
          </Typography.Text>
          <Select
            aria-label="Order labels"
            data-testid="order-labels"
            style={{ width: "100%" }}
            options={ORDER_LABEL_OPTIONS}
            value={value.orderLabels === true ? "on" : value.orderLabels === false ? "off" : "auto"}
            onChange={(v: string) => set({ orderLabels: v === "on" ? true : v === "off" ? false : null })}
          />
        </Col>
      </Row>
      <Flex gap={8} wrap>
        <Space.Compact style={{ flex: 1, minWidth: 220 }}>
          <Input placeholder="Preset name" aria-label="Preset name" value={presetName} onChange={(e) => setPresetName(e.target.value)} maxLength={100} />
          <Button
            disabled={!presetName.trim()}
            loading={create.isPending}
            onClick={() =>
              create.mutate({ ...value, name: presetName.trim() }, {
                onSuccess: (p) => {
                  setPresetName("");
                  setPresetId(p?._id);
                  toast.success("Preset saved");
                },
              })
            }
          >
            Save preset
          </Button>
        </Space.Compact>
        <Button icon={<SaveOutlined />} loading={saveDefault.isPending} onClick={() => saveDefault.mutate(value, { onSuccess: () => toast.success("Sheet settings saved") })}>
          Save as default
        </Button>
      </Flex>
    </Flex>
  );
}
