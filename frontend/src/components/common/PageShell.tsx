import type { ReactNode } from "react";
import { Breadcrumb, Flex, Typography } from "antd";
import { HomeOutlined } from "@ant-design/icons";
import { Link } from "react-router";
import { usePageTitle } from "../../lib/title";

export interface Crumb {
  title: ReactNode;
  to?: string;
}

/**
 * Frame of every signed-in page: sets the tab title, draws the breadcrumb from Home
 * and the page heading (the page's one h1, drawn at h3 size) with its actions.
 */
export function PageShell({ title, crumbs, heading, extra, children }: { title: string; crumbs?: Crumb[]; heading?: ReactNode; extra?: ReactNode; children?: ReactNode }) {
  usePageTitle(title);
  const trail = crumbs ?? [{ title }];
  return (
    <div className="gs-page">
      <Breadcrumb
        className="gs-breadcrumb"
        items={[
          { title: <Link to="/dashboard"><HomeOutlined /> Home</Link> },
          ...trail.map((c) => ({ title: c.to ? <Link to={c.to}>{c.title}</Link> : c.title })),
        ]}
      />
      <Flex justify="space-between" align="center" wrap gap={12} className="gs-page__head">
        <Typography.Title level={1} className="gs-page-title" style={{ margin: 0 }}>
          {heading ?? title}
        </Typography.Title>
        {extra}
      </Flex>
      {children}
    </div>
  );
}
