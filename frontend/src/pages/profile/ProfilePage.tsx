import { useEffect, useState } from "react";
import { Avatar, Button, Card, Col, Flex, Row, Typography } from "antd";
import { UserOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { useLocation, useNavigate } from "react-router";
import { api, call } from "../../api/client";
import { fullName } from "../../api/types";
import { ResetPasswordForm, SendCodeForm } from "../../components/auth/PasswordReset";
import { PageShell } from "../../components/common/PageShell";
import { FullScreenSpinner } from "../../components/common/Spinners";
import { CreditStats } from "../../components/users/CreditStats";
import { SheetSettingsCard } from "../../components/prints/SheetSettingsCard";
import { ProfileForm, type ProfileValues } from "../../components/users/ProfileForm";
import { useProfile } from "../../hooks/useProfile";
import { toast } from "../../lib/toast";
import { PROFILE_KEY } from "../../providers/queryClient";
import { sessionHint } from "../../lib/sessionHint";
import { PASSWORD_CHANGED, type SigninState } from "../auth/SigninPage";
import { PROFILE_SECTIONS } from "./sections";

export const PROFILE_UPDATED = "Profile Updated Successfully";

export function ProfilePage() {
  const { profile } = useProfile();
  const queryClient = useQueryClient();
  const { hash } = useLocation();
  const navigate = useNavigate();
  const [resetFor, setResetFor] = useState<string | null>(null);

  // /profile/#payments: scroll once the section exists.
  useEffect(() => {
    if (!hash || !profile) return;
    document.getElementById(hash.slice(1))?.scrollIntoView({ behavior: "smooth" });
  }, [hash, profile]);

  if (!profile) return <FullScreenSpinner />;

  // A new password ends every session, this one included: the seller signs in again.
  const passwordChanged = () => {
    sessionHint.clear();
    navigate("/auth/signin", { replace: true, state: { notice: PASSWORD_CHANGED } satisfies SigninState });
    queryClient.clear();
  };

  const update = async (values: ProfileValues) => {
    const res = await call(api.PUT("/api/profile", {
        // The form requires first name, last name and e-mail before it submits.
        body: {
          firstName: values.firstName ?? "",
          lastName: values.lastName ?? "",
          email: values.email ?? "",
          company: values.company,
          phone: values.phone,
          currentPassword: values.currentPassword,
        },
      }));
    queryClient.setQueryData(PROFILE_KEY, res.data);
    await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
    // A new e-mail waits for the link mailed to it; the answer says so.
    toast.success(res.message ?? PROFILE_UPDATED);
  };

  return (
    <PageShell title="Profile">
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={9}>
          <Card>
            <Flex align="center" gap={16} style={{ marginBottom: 20 }}>
              <Avatar size={64} style={{ background: "#4f46e5", flex: "none" }} icon={<UserOutlined />} />
              <div style={{ minWidth: 0 }}>
                <Typography.Title level={4} style={{ margin: 0 }} data-testid="profile-name">{fullName(profile)}</Typography.Title>
                <Typography.Text type="secondary">@{profile.username}</Typography.Text>
              </div>
            </Flex>
            <CreditStats available={profile.credit.availableCredits} used={profile.credit.usedCredits} />
          </Card>
          <Card title="Change Password" style={{ marginTop: 24 }}>
            {resetFor ? (
              <>
                <ResetPasswordForm email={resetFor} onDone={passwordChanged} />
                <Button type="link" block onClick={() => setResetFor(null)} style={{ marginTop: 8 }}>Cancel</Button>
              </>
            ) : (
              <>
                <Typography.Paragraph type="secondary">
                  We will send a reset code to <strong>{profile.email}</strong>.
                </Typography.Paragraph>
                <SendCodeForm email={profile.email} lockedEmail onSent={setResetFor} />
              </>
            )}
          </Card>
        </Col>
        <Col xs={24} lg={15}>
          <Card title="Update Profile Information">
            <ProfileForm user={profile} onSubmit={update} confirmEmailChange />
          </Card>
        </Col>
        <Col xs={24}><SheetSettingsCard /></Col>
        {PROFILE_SECTIONS.map((s) => (
          <Col xs={24} key={s.id} id={s.id}>
            {s.render()}
          </Col>
        ))}
      </Row>
    </PageShell>
  );
}
