import { useEffect, useState } from "react";
import { InputNumber } from "antd";

/**
 * Quantity with a stepper, minimum 1. Typing commits on blur or Enter, the
 * arrows at once, so "12" is one change, not "1" then "12".
 */
export function QuantityStepper({ value, onCommit, disabled }: { value: number; onCommit: (quantity: number) => void; disabled?: boolean }) {
  const [draft, setDraft] = useState<number | null>(value);
  useEffect(() => setDraft(value), [value]);
  const commit = (v: number | null) => {
    if (typeof v === "number" && Number.isInteger(v) && v >= 1 && v !== value) onCommit(v);
    else setDraft(value);
  };
  return (
    <InputNumber
      min={1}
      precision={0}
      value={draft}
      disabled={disabled}
      aria-label="Quantity"
      style={{ width: 96 }}
      onChange={(v) => setDraft(typeof v === "number" ? v : null)}
      onStep={(v) => commit(v)}
      onBlur={() => commit(draft)}
      onPressEnter={() => commit(draft)}
    />
  );
}
