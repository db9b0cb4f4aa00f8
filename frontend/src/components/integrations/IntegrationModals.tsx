import { Alert, Form, Input, Modal, Select } from "antd";
import { useQueryModal } from "../../lib/queryModal";
import { toast } from "../../lib/toast";
import { QueryFormModal, type QueryModalForm } from "../common/QueryFormModal";
import { goToShop, useDeleteIntegration, useIntegrations, useSaveIntegration, type Integration, type IntegrationBody } from "./api";

interface Values {
  name: string;
  type: "Etsy" | "WordPress";
  baseUrl?: string;
  consumerKey?: string;
  consumerSecret?: string;
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
});

function Fields({ editing }: { editing?: Integration }) {
  const type = Form.useWatch<Values["type"]>("type");
  return (
    <>
      <Form.Item name="name" label="Name" rules={[{ required: true, whitespace: true, message: "Name is required" }, { max: 100 }]}>
        <Input placeholder="e.g. My Etsy shop" autoFocus />
      </Form.Item>
      <Form.Item name="type" label="Type" rules={[{ required: true, message: "Type is required" }]}>
        <Select options={[{ value: "Etsy", label: "Etsy" }, { value: "WordPress", label: "WordPress" }]} placeholder="Select type" />
      </Form.Item>
      {type === "WordPress" && (
        <>
          <Form.Item name="baseUrl" label="baseUrl" rules={[{ required: true, message: "baseUrl is required" }]} extra="Your WooCommerce site, e.g. https://shop.example.com">
            <Input placeholder="https://shop.example.com" />
          </Form.Item>
          <Form.Item name="consumerKey" label="consumerKey" extra="WooCommerce → Settings → Advanced → REST API (read access). Leave both empty to authorise in WooCommerce instead.">
            <Input placeholder="ck_…" autoComplete="off" />
          </Form.Item>
          <Form.Item name="consumerSecret" label="consumerSecret" extra={editing ? "Stored encrypted; leave empty to keep it." : undefined}>
            <Input.Password placeholder="cs_…" autoComplete="new-password" />
          </Form.Item>
        </>
      )}
      {type === "Etsy" && <Alert type="info" showIcon message="After saving you will be sent to Etsy to allow access to your shop's orders." />}
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
function useIntegrationForm(param: string, record: Integration | undefined, editing: boolean): QueryModalForm<Integration, Values> {
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
      ? record && { name: record.name, type: record.type, baseUrl: key("baseUrl"), consumerKey: key("consumerKey") }
      : { type: "WordPress" },
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
