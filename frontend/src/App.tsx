import { Suspense, lazy, type ComponentType } from "react";
import { Refine } from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { App as AntApp, ConfigProvider } from "antd";
import { Outlet, createBrowserRouter, type RouteObject } from "react-router";
import { AdminOnly, GuestOnly, RequireAuth } from "./components/auth/Guards";
import { AppLayout } from "./components/layout/AppLayout";
import { FullScreenSpinner, InitialSpinner, ScrollToTop } from "./components/common/Spinners";
import { NotFoundPage, RouteErrorPage } from "./components/common/StatusPages";
import { ToastHost } from "./components/common/ToastHost";
import { authProvider } from "./providers/authProvider";
import { dataProvider } from "./providers/dataProvider";
import { notificationProvider } from "./providers/notificationProvider";
import { queryClient } from "./providers/queryClient";
import { theme } from "./theme";
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

/** API resources (paths under /api) and the screens that list them. */
const resources = [
  { name: "users", list: "/users", show: "/users/:id", meta: { label: "Users" } },
  { name: "print", list: "/prints", show: "/prints/:id", meta: { label: "Prints" } },
  { name: "sizes", list: "/sizes", meta: { label: "Sizes" } },
  { name: "images", list: "/images", meta: { label: "Images" } },
  { name: "image-categories" },
  { name: "integrations", list: "/integrations", show: "/integrations/:id", meta: { label: "Integrations" } },
  { name: "orders", list: "/orders", meta: { label: "Integration Orders" } },
  { name: "payment", list: "/completed-payments", meta: { label: "Completed Payments" } },
  { name: "notifications" },
  { name: "statistics" },
];

/** Providers around every route (they need the router context). */
function Root() {
  return (
    <ConfigProvider theme={theme}>
      <AntApp>
        <ToastHost />
        <Refine
          routerProvider={routerProvider}
          dataProvider={dataProvider}
          authProvider={authProvider}
          notificationProvider={notificationProvider}
          resources={resources}
          options={{
            reactQuery: { clientConfig: queryClient },
            disableTelemetry: true,
            syncWithLocation: false,
            warnWhenUnsavedChanges: false,
            // Refine would call authProvider.check (GET /api/profile) on every route change,
            // the auth pages and /verify included; RequireAuth checks the protected ones.
            disableRouteChangeHandler: true,
          }}
        >
          <ScrollToTop />
          <InitialSpinner>
            <Suspense fallback={<FullScreenSpinner />}>
              <Outlet />
            </Suspense>
          </InitialSpinner>
        </Refine>
      </AntApp>
    </ConfigProvider>
  );
}

/**
 * Every route of spec §2 in one place. Public pages first, then the signed-in app;
 * redirects: a signed-in user on /, /auth/signin or /auth/signup goes to /dashboard,
 * on /auth/forgot-password to /auth/signin; a visitor on a protected page goes to /.
 */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: "/", element: <GuestOnly redirectTo="/dashboard"><LandingPage /></GuestOnly> },
      { path: "/auth/signin", element: <GuestOnly redirectTo="/dashboard"><SigninPage /></GuestOnly> },
      { path: "/auth/signup", element: <GuestOnly redirectTo="/dashboard"><SignupPage /></GuestOnly> },
      { path: "/auth/forgot-password", element: <GuestOnly redirectTo="/auth/signin"><ForgotPasswordPage /></GuestOnly> },
      { path: "/verify", element: <VerifyPage /> },
      {
        element: <RequireAuth><AppLayout /></RequireAuth>,
        children: [
          { path: "/dashboard", element: <DashboardPage /> },
          { path: "/orders", element: <OrdersPage /> },
          { path: "/prints", element: <PrintsPage /> },
          { path: "/prints/manual-create", element: <ManualCreatePrintPage /> },
          { path: "/prints/review-print", element: <ReviewPrintPage /> },
          { path: "/prints/:id", element: <PrintDetailPage /> },
          { path: "/sizes", element: <SizesPage /> },
          { path: "/images", element: <ImagesPage /> },
          { path: "/integrations", element: <IntegrationsPage /> },
          { path: "/integrations/:id", element: <IntegrationDetailPage /> },
          { path: "/profile", element: <ProfilePage /> },
          { path: "/payment", element: <PaymentPage /> },
          { path: "/payment/:id", element: <PaymentPage /> },
          {
            element: <AdminOnly />,
            children: [
              { path: "/users", element: <UsersPage /> },
              { path: "/users/:id", element: <UserDetailPage /> },
              { path: "/completed-payments", element: <CompletedPaymentsPage /> },
            ],
          },
        ],
      },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
