import { Suspense, useEffect, useState } from "react";
import { Avatar, Button, Dropdown, Flex, Grid, Layout, Menu, Tag, Tooltip, Typography } from "antd";
import { LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, UserOutlined, WalletOutlined } from "@ant-design/icons";
import { useLogout } from "@refinedev/core";
import { Link, Outlet, useLocation, useNavigate } from "react-router";
import { fullName } from "../../api/types";
import { useProfile } from "../../hooks/useProfile";
import { LiveProvider } from "../../providers/live";
import { Logo } from "../common/Logo";
import { FullScreenSpinner } from "../common/Spinners";
import { activeMenuPath, menuFor, type MenuEntry } from "./menu";
import { NotificationBell } from "./NotificationBell";
import { PaymentLiveSync } from "../payments/PaymentLiveSync";

export const SIDEBAR_KEY = "gs.sidebarCollapsed";

function readCollapsed() {
  try {
    return localStorage.getItem(SIDEBAR_KEY) === "1";
  } catch {
    return false;
  }
}

/** Signed-in frame: sidebar, header (toggle, credits, bell, user menu) and the page. */
export function AppLayout({ menu }: { menu: readonly MenuEntry[] }) {
  const { profile, isAdmin } = useProfile();
  const { mutate: logout } = useLogout();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const screens = Grid.useBreakpoint();
  const [collapsed, setCollapsed] = useState(readCollapsed);
  // On phones the sidebar is an overlay that starts closed and is not remembered.
  const [mobileOpen, setMobileOpen] = useState(false);
  const mobile = screens.md === false;
  const siderCollapsed = mobile ? !mobileOpen : collapsed;

  useEffect(() => setMobileOpen(false), [pathname]);

  const toggle = () => {
    if (mobile) return setMobileOpen((o) => !o);
    const next = !collapsed;
    setCollapsed(next);
    try {
      localStorage.setItem(SIDEBAR_KEY, next ? "1" : "0");
    } catch {
      /* remembered for this page view only */
    }
  };

  const selected = activeMenuPath(menu, pathname);
  const name = fullName(profile);

  return (
    <LiveProvider userId={profile?._id}>
      <PaymentLiveSync />
      <Layout className="gs-app">
        <Layout.Sider
          collapsible
          trigger={null}
          collapsed={siderCollapsed}
          collapsedWidth={mobile ? 0 : 72}
          width={232}
          theme="light"
          className={`gs-sider${mobile ? " gs-sider--overlay" : ""}`}
        >
          <div className="gs-sider__logo">
            <Logo signedIn collapsed={siderCollapsed} />
          </div>
          <Menu
            mode="inline"
            selectedKeys={selected ? [selected] : []}
            items={menuFor(menu, isAdmin).map((m) => ({ key: m.path, icon: m.icon, label: <Link to={m.path}>{m.label}</Link> }))}
          />
        </Layout.Sider>
        {mobile && mobileOpen && <div className="gs-sider-backdrop" onClick={() => setMobileOpen(false)} aria-hidden />}
        <Layout>
          <Layout.Header className="gs-header">
            <Button
              type="text"
              icon={siderCollapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={toggle}
              aria-label={siderCollapsed ? "Expand sidebar" : "Collapse sidebar"}
            />
            <Flex align="center" gap={mobile ? 8 : 16}>
              <Tooltip title="Available credits">
                <Tag icon={<WalletOutlined />} color="geekblue" className="gs-credit-tag" onClick={() => navigate("/profile")} data-testid="credit-balance">
                  {(profile?.credit.availableCredits ?? 0).toLocaleString("en-US")} credits
                </Tag>
              </Tooltip>
              <NotificationBell />
              <Dropdown
                trigger={["click"]}
                menu={{
                  items: [
                    { key: "profile", icon: <UserOutlined />, label: "My Profile", onClick: () => navigate("/profile") },
                    { type: "divider" },
                    { key: "logout", icon: <LogoutOutlined />, label: "Log Out", danger: true, onClick: () => logout() },
                  ],
                }}
              >
                <Button type="text" className="gs-user-button" data-testid="user-menu">
                  <Avatar size="small" style={{ background: "#4f46e5" }} icon={<UserOutlined />} />
                  {!mobile && <Typography.Text ellipsis style={{ maxWidth: 180 }}>{name}</Typography.Text>}
                </Button>
              </Dropdown>
            </Flex>
          </Layout.Header>
          <Layout.Content className="gs-content">
            {/* Pages are lazy-loaded (App.tsx); the sider and header stay while one loads. */}
            <Suspense fallback={<FullScreenSpinner />}>
              <Outlet />
            </Suspense>
          </Layout.Content>
        </Layout>
      </Layout>
    </LiveProvider>
  );
}
