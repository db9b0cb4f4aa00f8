import { useEffect, useState } from "react";
import { Button, Form, Input, Select } from "antd";
import type { User } from "../../api/types";
import { phoneRule } from "../../lib/phone";
import { PhoneField } from "../auth/PhoneField";

export type ProfileField = "firstName" | "lastName" | "email" | "company" | "phone" | "role";
export type ProfileValues = Partial<Pick<User, "firstName" | "lastName" | "email" | "company" | "phone" | "role">>;

const ALL: ProfileField[] = ["firstName", "lastName", "email", "company", "phone"];

/**
 * The 'Update Profile Information' form, shared by /profile (own account) and the
 * admin's user detail (which may also change the role but not company or phone).
 */
export function ProfileForm({ user, fields = ALL, onSubmit }: { user: User; fields?: ProfileField[]; onSubmit: (values: ProfileValues) => Promise<unknown> }) {
  const [form] = Form.useForm<ProfileValues>();
  const [busy, setBusy] = useState(false);
  const has = (f: ProfileField) => fields.includes(f);

  useEffect(() => {
    form.setFieldsValue({ ...user, company: user.company ?? "", phone: user.phone ?? undefined });
  }, [user, form]);

  const submit = async (values: ProfileValues) => {
    setBusy(true);
    try {
      await onSubmit({
        ...values,
        ...(has("company") ? { company: values.company?.trim() || null } : {}),
        ...(has("phone") ? { phone: values.phone || null } : {}),
      });
    } catch {
      /* the error was shown as a toast */
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form form={form} name="profile" layout="vertical" onFinish={submit} requiredMark={false} data-testid="profile-form">
      <div className="gs-form-grid">
        {has("firstName") && (
          <Form.Item name="firstName" label="First Name" rules={[{ required: true, message: "First Name is a required field" }]}>
            <Input autoComplete="given-name" />
          </Form.Item>
        )}
        {has("lastName") && (
          <Form.Item name="lastName" label="Last Name" rules={[{ required: true, message: "Last Name is a required field" }]}>
            <Input autoComplete="family-name" />
          </Form.Item>
        )}
        {has("email") && (
          <Form.Item name="email" label="Email" rules={[{ required: true, message: "Email is required" }, { type: "email", message: "Invalid email address" }]}>
            <Input autoComplete="email" />
          </Form.Item>
        )}
        {has("company") && (
          <Form.Item name="company" label="Company">
            <Input autoComplete="organization" />
          </Form.Item>
        )}
        {has("phone") && (
          <Form.Item name="phone" label="Phone" rules={[phoneRule(false)]}>
            <PhoneField />
          </Form.Item>
        )}
        {has("role") && (
          <Form.Item name="role" label="Role" rules={[{ required: true }]}>
            <Select options={[{ value: "user", label: "User" }, { value: "admin", label: "Admin" }]} />
          </Form.Item>
        )}
      </div>
      <Button type="primary" htmlType="submit" loading={busy}>Save changes</Button>
    </Form>
  );
}
