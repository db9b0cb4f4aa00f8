import { useState } from "react";
import { Button, Input, Select, Space } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import { useInvalidate } from "@refinedev/core";
import { createCategory } from "./api";
import { useResourceList } from "../../hooks/useResource";

export function useCategories() {
  const { result, query } = useResourceList("image-categories", { pagination: { mode: "off" } });
  return { categories: result.data ?? [], total: result.total ?? 0, loading: query.isLoading };
}

const ADD_NEW = "__add_new_category__";

export interface CategorySelectProps {
  value?: string | null;
  onChange?: (id: string | null) => void;
  /** Tells the parent while a new name is being typed (the upload button waits for it). */
  onCustomModeChange?: (on: boolean) => void;
}

/**
 * Category dropdown with an 'Add New Category' entry. Choosing it switches to
 * custom-category mode: type a name, create it, and it becomes the selection.
 */
export function CategorySelect({ value, onChange, onCustomModeChange }: CategorySelectProps) {
  const { categories, loading } = useCategories();
  const invalidate = useInvalidate();
  const [custom, setCustom] = useState(false);
  const [name, setName] = useState("");
  const [saving, setSaving] = useState(false);
  const setMode = (on: boolean) => {
    setCustom(on);
    setName("");
    onCustomModeChange?.(on);
  };

  const save = async () => {
    const trimmed = name.trim();
    if (!trimmed) return;
    setSaving(true);
    try {
      const created = await createCategory(trimmed);
      await invalidate({ resource: "image-categories", invalidates: ["list"] });
      onChange?.(created._id);
      setMode(false);
    } catch {
      /* the error toast has been shown; stay in custom mode so the name can be fixed */
    } finally {
      setSaving(false);
    }
  };

  if (custom) {
    return (
      <Space.Compact style={{ width: "100%" }}>
        <Input
          autoFocus
          aria-label="New category name"
          placeholder="New category name"
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.target.value)}
          onPressEnter={(e) => {
            e.preventDefault();
            void save();
          }}
        />
        <Button type="primary" loading={saving} disabled={!name.trim()} onClick={() => void save()}>
          Add
        </Button>
        <Button onClick={() => setMode(false)}>Cancel</Button>
      </Space.Compact>
    );
  }

  return (
    <Select
      aria-label="Category"
      allowClear
      showSearch
      optionFilterProp="label"
      loading={loading}
      placeholder="No category"
      value={value ?? undefined}
      options={[...categories.map((c) => ({ value: c._id, label: c.name })), { value: ADD_NEW, label: "Add New Category" }]}
      optionRender={(o) => (o.value === ADD_NEW ? <span><PlusOutlined /> Add New Category</span> : o.label)}
      onChange={(id?: string) => (id === ADD_NEW ? setMode(true) : onChange?.(id ?? null))}
    />
  );
}
