import { useEffect, useState } from "react";
import { Button, Form, Input } from "antd";
import type { User } from "../../api/types";
import { phoneRule } from "../../lib/phone";
import { PhoneField } from "../auth/PhoneField";
import { FormSelect } from "../common/FormSelect";
import { emailRule } from "../../lib/email";

export type ProfileField = "firstName" | "lastName" | "email" | "company" | "phone" | "role";
export type ProfileValues = Partial<Pick<User, "firstName" | "lastName" | "email" | "company" | "phone" | "role">> & { currentPassword?: string };

const ALL: ProfileField[] = ["firstName", "lastName", "email", "company", "phone"];

const sameEmail = (a?: string | null, b?: string | null) => (a ?? "").trim().toLowerCase() === (b ?? "").trim().toLowerCase();

/**
 * The 'Update Profile Information' form, shared by /profile (own account) and the
 * admin's user detail (which may also change the role but not company or phone).
 * On the own profile (`confirmEmailChange`) a changed e-mail asks for the current
 * password, which the server requires so a stolen session cannot take the account over.
 */
export function ProfileForm({
  user,
  fields = ALL,
  onSubmit,
  confirmEmailChange = false,
}: {
  user: User;
  fields?: ProfileField[];
  onSubmit: (values: ProfileValues) => Promise<unknown>;
  confirmEmailChange?: boolean;
}) {
  const [form] = Form.useForm<ProfileValues>();
  const [busy, setBusy] = useState(false);
  const has = (f: ProfileField) => fields.includes(f);
  const email = Form.useWatch("email", form);
  const askPassword = confirmEmailChange && has("email") && email !== undefined && !sameEmail(email, user.email);

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
      form.setFieldValue("currentPassword", undefined);
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
          <Form.Item name="email" label="Email" rules={[{ required: true, message: "Email is required" }, emailRule]}>
            <Input autoComplete="email" />
          </Form.Item>
        )}
        {askPassword && (
          <Form.Item
            name="currentPassword"
            label="Current password"
            extra="Needed to change the e-mail. We will also let your current address know."
            rules={[{ required: true, message: "Enter your current password to change the e-mail" }]}
          >
            <Input.Password autoComplete="current-password" />
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
            <FormSelect options={[{ value: "user", label: "User" }, { value: "admin", label: "Admin" }]} />
          </Form.Item>
        )}
      </div>
      <Button type="primary" htmlType="submit" loading={busy}>Save changes</Button>
    </Form>
  );
}
