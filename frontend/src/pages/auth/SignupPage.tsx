import { useState } from "react";
import { Button, Col, Form, Input, Result, Row } from "antd";
import { Link } from "react-router";
import { api, call } from "../../api/client";
import { AuthLayout } from "../../components/auth/AuthLayout";
import { captchaRule, useCaptcha } from "../../components/auth/captcha";
import { PhoneField } from "../../components/auth/PhoneField";
import { FullScreenSpinner } from "../../components/common/Spinners";
import { capitalizeFirst } from "../../lib/capitalize";
import { phoneRule } from "../../lib/phone";
import { toast } from "../../lib/toast";
import { emailRule } from "../../lib/email";

export const SIGNUP_DONE = "Form submitted successfully! Please check your email to verify your.";

interface SignupValues {
  firstName: string;
  lastName: string;
  username: string;
  company?: string;
  phone?: string;
  email: string;
  password: string;
}

const capitalized = { normalize: capitalizeFirst };

export function SignupPage() {
  const captcha = useCaptcha();
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  if (captcha.loading) return <FullScreenSpinner />;

  const submit = async ({ company, phone, ...rest }: SignupValues) => {
    setBusy(true);
    try {
      if (!(await captcha.verify())) return;
      await call(api.POST("/api/register", { body: { ...rest, company: company?.trim() || undefined, phone: phone || undefined } }));
      toast.success("User registered successfully");
      setDone(true);
    } catch {
      captcha.reset();
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <AuthLayout title="Signup" heading="Check your inbox">
        <Result status="success" title={SIGNUP_DONE} extra={<Link to="/auth/signin"><Button type="primary">Go to login</Button></Link>} />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Signup" heading="Create your account" subtitle="Start laying out gang sheets in minutes." wide>
      <Form name="signup" layout="vertical" onFinish={submit} requiredMark={false}>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="firstName" label="First Name" {...capitalized} rules={[{ required: true, message: "First Name is required" }]}>
              <Input autoComplete="given-name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="lastName" label="Last Name" {...capitalized} rules={[{ required: true, message: "Last Name is required" }]}>
              <Input autoComplete="family-name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="username" label="Username" rules={[{ required: true, message: "Username is required" }, { min: 3, message: "Username must be at least 3 characters" }]}>
              <Input autoComplete="username" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="company" label="Company" {...capitalized}>
              <Input autoComplete="organization" />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item name="phone" label="Phone" rules={[phoneRule(false)]}>
              <PhoneField />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item name="email" label="Email" rules={[{ required: true, message: "Email is required" }, emailRule]}>
              <Input autoComplete="email" />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item name="password" label="Password" rules={[{ required: true, message: "Password is required" }, { min: 6, message: "Password must be at least 6 characters" }]}>
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          </Col>
        </Row>
        {captcha.required && (
          <Form.Item name="captcha" rules={[captchaRule(captcha, "Please verify captcha")]}>
            <div ref={captcha.container} className="gs-captcha" />
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" block size="large" loading={busy}>
          Register
        </Button>
      </Form>
      <div className="gs-auth__foot">
        Already have an account? <Link to="/auth/signin">Sign in</Link>
      </div>
    </AuthLayout>
  );
}
