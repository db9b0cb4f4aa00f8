import { Alert, Form, Input, Modal } from "antd";
import { useQueryModal, type ModalParam } from "../../lib/queryModal";
import { toast } from "../../lib/toast";
import { FormSelect } from "../common/FormSelect";
import { QueryFormModal, type QueryModalForm } from "../common/QueryFormModal";
import { goToShop, useDeleteIntegration, useIntegrations, useIntegrationTypes, useSaveIntegration, type Integration, type IntegrationBody } from "./api";
import { typeOptions } from "./integrationTypes";

interface Values {
  name: string;
  type: "Etsy" | "WordPress";
  baseUrl?: string;
  consumerKey?: string;
  consumerSecret?: string;
  fulfilmentStatus?: string;
}

const toBody = (v: Values): IntegrationBody => ({
  name: v.name,
  type: v.type,
  keys:
    v.type === "WordPress"
      ? [
          { key: "baseUrl", value: v.baseUrl ?? "" },
          { key: "consumerKey", value: v.consumerKey ?? "" },
          { key: "consumerSecret", value: v.consumerSecret ?? "" },
        ]
      : [],
  ...(v.type === "WordPress" && v.fulfilmentStatus?.trim() ? { fulfilmentStatus: v.fulfilmentStatus.trim() } : {}),
});

function Fields({ editing }: { editing?: Integration }) {
  const type = Form.useWatch<Values["type"]>("type");
  const types = useIntegrationTypes();
  const unavailable = types.data?.find((t) => t.type === type && !t.available);
  // Why a type is disabled is said under the select, not only in a tooltip on the option.
  const reasons = (types.data ?? []).filter((t) => !t.available && t.type !== type).map((t) => t.reason);
  return (
    <>
      <Form.Item name="name" label="Name" rules={[{ required: true, whitespace: true, message: "Name is required" }, { max: 100, message: "Name must be at most 100 characters" }]}>
        <Input placeholder="e.g. My Etsy shop" autoFocus />
      </Form.Item>
      <Form.Item name="type" label="Type" rules={[{ required: true, message: "Type is required" }]} extra={reasons.length ? <span data-testid="integration-type-reasons">{reasons.join(" ")}</span> : undefined}>
        <FormSelect options={typeOptions(types.data)} loading={types.isLoading} placeholder="Select type" data-testid="integration-type" />
      </Form.Item>
      {unavailable && <Alert type="warning" showIcon message={`${unavailable.label} is not available`} description={unavailable.reason} data-testid="integration-type-unavailable" style={{ marginBottom: 16 }} />}
      {type === "WordPress" && (
        <>
          <Form.Item name="baseUrl" label="Store URL" rules={[{ required: true, message: "Store URL is required" }]} extra="The address of your WooCommerce store, e.g. https://shop.example.com">
            <Input placeholder="https://shop.example.com" />
          </Form.Item>
          <Form.Item
            name="consumerKey"
            label="Consumer key"
            extra="In WordPress: WooCommerce → Settings → Advanced → REST API → Add key, with Read/Write permissions; copy the consumer key and secret. Leave both empty to approve access in WooCommerce instead."
          >
            <Input placeholder="ck_…" autoComplete="off" />
          </Form.Item>
          <Form.Item name="consumerSecret" label="Consumer secret" extra={editing ? "Stored encrypted; leave empty to keep it." : "Shown once by WooCommerce next to the consumer key."}>
            <Input.Password placeholder="cs_…" autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="fulfilmentStatus"
            label="Order status when shipped"
            extra="What Mark shipped (or a completed batch) sets in WooCommerce: completed, or a status your shop knows such as shipped."
            rules={[{ pattern: /^\s*[A-Za-z0-9_-]{1,40}\s*$/, message: "A WooCommerce order status such as completed (letters, digits, - and _)" }]}
          >
            <Input placeholder="completed" autoComplete="off" maxLength={40} />
          </Form.Item>
        </>
      )}
      {type === "Etsy" && !unavailable && <Alert type="info" showIcon message="After saving you will be sent to Etsy to allow access to your shop's orders." />}
    </>
  );
}

function afterSave(res: { connectUrl?: string; message?: string; data: Integration }) {
  if (res.connectUrl) return goToShop(res.connectUrl);
  toast.success(res.data.connected ? "Integration connected" : (res.message ?? "Integration saved"));
}

/**
 * The app's query-driven modal form (QueryFormModal) around our own save: saving an
 * integration may answer a `connectUrl` to send the browser to (Etsy consent, WooCommerce
 * key approval), which Refine's generic form does not carry.
 */
function useIntegrationForm(param: ModalParam, record: Integration | undefined, editing: boolean): QueryModalForm<Integration, Values> {
  const modal = useQueryModal(param);
  const [form] = Form.useForm<Values>();
  const save = useSaveIntegration();
  const key = (k: string) => record?.keys.find((x) => x.key === k)?.value;
  return {
    modal,
    form,
    record,
    loading: editing && !record,
    saving: save.isPending,
    name: param,
    initialValues: editing
      ? record && { name: record.name, type: record.type, baseUrl: key("baseUrl"), consumerKey: key("consumerKey"), fulfilmentStatus: record.fulfilmentStatus ?? undefined }
      : { type: "WordPress", fulfilmentStatus: "completed" },
    onFinish: (v) =>
      save.mutate(
        { id: editing ? record!._id : undefined, body: toBody(v) },
        { onSuccess: (res) => { modal.close(); afterSave(res as Parameters<typeof afterSave>[0]); } },
      ),
  };
}

/** addIntegration */
export function AddIntegrationModal() {
  const f = useIntegrationForm("addIntegration", undefined, false);
  return (
    <QueryFormModal form={f} title="Add Integration" okText="Create">
      <Fields />
    </QueryFormModal>
  );
}

/** editIntegration={id} */
export function EditIntegrationModal() {
  const { data } = useIntegrations();
  const id = useQueryModal("editIntegration").value;
  const record = data?.find((i) => i._id === id);
  const f = useIntegrationForm("editIntegration", record, true);
  return (
    <QueryFormModal form={f} title="Edit Integration" okText="Save">
      <Fields editing={record} />
    </QueryFormModal>
  );
}

/** deleteIntegration={id} */
export function DeleteIntegrationModal() {
  const modal = useQueryModal("deleteIntegration");
  const { data } = useIntegrations();
  const record = data?.find((i) => i._id === modal.value);
  const del = useDeleteIntegration();
  return (
    <Modal
      title="Delete Integration"
      open={modal.open}
      onCancel={modal.close}
      okText="Delete"
      okButtonProps={{ danger: true, loading: del.isPending }}
      onOk={() => del.mutate(modal.value!, { onSuccess: () => { toast.success("Integration deleted"); modal.close(); } })}
      destroyOnHidden
    >
      Delete {record ? <b>{record.name}</b> : "this integration"} and its synced orders? Prints made from them stay.
    </Modal>
  );
}
