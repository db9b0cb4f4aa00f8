import { useState } from "react";
import { Button, Form, Input } from "antd";
import { api, call } from "../../api/client";
import { toast } from "../../lib/toast";
import { emailRule } from "../../lib/email";

export const RESET_SENT = "Password reset key sended to given email";
export const RESET_DONE = "Password reset successfully";

/** Step 1 of a password reset: mails a reset token to `email`. */
export function SendCodeForm({ email, lockedEmail = false, onSent }: { email?: string; lockedEmail?: boolean; onSent: (email: string) => void }) {
  const [busy, setBusy] = useState(false);
  const send = async ({ email: to }: { email: string }) => {
    setBusy(true);
    try {
      await call(api.POST("/api/forgot-password", { body: { email: to } }));
      toast.success(RESET_SENT);
      onSent(to);
    } catch {
      /* the http client already showed the server's message */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form name="sendCode" layout="vertical" initialValues={{ email }} onFinish={send} requiredMark={false}>
      <Form.Item
        name="email"
        label="Email"
        hidden={lockedEmail}
        rules={[
          { required: true, message: "Email is required" },
          emailRule,
        ]}
      >
        <Input autoComplete="email" placeholder="you@example.com" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy}>Send code</Button>
    </Form>
  );
}

interface ResetValues {
  resetToken: string;
  password: string;
  confirmPassword: string;
}

/** Step 2: the token from the mail and the new password twice. */
export function ResetPasswordForm({ email, token, onDone }: { email: string; token?: string; onDone: () => void }) {
  const [form] = Form.useForm<ResetValues>();
  const [busy, setBusy] = useState(false);
  const submit = async (v: ResetValues) => {
    setBusy(true);
    try {
      await call(api.POST("/api/reset-password", { body: { email, resetToken: v.resetToken.trim(), password: v.password } }));
      toast.success(RESET_DONE);
      form.resetFields();
      onDone();
    } catch {
      /* the http client already showed the server's message */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form form={form} name="resetPassword" layout="vertical" initialValues={{ resetToken: token }} onFinish={submit} requiredMark={false}>
      <Form.Item name="resetToken" label="Reset Token" rules={[{ required: true, message: "Reset Token is required" }]}>
        <Input autoComplete="one-time-code" placeholder="Paste the code from the e-mail" />
      </Form.Item>
      <Form.Item name="password" label="Password" rules={[{ required: true, message: "Password is required" }, { min: 6, message: "Password must be at least 6 characters" }]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label="Confirm Password"
        dependencies={["password"]}
        rules={[
          { required: true, message: "Confirm Password is required" },
          ({ getFieldValue }) => ({
            validator: (_, value) => (!value || value === getFieldValue("password") ? Promise.resolve() : Promise.reject(new Error("Passwords do not match"))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy}>Update Password</Button>
    </Form>
  );
}
