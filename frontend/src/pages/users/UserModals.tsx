import { Col, Form, Input, InputNumber, Row, Select, Typography } from "antd";
import { useCreate, useUpdate } from "@refinedev/core";
import { useQueryClient } from "@tanstack/react-query";
import type { User } from "../../api/types";
import { fullName } from "../../api/types";
import { PhoneField } from "../../components/auth/PhoneField";
import { FormModal } from "../../components/common/FormModal";
import { DeleteRecordModal, serverSuccess as success, useRecordModal } from "../../components/common/recordModal";
import { useProfile } from "../../hooks/useProfile";
import { useQueryModal } from "../../lib/queryModal";
import { PROFILE_KEY } from "../../providers/queryClient";
import { creditRules, editUserRules, newUserRules } from "./userRules";

export const CREDIT_ADDED = "Credit added successfully";

/** addUser: create a user (always role "user" on the server). */
export function AddUserModal() {
  const modal = useQueryModal("addUser");
  const [form] = Form.useForm();
  const { mutate, mutation } = useCreate();
  const close = () => {
    form.resetFields();
    modal.close();
  };
  return (
    <FormModal
      title="Add User"
      open={modal.open}
      onCancel={close}
      okText="Create"
      loading={mutation.isPending}
      width={640}
      form={form}
      name="addUser"
      onFinish={(values) =>
        mutate(
          { resource: "users", values: { ...values, company: values.company?.trim() || undefined }, successNotification: success("User created successfully") },
          { onSuccess: close },
        )
      }
    >
      <Row gutter={16}>
        <Col xs={24} sm={12}><Form.Item name="firstName" label="First Name" rules={newUserRules.firstName}><Input /></Form.Item></Col>
        <Col xs={24} sm={12}><Form.Item name="lastName" label="Last Name" rules={newUserRules.lastName}><Input /></Form.Item></Col>
        <Col xs={24} sm={12}><Form.Item name="username" label="Username" rules={newUserRules.username}><Input autoComplete="off" /></Form.Item></Col>
        <Col xs={24} sm={12}><Form.Item name="company" label="Company" rules={newUserRules.company}><Input /></Form.Item></Col>
        <Col xs={24} sm={12}><Form.Item name="email" label="Email" rules={newUserRules.email}><Input autoComplete="off" /></Form.Item></Col>
        <Col xs={24} sm={12}><Form.Item name="password" label="Password" rules={newUserRules.password}><Input.Password autoComplete="new-password" /></Form.Item></Col>
        <Col xs={24}><Form.Item name="phone" label="Phone" rules={newUserRules.phone}><PhoneField /></Form.Item></Col>
      </Row>
    </FormModal>
  );
}

/** editUser={id}: first name, last name, e-mail and role. */
export function EditUserModal() {
  const { modal, record: user, loading } = useRecordModal<User>("editUser", "users");
  const [form] = Form.useForm();
  const { mutate, mutation } = useUpdate();
  return (
    <FormModal
      title="Edit User"
      open={modal.open}
      onCancel={modal.close}
      okText="Save"
      loading={mutation.isPending}
      disabled={loading}
      form={form}
      name="editUser"
      fill={user && { firstName: user.firstName, lastName: user.lastName, email: user.email, role: user.role }}
      onFinish={(values) =>
        mutate(
          { resource: "users", id: modal.value!, values, successNotification: success("User updated successfully") },
          { onSuccess: modal.close },
        )
      }
    >
      <Form.Item name="firstName" label="First Name"><Input /></Form.Item>
      <Form.Item name="lastName" label="Last Name"><Input /></Form.Item>
      <Form.Item name="email" label="Email" rules={editUserRules.email}><Input /></Form.Item>
      <Form.Item name="role" label="Role" rules={editUserRules.role}>
        <Select options={[{ value: "user", label: "User" }, { value: "admin", label: "Admin" }]} />
      </Form.Item>
    </FormModal>
  );
}

/** deleteUser={id}: confirm, then delete. */
export function DeleteUserModal({ onDeleted }: { onDeleted?: () => void }) {
  return (
    <DeleteRecordModal<User> param="deleteUser" resource="users" title="Delete User" successMessage="User deleted successfully" onDeleted={onDeleted}>
      {(user) => (
        <>
          Delete <strong>{user ? fullName(user) : "this user"}</strong>{user ? ` (${user.email})` : ""}? This cannot be undone.
        </>
      )}
    </DeleteRecordModal>
  );
}

/** editCredit={id}: set the user's available credits (the new total). */
export function EditCreditModal() {
  const { modal, record: user } = useRecordModal<User>("editCredit", "users");
  const [form] = Form.useForm<{ availableCredits: number }>();
  const { mutate, mutation } = useUpdate();
  const qc = useQueryClient();
  const { profile } = useProfile();
  return (
    <FormModal
      title={user ? `Edit credit of ${fullName(user)}` : "Edit credit"}
      open={modal.open}
      onCancel={modal.close}
      okText="Save"
      loading={mutation.isPending}
      form={form}
      name="editCredit"
      fill={user && { availableCredits: user.credit.availableCredits }}
      onFinish={(values) =>
        mutate(
          {
            resource: "users",
            id: modal.value!,
            values: { availableCredits: values.availableCredits },
            meta: { path: "/api/users/{id}/credit" },
            successNotification: () => ({ type: "success", message: CREDIT_ADDED }),
          },
          {
            onSuccess: () => {
              // An admin changing their own balance: the header shows the profile's figure.
              if (modal.value === profile?._id) void qc.invalidateQueries({ queryKey: PROFILE_KEY });
              modal.close();
            },
          },
        )
      }
    >
      <Typography.Paragraph type="secondary">
        Used so far: {user?.credit.usedCredits ?? 0}. Enter the new available balance.
      </Typography.Paragraph>
      <CreditField />
    </FormModal>
  );
}

/**
 * The new balance. No `min`/`precision` on the input: antd clamps and rounds on blur, which
 * turned −5 into 1 and saved it with a success toast; the rule refuses it with a message
 * instead (and the server refuses it again).
 */
export function CreditField() {
  return (
    <Form.Item name="availableCredits" label="Available credits" rules={creditRules}>
      <InputNumber style={{ width: "100%" }} />
    </Form.Item>
  );
}
