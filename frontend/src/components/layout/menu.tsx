import type { ReactNode } from "react";
import {
  ApiOutlined, CreditCardOutlined, DashboardOutlined, ColumnWidthOutlined, PictureOutlined,
  PrinterOutlined, ShoppingCartOutlined, TeamOutlined,
} from "@ant-design/icons";

export interface MenuEntry {
  path: string;
  label: string;
  icon: ReactNode;
  adminOnly?: boolean;
}

/** Sidebar entries in the spec's order (§2 Layout). */
export const MENU: MenuEntry[] = [
  { path: "/dashboard", label: "Dashboard", icon: <DashboardOutlined /> },
  { path: "/orders", label: "Integration Orders", icon: <ShoppingCartOutlined /> },
  { path: "/prints", label: "Prints", icon: <PrinterOutlined /> },
  { path: "/sizes", label: "Sizes", icon: <ColumnWidthOutlined /> },
  { path: "/images", label: "Images", icon: <PictureOutlined /> },
  { path: "/integrations", label: "Integrations", icon: <ApiOutlined /> },
  { path: "/users", label: "Users", icon: <TeamOutlined />, adminOnly: true },
  { path: "/completed-payments", label: "Completed Payments", icon: <CreditCardOutlined />, adminOnly: true },
];

export const menuFor = (isAdmin: boolean) => MENU.filter((m) => isAdmin || !m.adminOnly);

/** The entry whose path is the longest prefix of the current path. */
export function activeMenuPath(pathname: string): string | undefined {
  return MENU.map((m) => m.path)
    .filter((p) => pathname === p || pathname.startsWith(`${p}/`))
    .sort((a, b) => b.length - a.length)[0];
}
