import { Select, type SelectProps } from "antd";

/**
 * A Select inside a required Form.Item. antd hands the item's `aria-required` to the
 * Select's outer box, where ARIA does not allow it (it has no role); the visible mark and
 * the validation message say the field is required.
 */
export function FormSelect<V>({ "aria-required": _required, ...props }: SelectProps<V> & { "aria-required"?: unknown }) {
  return <Select<V> {...props} />;
}
