import { useState } from "react";
import { Typography } from "antd";
import { useNavigate } from "react-router";
import { useSearchParams } from "../../lib/searchParams";
import { Link } from "react-router";
import { AuthLayout } from "../../components/auth/AuthLayout";
import { ResetPasswordForm, SendCodeForm } from "../../components/auth/PasswordReset";

/**
 * Step 1 mails a reset token; step 2 sets the new password. The link in the mail,
 * /auth/forgot-password?email=..&token=.., opens step 2 already filled in.
 */
export function ForgotPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const linkEmail = params.get("email") ?? undefined;
  const linkToken = params.get("token") ?? undefined;
  const [email, setEmail] = useState<string | null>(linkEmail && linkToken ? linkEmail : null);

  return (
    <AuthLayout
      title="Forgot Password"
      heading={email ? "Update Password" : "Forgot password?"}
      subtitle={email ? <>Enter the reset token we sent to <strong>{email}</strong> and choose a new password.</> : "Enter your e-mail and we will send you a code to reset your password."}
    >
      {email ? (
        <>
          <ResetPasswordForm email={email} token={linkToken} onDone={() => navigate("/auth/signin")} />
          <Typography.Link style={{ display: "block", marginTop: 16, textAlign: "center" }} onClick={() => setEmail(null)}>
            Send the code again
          </Typography.Link>
        </>
      ) : (
        <SendCodeForm email={linkEmail} onSent={setEmail} />
      )}
      <div className="gs-auth__foot">
        Remembered it? <Link to="/auth/signin">Back to login</Link>
      </div>
    </AuthLayout>
  );
}
