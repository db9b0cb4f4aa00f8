import type { ReactNode } from "react";
import { Flex, Form, Modal, Spin, type FormInstance } from "antd";
import { useForm } from "@refinedev/antd";
import type { BaseRecord, HttpError } from "@refinedev/core";
import { useQueryModal, type ModalParam, type QueryModal } from "../../lib/queryModal";
import type { ResourceMeta } from "../../providers/dataProvider";
import { serverSuccess } from "./recordModal";
import type { ResourceName } from "../../hooks/useResource";

export interface QueryModalFormOptions<TRecord extends BaseRecord, TValues> {
  /** The query parameter that opens the modal: `addSize` (create) or `editSize={id}` (edit). */
  param: ModalParam;
  resource: ResourceName;
  action: "create" | "edit";
  /** The success toast: the server's `message` when it sends one, else this. */
  successMessage: string;
  /** Show `successMessage` even when the server sends its own. */
  fixedMessage?: boolean;
  /** Where the save goes when it is not the resource's own path (e.g. `/api/users/{id}/credit`). */
  mutationMeta?: ResourceMeta;
  /** The edited record as form fields (default: the record itself). */
  toValues?: (record: TRecord) => Partial<TValues>;
  /** The form's fields as the request body (default: as they are). */
  toPayload?: (values: TValues) => object;
  /** The fields' values when creating. */
  defaults?: Partial<TValues>;
  /** After a successful save, before the modal closes; gets the saved record as the server answered it. */
  onSaved?: (saved: TRecord | undefined) => unknown;
  /**
   * The record when the screen already holds it (e.g. a tile of the list on screen): the
   * form fills at once and the record is not fetched again.
   */
  knownRecord?: TRecord | null;
}

export interface QueryModalForm<TRecord extends BaseRecord, TValues> {
  modal: QueryModal;
  form: FormInstance<TValues>;
  /** The record being edited, once loaded. */
  record: TRecord | undefined;
  /** True while the record loads. */
  loading: boolean;
  /** True while the save is in flight. */
  saving: boolean;
  name: string;
  initialValues: Partial<TValues> | undefined;
  onFinish: (values: TValues) => void;
}

/**
 * The one way a modal form works in this app: a query parameter opens it (spec: modals
 * are driven by the URL), Refine's `useForm` (@refinedev/antd) loads the record for an
 * edit, saves through the data provider, invalidates the resource's caches and toasts
 * the result; closing, after a save or a cancel, removes the parameter (and follows its
 * `callback`). Render it with `<QueryFormModal form={...}>`.
 */
export function useQueryModalForm<TRecord extends BaseRecord, TValues extends object>(
  options: QueryModalFormOptions<TRecord, TValues>,
): QueryModalForm<TRecord, TValues> {
  const { param, resource, action, successMessage, fixedMessage, mutationMeta, toValues, toPayload, defaults, onSaved, knownRecord } = options;
  const modal = useQueryModal(param);
  const editing = action === "edit";
  // Our records carry their id as `_id`.
  const known = editing && knownRecord && String((knownRecord as { _id?: unknown })._id) === modal.value ? knownRecord : undefined;
  const { form, onFinish, query, mutation } = useForm<TRecord, HttpError, TValues>({
    resource,
    action,
    id: editing ? (modal.value ?? undefined) : undefined,
    queryOptions: { enabled: editing && modal.open && !known },
    mutationMeta: mutationMeta as Record<string, unknown> | undefined,
    redirect: false,
    warnWhenUnsavedChanges: false,
    successNotification: fixedMessage ? () => ({ type: "success", message: successMessage }) : serverSuccess(successMessage),
    onMutationSuccess: async (saved) => {
      await onSaved?.(saved?.data);
      modal.close();
    },
  });
  const record = editing ? (known ?? query?.data?.data) : undefined;
  return {
    modal,
    form: form as FormInstance<TValues>,
    record,
    loading: editing && !known && !!query?.isLoading,
    saving: mutation.isPending,
    name: param,
    initialValues: record ? (toValues ? toValues(record) : (record as unknown as Partial<TValues>)) : defaults,
    onFinish: (values) => void onFinish((toPayload ? toPayload(values) : values) as TValues).catch(() => undefined),
  };
}

export interface QueryFormModalProps<TRecord extends BaseRecord, TValues> {
  form: QueryModalForm<TRecord, TValues>;
  title: ReactNode;
  okText: string;
  /** Besides loading and saving, e.g. while a sub-field is being edited. */
  disabled?: boolean;
  width?: number;
  /** Shown above the fields, inside the modal. */
  header?: ReactNode;
  children: ReactNode;
}

/**
 * The modal around a `useQueryModalForm`: OK submits, the OK button shows saving; while
 * the record loads a spinner stands in for the fields and OK is disabled; the content is destroyed when hidden (so a new open
 * starts clean), the form is vertical without required marks; field ids are `{param}_{field}`.
 */
export function QueryFormModal<TRecord extends BaseRecord, TValues>({ form: f, title, okText, disabled, width, header, children }: QueryFormModalProps<TRecord, TValues>) {
  return (
    <Modal
      title={title}
      open={f.modal.open}
      onCancel={f.modal.close}
      onOk={() => f.form.submit()}
      okText={okText}
      okButtonProps={{ loading: f.saving, disabled: f.loading || disabled }}
      destroyOnHidden
      width={width}
    >
      {header}
      <Form form={f.form} name={f.name} layout="vertical" requiredMark={false} preserve={false} initialValues={f.initialValues} onFinish={f.onFinish}>
        {/* The fields appear once the record is there: typing into them earlier would be undone when it arrives. */}
        {f.loading ? (
          <Flex justify="center" style={{ padding: 24 }}>
            <Spin />
          </Flex>
        ) : (
          children
        )}
      </Form>
    </Modal>
  );
}
