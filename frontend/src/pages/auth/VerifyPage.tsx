import { useEffect, useRef, useState } from "react";
import { Button, Result, Spin } from "antd";
import { Link, useNavigate } from "react-router";
import { useSearchParams } from "../../lib/searchParams";
import { api, call } from "../../api/client";
import { AuthLayout } from "../../components/auth/AuthLayout";
import { toast } from "../../lib/toast";

type State = "idle" | "verified" | "already" | "failed";
export const VERIFY_REDIRECT_MS = 4000;

/**
 * E-mail verification from the link in the mail. Without a token it stays idle
 * ("Verifying email..."): verification is called only when a token is present. A second click on a used link says "already verified", not "failed".
 * Like the auth pages, it never asks for the profile.
 */
export function VerifyPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get("token");
  const [state, setState] = useState<State>("idle");
  // The server's words: "Email verified successfully", or "Email address changed" for the
  // link that confirms a new address (profile).
  const [message, setMessage] = useState("Email verified successfully");
  // Tokens are single use: never send one twice (React StrictMode runs effects twice).
  const sent = useRef<string | null>(null);

  useEffect(() => {
    if (!token || sent.current === token) return;
    sent.current = token;
    call(api.GET("/api/verify", { params: { query: { token } } }), { silent: true })
      .then((res) => {
        if (res.alreadyVerified) {
          setState("already");
          return;
        }
        const text = res.message ?? "Email verified successfully";
        setMessage(text);
        setState("verified");
        toast.success(text);
      })
      .catch(() => {
        setState("failed");
        toast.error("Email verification failed");
      });
  }, [token]);

  // After success the spec sends the user on to login; the link lets them go at once.
  useEffect(() => {
    if (state !== "verified") return;
    const t = setTimeout(() => navigate("/auth/signin"), VERIFY_REDIRECT_MS);
    return () => clearTimeout(t);
  }, [state, navigate]);

  const toLogin = <Link to="/auth/signin"><Button type="primary">Go to login</Button></Link>;
  return (
    <AuthLayout title="Verify Email" heading="E-mail verification">
      {state === "idle" && (
        <Result icon={<Spin size="large" />} title="Verifying email..." />
      )}
      {state === "verified" && <Result status="success" title={message} extra={toLogin} />}
      {state === "already" && (
        <Result status="info" title="Email already verified" subTitle="This link was used before; you can sign in." extra={toLogin} />
      )}
      {state === "failed" && (
        <Result status="error" title="Email verification failed" extra={<Link to="/auth/signup"><Button>Go to signup</Button></Link>} />
      )}
    </AuthLayout>
  );
}
