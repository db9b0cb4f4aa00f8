import { useEffect, type ReactNode } from "react";
import { Form, Modal, type FormInstance } from "antd";

export interface FormModalProps<T> {
  title: ReactNode;
  open: boolean;
  onCancel: () => void;
  okText: string;
  form: FormInstance<T>;
  /** The form's name (field ids are `{name}_{field}`). */
  name: string;
  onFinish: (values: T) => void | Promise<void>;
  loading?: boolean;
  disabled?: boolean;
  /**
   * Values to put into the form while the modal is open, e.g. the record being edited
   * once it has loaded. Applied again only when their content changes, so a fresh object
   * each render does not overwrite what the user typed.
   */
  fill?: Partial<T> | null;
  /** Drop field values when the form unmounts (antd's `preserve={false}`). */
  preserve?: boolean;
  width?: number;
  /** Shown above the form, inside the modal. */
  header?: ReactNode;
  children: ReactNode;
}

/**
 * The app's form modal: OK submits the form, the OK button shows `loading` and
 * `disabled`, the content is destroyed when hidden, the form is vertical without
 * required marks. Pair it with `useQueryModal` for `open` and `onCancel`.
 */
export function FormModal<T>({ title, open, onCancel, okText, form, name, onFinish, loading, disabled, fill, preserve, width, header, children }: FormModalProps<T>) {
  const fillKey = fill ? JSON.stringify(fill) : null;
  useEffect(() => {
    if (open && fillKey) form.setFieldsValue(JSON.parse(fillKey));
  }, [fillKey, open, form]);
  return (
    <Modal
      title={title}
      open={open}
      onCancel={onCancel}
      onOk={() => form.submit()}
      okText={okText}
      okButtonProps={{ loading, disabled }}
      destroyOnHidden
      width={width}
    >
      {header}
      <Form form={form} name={name} layout="vertical" requiredMark={false} preserve={preserve} onFinish={onFinish}>
        {children}
      </Form>
    </Modal>
  );
}
