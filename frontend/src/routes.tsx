// Every screen of the app, declared once. The router (App.tsx), Refine's resources and the
// sidebar menu are derived from this table; adding a screen is adding one entry here.
// See docs/frontend.md "Routes".
import { lazy, type ComponentType, type ReactNode } from "react";
import {
  ApiOutlined, CreditCardOutlined, DashboardOutlined, ColumnWidthOutlined, PictureOutlined,
  PrinterOutlined, ShoppingCartOutlined, TeamOutlined,
} from "@ant-design/icons";
import { LandingPage } from "./pages/landing/LandingPage";
import { SigninPage } from "./pages/auth/SigninPage";
import { SignupPage } from "./pages/auth/SignupPage";
import { ForgotPasswordPage } from "./pages/auth/ForgotPasswordPage";
import { VerifyPage } from "./pages/auth/VerifyPage";

// Signed-in pages load on first visit (the landing and auth pages above stay in the main
// bundle so they show at once); a Suspense boundary in Root and in AppLayout shows the spinner.
const page = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  lazy(() => load().then((m) => ({ default: m[name] })));
const DashboardPage = page(() => import("./pages/dashboard/DashboardPage"), "DashboardPage");
const OrdersPage = page(() => import("./pages/orders/OrdersPage"), "OrdersPage");
const PrintsPage = page(() => import("./pages/prints/PrintsPage"), "PrintsPage");
const PrintDetailPage = page(() => import("./pages/prints/PrintDetailPage"), "PrintDetailPage");
const ManualCreatePrintPage = page(() => import("./pages/prints/ManualCreatePrintPage"), "ManualCreatePrintPage");
const ReviewPrintPage = page(() => import("./pages/prints/ReviewPrintPage"), "ReviewPrintPage");
const SizesPage = page(() => import("./pages/sizes/SizesPage"), "SizesPage");
const ImagesPage = page(() => import("./pages/images/ImagesPage"), "ImagesPage");
const IntegrationsPage = page(() => import("./pages/integrations/IntegrationsPage"), "IntegrationsPage");
const IntegrationDetailPage = page(() => import("./pages/integrations/IntegrationDetailPage"), "IntegrationDetailPage");
const UsersPage = page(() => import("./pages/users/UsersPage"), "UsersPage");
const UserDetailPage = page(() => import("./pages/users/UserDetailPage"), "UserDetailPage");
const CompletedPaymentsPage = page(() => import("./pages/payments/CompletedPaymentsPage"), "CompletedPaymentsPage");
const PaymentPage = page(() => import("./pages/payments/PaymentPage"), "PaymentPage");
const ProfilePage = page(() => import("./pages/profile/ProfilePage"), "ProfilePage");

/**
 * Who may open a route:
 * - `public`: everybody (e.g. /verify);
 * - `guest`: visitors; a signed-in user is sent to `redirectTo`;
 * - `user`: signed in (a visitor goes to "/"), inside the app layout;
 * - `admin`: signed in as an admin; others see the not-authorized page.
 */
export type Access = "public" | "guest" | "user" | "admin";

export interface AppRoute {
  path: string;
  element: ReactNode;
  access: Access;
  /** `guest` routes: where a signed-in user goes instead. */
  redirectTo?: string;
  /** The Refine resource this screen lists (`list`) or shows one record of (`show`). */
  resource?: { name: string; action: "list" | "show" };
  /** A sidebar entry; the menu follows the table's order. */
  menu?: { label: string; icon: ReactNode };
}

export const ROUTES: AppRoute[] = [
  { path: "/", element: <LandingPage />, access: "guest", redirectTo: "/dashboard" },
  { path: "/auth/signin", element: <SigninPage />, access: "guest", redirectTo: "/dashboard" },
  { path: "/auth/signup", element: <SignupPage />, access: "guest", redirectTo: "/dashboard" },
  { path: "/auth/forgot-password", element: <ForgotPasswordPage />, access: "guest", redirectTo: "/auth/signin" },
  { path: "/verify", element: <VerifyPage />, access: "public" },

  { path: "/dashboard", element: <DashboardPage />, access: "user", resource: { name: "statistics", action: "list" }, menu: { label: "Dashboard", icon: <DashboardOutlined /> } },
  { path: "/orders", element: <OrdersPage />, access: "user", resource: { name: "orders", action: "list" }, menu: { label: "Integration Orders", icon: <ShoppingCartOutlined /> } },
  { path: "/prints", element: <PrintsPage />, access: "user", resource: { name: "print", action: "list" }, menu: { label: "Prints", icon: <PrinterOutlined /> } },
  { path: "/prints/manual-create", element: <ManualCreatePrintPage />, access: "user" },
  { path: "/prints/review-print", element: <ReviewPrintPage />, access: "user" },
  { path: "/prints/:id", element: <PrintDetailPage />, access: "user", resource: { name: "print", action: "show" } },
  { path: "/sizes", element: <SizesPage />, access: "user", resource: { name: "sizes", action: "list" }, menu: { label: "Sizes", icon: <ColumnWidthOutlined /> } },
  { path: "/images", element: <ImagesPage />, access: "user", resource: { name: "images", action: "list" }, menu: { label: "Images", icon: <PictureOutlined /> } },
  { path: "/integrations", element: <IntegrationsPage />, access: "user", resource: { name: "integrations", action: "list" }, menu: { label: "Integrations", icon: <ApiOutlined /> } },
  { path: "/integrations/:id", element: <IntegrationDetailPage />, access: "user", resource: { name: "integrations", action: "show" } },
  { path: "/profile", element: <ProfilePage />, access: "user" },
  { path: "/payment", element: <PaymentPage />, access: "user" },
  { path: "/payment/:id", element: <PaymentPage />, access: "user" },

  { path: "/users", element: <UsersPage />, access: "admin", resource: { name: "users", action: "list" }, menu: { label: "Users", icon: <TeamOutlined /> } },
  { path: "/users/:id", element: <UserDetailPage />, access: "admin", resource: { name: "users", action: "show" } },
  { path: "/completed-payments", element: <CompletedPaymentsPage />, access: "admin", resource: { name: "payment", action: "list" }, menu: { label: "Completed Payments", icon: <CreditCardOutlined /> } },
];

/** Refine resources without a screen of their own (read by pickers, the bell, …). */
const DATA_ONLY_RESOURCES = ["image-categories", "sheet-presets", "notifications"];

export interface RefineResource {
  name: string;
  list?: string;
  show?: string;
  meta?: { label?: string };
}

/** Refine's `resources`: one per resource name, with its list/show paths and menu label. */
export function refineResources(routes: AppRoute[] = ROUTES): RefineResource[] {
  const byName = new Map<string, RefineResource>();
  for (const r of routes) {
    if (!r.resource) continue;
    const entry = byName.get(r.resource.name) ?? { name: r.resource.name };
    entry[r.resource.action] = r.path;
    if (r.menu) entry.meta = { label: r.menu.label };
    byName.set(entry.name, entry);
  }
  for (const name of DATA_ONLY_RESOURCES) if (!byName.has(name)) byName.set(name, { name });
  return [...byName.values()];
}

export interface MenuEntry {
  path: string;
  label: string;
  icon: ReactNode;
  adminOnly: boolean;
}

/** Sidebar entries, in the table's order. */
export const menuEntries = (routes: AppRoute[] = ROUTES): MenuEntry[] =>
  routes.flatMap((r) => (r.menu ? [{ path: r.path, label: r.menu.label, icon: r.menu.icon, adminOnly: r.access === "admin" }] : []));
