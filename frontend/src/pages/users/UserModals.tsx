import { Col, Form, Input, InputNumber, Row, Typography } from "antd";
import type { User } from "../../api/types";
import { fullName } from "../../api/types";
import { PhoneField } from "../../components/auth/PhoneField";
import { FormSelect } from "../../components/common/FormSelect";
import { QueryFormModal, useQueryModalForm } from "../../components/common/QueryFormModal";
import { DeleteRecordModal } from "../../components/common/recordModal";
import { useQueryModal } from "../../lib/queryModal";
import { reasonRules, useRefreshCredits } from "./CreditTools";
import { creditRules, editUserRules, newUserRules } from "./userRules";

export const CREDIT_ADDED = "Credit added successfully";

interface NewUserValues {
  firstName: string;
  lastName: string;
  username: string;
  company?: string;
  email: string;
  password: string;
  phone: string;
}

/** addUser: create a user (always role "user" on the server). */
export function AddUserModal() {
  const form = useQueryModalForm<User, NewUserValues>({
    param: "addUser",
    resource: "users",
    action: "create",
    successMessage: "User created successfully",
    toPayload: (values) => ({ ...values, company: values.company?.trim() || undefined }),
  });
  return (
    <QueryFormModal form={form} title="Add User" okText="Create" width={640}>
      <Row gutter={16}>
        <Col xs={24} sm={12}><Form.Item name="firstName" label="First Name" rules={newUserRules.firstName}><Input /></Form.Item></Col>
        <Col xs={24} sm={12}><Form.Item name="lastName" label="Last Name" rules={newUserRules.lastName}><Input /></Form.Item></Col>
        <Col xs={24} sm={12}><Form.Item name="username" label="Username" rules={newUserRules.username}><Input autoComplete="off" /></Form.Item></Col>
        <Col xs={24} sm={12}><Form.Item name="company" label="Company" rules={newUserRules.company}><Input /></Form.Item></Col>
        <Col xs={24} sm={12}><Form.Item name="email" label="Email" rules={newUserRules.email}><Input autoComplete="off" /></Form.Item></Col>
        <Col xs={24} sm={12}><Form.Item name="password" label="Password" rules={newUserRules.password}><Input.Password autoComplete="new-password" /></Form.Item></Col>
        <Col xs={24}><Form.Item name="phone" label="Phone" rules={newUserRules.phone}><PhoneField /></Form.Item></Col>
      </Row>
    </QueryFormModal>
  );
}

/** editUser={id}: first name, last name, e-mail and role. */
export function EditUserModal() {
  const form = useQueryModalForm<User, Pick<User, "firstName" | "lastName" | "email" | "role">>({
    param: "editUser",
    resource: "users",
    action: "edit",
    successMessage: "User updated successfully",
    toValues: (user) => ({ firstName: user.firstName, lastName: user.lastName, email: user.email, role: user.role }),
  });
  return (
    <QueryFormModal form={form} title="Edit User" okText="Save">
      <Form.Item name="firstName" label="First Name"><Input /></Form.Item>
      <Form.Item name="lastName" label="Last Name"><Input /></Form.Item>
      <Form.Item name="email" label="Email" rules={editUserRules.email}><Input /></Form.Item>
      <Form.Item name="role" label="Role" rules={editUserRules.role}>
        <FormSelect options={[{ value: "user", label: "User" }, { value: "admin", label: "Admin" }]} />
      </Form.Item>
    </QueryFormModal>
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

/**
 * editCredit={id}: set the user's available credits (the new total) — a correction, with
 * a required reason; the server keeps both, and the admin's name, in the credit history.
 */
export function EditCreditModal() {
  const modal = useQueryModal("editCredit");
  const refreshCredits = useRefreshCredits(modal.value ?? "");
  const form = useQueryModalForm<User, { availableCredits: number; reason: string }>({
    param: "editCredit",
    resource: "users",
    action: "edit",
    successMessage: CREDIT_ADDED,
    fixedMessage: true,
    mutationMeta: { path: "/api/users/{id}/credit" },
    toValues: (user) => ({ availableCredits: user.credit.availableCredits }),
    toPayload: (values) => ({ availableCredits: values.availableCredits, reason: values.reason.trim() }),
    // The credit history, and the header's balance when admins change their own.
    onSaved: refreshCredits,
  });
  const user = form.record;
  return (
    <QueryFormModal form={form} title={user ? `Edit credit of ${fullName(user)}` : "Edit credit"} okText="Save">
      <Typography.Paragraph type="secondary">
        Used so far: {user?.credit.usedCredits ?? 0}. Enter the new available balance.
      </Typography.Paragraph>
      <CreditField />
      <Form.Item name="reason" label="Reason" rules={reasonRules} extra="Kept in the credit history with your name.">
        <Input.TextArea rows={2} maxLength={300} placeholder="e.g. Correction: charged twice for one print" />
      </Form.Item>
    </QueryFormModal>
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
