import { Form, Input } from "antd";
import { useCreate, useUpdate } from "@refinedev/core";
import { useQueryModal } from "../../lib/queryModal";
import { FormModal } from "../common/FormModal";
import { DeleteRecordModal, serverSuccess as success, useRecordModal } from "../common/recordModal";
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
 * cancel — goes to the callback when there is one (spec §2).
 */
export function AddSizeModal() {
  const modal = useQueryModal("addSize");
  const [form] = Form.useForm<SizeFormValues>();
  const { mutate, mutation } = useCreate<Size>();
  return (
    <FormModal
      title="Add Size"
      open={modal.open}
      onCancel={modal.close}
      okText="Create"
      loading={mutation.isPending}
      form={form}
      name="addSize"
      preserve={false}
      onFinish={(values) =>
        mutate({ resource: "sizes", values: toSizePayload(values), successNotification: success("Size created successfully") }, { onSuccess: modal.close })
      }
    >
      <SizeFields />
    </FormModal>
  );
}

/** editSize={id}. */
export function EditSizeModal() {
  const { modal, record: size, loading } = useRecordModal<Size>("editSize", "sizes");
  const [form] = Form.useForm<SizeFormValues>();
  const { mutate, mutation } = useUpdate<Size>();
  return (
    <FormModal
      title="Edit Size"
      open={modal.open}
      onCancel={modal.close}
      okText="Save"
      loading={mutation.isPending}
      disabled={loading}
      form={form}
      name="editSize"
      fill={size && { name: size.name, value: String(size.value) }}
      onFinish={(values) =>
        mutate(
          { resource: "sizes", id: modal.value!, values: toSizePayload(values), successNotification: success("Size updated successfully") },
          { onSuccess: modal.close },
        )
      }
    >
      <SizeFields />
    </FormModal>
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
