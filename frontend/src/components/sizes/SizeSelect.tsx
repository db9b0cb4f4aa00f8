import { Select, type SelectProps } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import { useLocation, useNavigate } from "react-router";
import { sizeLabel } from "../images/library";
import type { Size } from "../../api/types";
import { addSizeHref } from "./sizeForm";
import { useResourceList } from "../../hooks/useResource";

/** Every size of the user (fetched in one request with limit 999). */
export function useAllSizes() {
  const { result, query } = useResourceList("sizes", { pagination: { currentPage: 1, pageSize: 999, mode: "server" },
    sorters: [{ field: "name", order: "asc" }],
  });
  return { sizes: result.data ?? [], loading: query.isLoading };
}

const ADD_NEW = "__add_new_size__";

export interface SizeSelectProps extends Omit<SelectProps, "options" | "onChange" | "value"> {
  value?: string | null;
  onChange?: (sizeId: string, size: Size) => void;
  /**
   * What "Add New Size" does. Default: open the Sizes page's add modal with a callback
   * to the current location, so the user comes straight back.
   */
  onAddNew?: () => void;
}

/**
 * The size dropdown used everywhere a size is picked; it always offers an 'Add New Size'
 * option. Works as an antd form control (value / onChange).
 */
export function SizeSelect({ value, onChange, onAddNew, placeholder = "Select a size", ...rest }: SizeSelectProps) {
  const { sizes, loading } = useAllSizes();
  const navigate = useNavigate();
  const location = useLocation();
  const addNew = onAddNew ?? (() => navigate(addSizeHref(location.pathname + location.search)));
  return (
    <Select
      showSearch
      optionFilterProp="label"
      loading={loading}
      placeholder={placeholder}
      value={value ?? undefined}
      {...rest}
      options={[
        ...sizes.map((s) => ({ value: s._id, label: sizeLabel(s) })),
        { value: ADD_NEW, label: "Add New Size" },
      ]}
      optionRender={(option) => (option.value === ADD_NEW ? <span><PlusOutlined /> Add New Size</span> : option.label)}
      onChange={(id: string) => {
        if (id === ADD_NEW) return addNew();
        const size = sizes.find((s) => s._id === id);
        if (size) onChange?.(id, size);
      }}
    />
  );
}
