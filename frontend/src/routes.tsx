// Every screen of the app, declared once. The router (App.tsx), Refine's resources and the
// data provider's API paths, the modal parameters and the sidebar menu are derived from this
// table; adding a screen is adding one entry here (plus its page). See docs/frontend.md "Routes".
import { lazy, type ComponentType, type ReactNode } from "react";
import {
  ApiOutlined, AppstoreOutlined, CreditCardOutlined, DashboardOutlined, ColumnWidthOutlined, PictureOutlined,
  PrinterOutlined, ShoppingCartOutlined, TeamOutlined, ThunderboltOutlined,
} from "@ant-design/icons";
import { LandingPage } from "./pages/landing/LandingPage";
import { SigninPage } from "./pages/auth/SigninPage";
import { SignupPage } from "./pages/auth/SignupPage";
import { ForgotPasswordPage } from "./pages/auth/ForgotPasswordPage";
import { VerifyPage } from "./pages/auth/VerifyPage";
import type { paths } from "./api/schema";

// Signed-in pages load on first visit (the landing and auth pages above stay in the main
// bundle so they show at once); a Suspense boundary in Root and in AppLayout shows the spinner.
const page = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  lazy(() => load().then((m) => ({ default: m[name] })));
const DashboardPage = page(() => import("./pages/dashboard/DashboardPage"), "DashboardPage");
const OrdersPage = page(() => import("./pages/orders/OrdersPage"), "OrdersPage");
const PrintsPage = page(() => import("./pages/prints/PrintsPage"), "PrintsPage");
const ProductionPage = page(() => import("./pages/production/ProductionPage"), "ProductionPage");
const PrintDetailPage = page(() => import("./pages/prints/PrintDetailPage"), "PrintDetailPage");
const ManualCreatePrintPage = page(() => import("./pages/prints/ManualCreatePrintPage"), "ManualCreatePrintPage");
const ReviewPrintPage = page(() => import("./pages/prints/ReviewPrintPage"), "ReviewPrintPage");
const SizesPage = page(() => import("./pages/sizes/SizesPage"), "SizesPage");
const TemplatesPage = page(() => import("./pages/templates/TemplatesPage"), "TemplatesPage");
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

/** The API paths the data provider reads and writes a resource's records at. */
export interface ResourceApi {
  /** GET a page of records, POST a new one. */
  list: keyof paths;
  /** GET, PUT, DELETE one record (`{id}`); absent when the API has no such route. */
  one?: keyof paths;
}

export interface RouteResource {
  name: string;
  /** This screen lists the records (`list`) or shows one (`show`, the path has `:id`). */
  action: "list" | "show";
  /** Given once per resource, on one of its screens (or in DATA_RESOURCES). */
  api?: ResourceApi;
}

export interface AppRoute {
  path: string;
  element: ReactNode;
  access: Access;
  /** `guest` routes: where a signed-in user goes instead. */
  redirectTo?: string;
  /** The Refine resource this screen lists or shows one record of. */
  resource?: RouteResource;
  /** The query parameters that open this screen's modals (`?addSize=true`, `?editSize={id}`). */
  modals?: readonly string[];
  /** A sidebar entry; the menu follows the table's order. */
  menu?: { label: string; icon: ReactNode };
}

// Modals more than one screen mounts.
const LIBRARY_MODALS = ["editImage", "addImage", "deleteImage", "editCategory"] as const;
const PAYMENT_MODALS = ["buyCredit", "bankTransfer", "PaymentResult"] as const;
const PRINT_EDIT_MODALS = ["addPrint", "printWarningModal", ...LIBRARY_MODALS] as const;

