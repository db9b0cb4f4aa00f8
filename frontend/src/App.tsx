import { Suspense } from "react";
import { Refine } from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { App as AntApp, ConfigProvider } from "antd";
import { Outlet, createBrowserRouter, type RouteObject } from "react-router";
import { AdminOnly, GuestOnly, RequireAuth } from "./components/auth/Guards";
import { AppLayout } from "./components/layout/AppLayout";
import { FullScreenSpinner, InitialSpinner, ScrollToTop } from "./components/common/Spinners";
import { NotFoundPage, RouteErrorPage } from "./components/common/StatusPages";
import { ToastHost } from "./components/common/ToastHost";
import { TOAST_CONFIG } from "./lib/toast";
import { authProvider } from "./providers/authProvider";
import { createDataProvider } from "./providers/dataProvider";
import { notificationProvider } from "./providers/notificationProvider";
import { queryClient } from "./providers/queryClient";
import { theme } from "./theme";
import { ROUTES, menuEntries, refineResources, resourceApis, type AppRoute } from "./routes";

const resources = refineResources();
const dataProvider = createDataProvider(resourceApis());
const menu = menuEntries();

/** Providers around every route (they need the router context). */
function Root() {
  return (
    <ConfigProvider theme={theme}>
      <AntApp notification={TOAST_CONFIG}>
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

const child = (r: AppRoute): RouteObject => ({
  path: r.path,
  element: r.access === "guest" ? <GuestOnly redirectTo={r.redirectTo ?? "/dashboard"}>{r.element}</GuestOnly> : r.element,
});
const withAccess = (...access: AppRoute["access"][]) => ROUTES.filter((r) => access.includes(r.access)).map(child);

/**
 * The router, derived from the route table (src/routes.tsx). Redirects: a signed-in user
 * on a guest page goes to its `redirectTo`; a visitor on a signed-in page goes to "/";
 * a non-admin on an admin page sees the not-authorized page.
 */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteErrorPage />,
    children: [
      ...withAccess("guest", "public"),
      {
        element: <RequireAuth><AppLayout menu={menu} /></RequireAuth>,
        children: [...withAccess("user"), { element: <AdminOnly />, children: withAccess("admin") }],
      },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
