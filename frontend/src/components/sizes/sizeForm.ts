import type { Rule } from "antd/es/form";

/** The server's bound (backend sizes DTO). */
export const MAX_SIZE_INCHES = 200;

// Size form: name required; value required, numeric, converted to a number on
// submit. Messages name the field by its label ("Name is a required field"), never by its key.
export const sizeRules: Record<"name" | "value", Rule[]> = {
  name: [{ required: true, whitespace: true, message: "Name is a required field" }],
  value: [
    { required: true, whitespace: true, message: "Value is a required field" },
    {
      validator: (_, raw) =>
        raw === undefined || raw === null || String(raw).trim() === "" || parseSizeValue(raw) !== null
          ? Promise.resolve()
          : Promise.reject(new Error(`Value must be a positive number up to ${MAX_SIZE_INCHES} inches`)),
    },
  ],
};

/** "11", "11.5", " 8.25 " → number; anything else (or ≤ 0) → null. */
export function parseSizeValue(raw: unknown): number | null {
  const text = String(raw ?? "").trim();
  if (!/^\d*\.?\d+$/.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) && n > 0 && n <= MAX_SIZE_INCHES ? n : null;
}

export interface SizeFormValues {
  name: string;
  value: string | number;
}

export const toSizePayload = (values: SizeFormValues) => ({ name: values.name.trim(), value: parseSizeValue(values.value)! });

/** Where "Add New Size" goes: the Sizes page's add modal, coming back here afterwards. */
export const addSizeHref = (currentUrl: string) => `/sizes?addSize=true&callback=${encodeURIComponent(currentUrl)}`;
