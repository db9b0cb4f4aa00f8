import { useEffect, useState } from "react";
import { Alert, Button, Form, Input } from "antd";
import { LockOutlined, UserOutlined } from "@ant-design/icons";
import { useLogin } from "@refinedev/core";
import { Link, useLocation, useNavigate } from "react-router";
import { AuthLayout } from "../../components/auth/AuthLayout";
import { captchaRule, useCaptcha } from "../../components/auth/captcha";
import { FullScreenSpinner } from "../../components/common/Spinners";
import type { LoginParams } from "../../providers/authProvider";

export const PASSWORD_CHANGED = "Your password was changed and every device was signed out. Sign in with the new password.";

/** What a page sending the visitor here may pass: a notice shown above the form. */
export interface SigninState {
  notice?: string;
}

export function SigninPage() {
  const location = useLocation();
  const navigate = useNavigate();
  // Shown once: the state is dropped from the history entry, so a reload does not repeat it.
  const [notice] = useState(() => (location.state as SigninState | null)?.notice ?? null);
  useEffect(() => {
    if (location.state) navigate(location.pathname, { replace: true, state: null });
  }, [location.state, location.pathname, navigate]);
  const captcha = useCaptcha();
  const { mutate: login, isPending } = useLogin<LoginParams>();
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  if (captcha.loading) return <FullScreenSpinner />;

  const submit = async (values: LoginParams) => {
    setError(null);
    setChecking(true);
    const passed = await captcha.verify();
    setChecking(false);
    if (!passed) return;
    login(
      { email: values.email.trim(), password: values.password },
      {
        onSuccess: (result) => {
          // The server's reason (unverified, inactive, wrong password, rate limited) stays visible.
          if (!result.success) {
            setError(result.error?.message ?? "An error occurred");
            captcha.reset();
          }
        },
      },
    );
  };

  return (
    <AuthLayout title="Login" heading="Sign in" subtitle="Welcome back. Sign in to your GangSheet Studio account.">
      {notice && !error && <Alert type="success" showIcon message={notice} style={{ marginBottom: 16 }} data-testid="signin-notice" />}
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="login-error" />}
      <Form name="login" layout="vertical" onFinish={submit} requiredMark={false}>
        <Form.Item name="email" label="Email or Username" rules={[{ required: true, message: "Email is required" }]}>
          <Input prefix={<UserOutlined />} autoComplete="username" />
        </Form.Item>
        <Form.Item name="password" label="Password" rules={[{ required: true, message: "Password is required" }]}>
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
        </Form.Item>
        <div style={{ textAlign: "right", marginTop: -12, marginBottom: 16 }}>
          <Link to="/auth/forgot-password">Forgot Password</Link>
        </div>
        {captcha.required && (
          <Form.Item name="captcha" rules={[captchaRule(captcha, "Please verify the captcha")]}>
            <div ref={captcha.container} className="gs-captcha" />
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" block size="large" loading={isPending || checking}>
          Login
        </Button>
      </Form>
      <div className="gs-auth__foot">
        Don&apos;t have an account? <Link to="/auth/signup">Register Now</Link>
      </div>
    </AuthLayout>
  );
}