const ROUTE_TABLE = [
  { path: "/", element: <LandingPage />, access: "guest", redirectTo: "/dashboard" },
  { path: "/auth/signin", element: <SigninPage />, access: "guest", redirectTo: "/dashboard" },
  { path: "/auth/signup", element: <SignupPage />, access: "guest", redirectTo: "/dashboard" },
  { path: "/auth/forgot-password", element: <ForgotPasswordPage />, access: "guest", redirectTo: "/auth/signin" },
  { path: "/verify", element: <VerifyPage />, access: "public" },

  { path: "/dashboard", element: <DashboardPage />, access: "user", modals: PAYMENT_MODALS, menu: { label: "Dashboard", icon: <DashboardOutlined /> } },
  {
    path: "/orders", element: <OrdersPage />, access: "user",
    resource: { name: "orders", action: "list", api: { list: "/api/orders" } },
    menu: { label: "Integration Orders", icon: <ShoppingCartOutlined /> },
  },
  { path: "/production", element: <ProductionPage />, access: "user", menu: { label: "Production", icon: <ThunderboltOutlined /> } },
  {
    path: "/prints", element: <PrintsPage />, access: "user",
    resource: { name: "print", action: "list", api: { list: "/api/print", one: "/api/print/{id}" } },
    modals: ["deletePrint"], menu: { label: "Prints", icon: <PrinterOutlined /> },
  },
  { path: "/prints/manual-create", element: <ManualCreatePrintPage />, access: "user", modals: PRINT_EDIT_MODALS },
  { path: "/prints/review-print", element: <ReviewPrintPage />, access: "user" },
  {
    path: "/prints/:id", element: <PrintDetailPage />, access: "user", resource: { name: "print", action: "show" },
    modals: [...PRINT_EDIT_MODALS, "printSuccessModal", "deletePrint", "editLayout"],
  },
  {
    path: "/templates", element: <TemplatesPage />, access: "user",
    resource: { name: "templates", action: "list", api: { list: "/api/templates", one: "/api/templates/{id}" } },
    modals: ["newPrintFromTemplate", "renameTemplate", "deleteTemplate"], menu: { label: "Templates", icon: <AppstoreOutlined /> },
  },
  {
    path: "/sizes", element: <SizesPage />, access: "user",
    resource: { name: "sizes", action: "list", api: { list: "/api/sizes", one: "/api/sizes/{id}" } },
    modals: ["addSize", "editSize", "deleteSize"], menu: { label: "Sizes", icon: <ColumnWidthOutlined /> },
  },
  {
    path: "/images", element: <ImagesPage />, access: "user",
    resource: { name: "images", action: "list", api: { list: "/api/images", one: "/api/images/{id}" } },
    modals: LIBRARY_MODALS, menu: { label: "Images", icon: <PictureOutlined /> },
  },
  {
    path: "/integrations", element: <IntegrationsPage />, access: "user",
    resource: { name: "integrations", action: "list", api: { list: "/api/integrations", one: "/api/integrations/{id}" } },
    modals: ["addIntegration", "editIntegration", "deleteIntegration"], menu: { label: "Integrations", icon: <ApiOutlined /> },
  },
  { path: "/integrations/:id", element: <IntegrationDetailPage />, access: "user", resource: { name: "integrations", action: "show" } },
  { path: "/profile", element: <ProfilePage />, access: "user", modals: [...PAYMENT_MODALS, "addApiKey", "addWebhook"] },
  { path: "/payment", element: <PaymentPage />, access: "user", modals: PAYMENT_MODALS },
  { path: "/payment/:id", element: <PaymentPage />, access: "user", modals: PAYMENT_MODALS },

  {
    path: "/users", element: <UsersPage />, access: "admin",
    resource: { name: "users", action: "list", api: { list: "/api/users", one: "/api/users/{id}" } },
    modals: ["addUser", "editUser", "deleteUser", "editCredit"], menu: { label: "Users", icon: <TeamOutlined /> },
  },
  { path: "/users/:id", element: <UserDetailPage />, access: "admin", resource: { name: "users", action: "show" }, modals: ["editCredit"] },
  {
    path: "/completed-payments", element: <CompletedPaymentsPage />, access: "admin",
    resource: { name: "payment", action: "list", api: { list: "/api/payment", one: "/api/payment/{id}" } },
    menu: { label: "Completed Payments", icon: <CreditCardOutlined /> },
  },
] as const satisfies readonly AppRoute[];

export const ROUTES: readonly AppRoute[] = ROUTE_TABLE;

/** Resources without a screen of their own (read by pickers, cards on other screens, …). */
export const DATA_RESOURCES = [
  { name: "image-categories", api: { list: "/api/image-categories", one: "/api/image-categories/{id}" } },
  { name: "sheet-presets", api: { list: "/api/sheet-presets", one: "/api/sheet-presets/{id}" } },
  { name: "api-keys", api: { list: "/api/api-keys", one: "/api/api-keys/{id}" } },
  { name: "webhooks", api: { list: "/api/webhooks", one: "/api/webhooks/{id}" } },
  { name: "notifications", api: { list: "/api/notifications" } },
] as const satisfies readonly { name: string; api: ResourceApi }[];

type Route = (typeof ROUTE_TABLE)[number];
type DeclaredResource = Extract<Route, { resource: { api: ResourceApi } }>["resource"] | (typeof DATA_RESOURCES)[number];

/** Every resource the data provider serves; a misspelt name is a compile error. */
export type ResourceName = DeclaredResource["name"];
/** A resource's API paths, as literal types (the record types derive from them). */
export type ApiOf<N extends ResourceName> = Extract<DeclaredResource, { name: N }>["api"];
/** Every query parameter that opens a modal; `useQueryModal` takes only these. */
export type ModalParam = Route extends infer R ? (R extends { modals: readonly (infer M)[] } ? M : never) : never;

/** Resource name → API paths, for the data provider. */
export function resourceApis(routes: readonly AppRoute[] = ROUTES): Record<string, ResourceApi> {
  const apis: Record<string, ResourceApi> = {};
  for (const r of [...routes.flatMap((route) => (route.resource ? [route.resource] : [])), ...DATA_RESOURCES]) {
    if (r.api) apis[r.name] = r.api;
  }
  return apis;
}

export interface RefineResource {
  name: string;
  list?: string;
  show?: string;
  meta?: { label?: string };
}

/** Refine's `resources`: one per resource name, with its list/show paths and menu label. */
export function refineResources(routes: readonly AppRoute[] = ROUTES): RefineResource[] {
  const byName = new Map<string, RefineResource>();
  for (const r of routes) {
    if (!r.resource) continue;
    const entry = byName.get(r.resource.name) ?? { name: r.resource.name };
    entry[r.resource.action] = r.path;
    if (r.menu) entry.meta = { label: r.menu.label };
    byName.set(entry.name, entry);
  }
  for (const { name } of DATA_RESOURCES) if (!byName.has(name)) byName.set(name, { name });
  return [...byName.values()];
}

export interface MenuEntry {
  path: string;
  label: string;
  icon: ReactNode;
  adminOnly: boolean;
}

/** Sidebar entries, in the table's order. */
export const menuEntries = (routes: readonly AppRoute[] = ROUTES): MenuEntry[] =>
  routes.flatMap((r) => (r.menu ? [{ path: r.path, label: r.menu.label, icon: r.menu.icon, adminOnly: r.access === "admin" }] : []));
