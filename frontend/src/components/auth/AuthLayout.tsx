import type { ReactNode } from "react";
import { Card, Typography } from "antd";
import { ArrowLeftOutlined } from "@ant-design/icons";
import { Link } from "react-router";
import { Logo } from "../common/Logo";
import { usePageTitle } from "../../lib/title";

/** Frame of the public account pages: logo, a back arrow home, and a centred card. */
export function AuthLayout({ title, heading, subtitle, children, wide = false }: { title: string; heading: string; subtitle?: ReactNode; children: ReactNode; wide?: boolean }) {
  usePageTitle(title);
  return (
    <main className="gs-auth">
      <div className="gs-auth__top">
        <Link to="/" className="gs-auth__back">
          <ArrowLeftOutlined /> Home
        </Link>
        <Logo signedIn={false} />
      </div>
      <Card className={`gs-auth__card${wide ? " gs-auth__card--wide" : ""}`} variant="borderless">
        <Typography.Title level={1} className="gs-page-title" style={{ marginTop: 0, marginBottom: 4 }}>{heading}</Typography.Title>
        {subtitle && <Typography.Paragraph type="secondary">{subtitle}</Typography.Paragraph>}
        {children}
      </Card>
    </main>
  );
}
