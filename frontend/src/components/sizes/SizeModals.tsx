import { Form, Input } from "antd";
import { QueryFormModal, useQueryModalForm } from "../common/QueryFormModal";
import { DeleteRecordModal } from "../common/recordModal";
import type { Size } from "../../api/types";
import { sizeRules, toSizePayload, type SizeFormValues } from "./sizeForm";

function SizeFields() {
  return (
    <>
      <Form.Item name="name" label="Name" rules={sizeRules.name}>
        <Input placeholder="e.g. Adult front" autoFocus />
      </Form.Item>
      <Form.Item name="value" label="Value (inch)" rules={sizeRules.value} extra="Printed width of the design, in inches.">
        <Input inputMode="decimal" placeholder="e.g. 11" />
      </Form.Item>
    </>
  );
}

/**
 * addSize (optionally with callback): create a size. Closing — after a save or a
 * cancel — goes to the callback when there is one (docs/frontend.md "Modal forms").
 */
export function AddSizeModal() {
  const form = useQueryModalForm<Size, SizeFormValues>({
    param: "addSize",
    resource: "sizes",
    action: "create",
    successMessage: "Size created successfully",
    toPayload: toSizePayload,
  });
  return (
    <QueryFormModal form={form} title="Add Size" okText="Create">
      <SizeFields />
    </QueryFormModal>
  );
}

/** editSize={id}. */
export function EditSizeModal() {
  const form = useQueryModalForm<Size, SizeFormValues>({
    param: "editSize",
    resource: "sizes",
    action: "edit",
    successMessage: "Size updated successfully",
    toValues: (size) => ({ name: size.name, value: String(size.value) }),
    toPayload: toSizePayload,
  });
  return (
    <QueryFormModal form={form} title="Edit Size" okText="Save">
      <SizeFields />
    </QueryFormModal>
  );
}

/** deleteSize={id}: the server refuses (with a message) when a print uses the size. */
export function DeleteSizeModal() {
  return (
    <DeleteRecordModal<Size> param="deleteSize" resource="sizes" title="Delete Size" successMessage="Size deleted successfully">
      {(size) => (
        <>
          Delete the size <strong>{size ? `${size.name} (${size.value} Inches)` : ""}</strong>? This cannot be undone.
        </>
      )}
    </DeleteRecordModal>
  );
}
