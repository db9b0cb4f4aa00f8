import type { ReactNode } from "react";
import { Modal, Typography } from "antd";
import { useDelete, useOne, type BaseRecord } from "@refinedev/core";
import { useQueryModal, type ModalParam, type QueryModal } from "../../lib/queryModal";
import type { ResourceName } from "../../hooks/useResource";

/**
 * Success notification for Refine mutations: the server says what happened
 * (`{data, message}`); `fallback` is our wording when it does not.
 */
export const serverSuccess = (fallback: string) => (res?: unknown) => ({
  type: "success" as const,
  message: (res as { message?: string } | undefined)?.message ?? fallback,
});

/**
 * A modal opened by `param={id}` (editSize, deleteUser, ...) and the record it is about,
 * fetched while it is open.
 */
export function useRecordModal<T extends BaseRecord>(param: ModalParam, resource: ResourceName): { modal: QueryModal; record: T | undefined; loading: boolean } {
  const modal = useQueryModal(param);
  const { result, query } = useOne<T>({ resource, id: modal.value ?? "", queryOptions: { enabled: modal.open } });
  return { modal, record: result, loading: query.isLoading };
}

/** `param={id}`: confirm, then DELETE the record; the server's message is the toast. */
export function DeleteRecordModal<T extends BaseRecord>({ param, resource, title, successMessage, onDeleted, children }: {
  param: ModalParam;
  resource: ResourceName;
  title: string;
  successMessage: string;
  onDeleted?: () => void;
  /** The question, given the record once it has loaded. */
  children: (record: T | undefined) => ReactNode;
}) {
  const { modal, record } = useRecordModal<T>(param, resource);
  const { mutate, mutation } = useDelete();
  const remove = () =>
    mutate(
      { resource, id: modal.value!, successNotification: serverSuccess(successMessage) },
      {
        onSuccess: () => {
          modal.close();
          onDeleted?.();
        },
      },
    );
  return (
    <Modal title={title} open={modal.open} onCancel={modal.close} okText="Delete" okButtonProps={{ danger: true, loading: mutation.isPending }} onOk={remove}>
      <Typography.Paragraph>{children(record)}</Typography.Paragraph>
    </Modal>
  );
}
