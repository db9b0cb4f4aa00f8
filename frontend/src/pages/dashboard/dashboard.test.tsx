import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { DashboardPage } from "./DashboardPage";
import { NotificationBell } from "../../components/layout/NotificationBell";
import { STAT_CARDS } from "../../components/dashboard/statCards";
import { Refine } from "@refinedev/core";
import { createDataProvider } from "../../providers/dataProvider";

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

function Where() {
  const loc = useLocation();
  return <div data-testid="where">{decodeURIComponent(loc.pathname + loc.search)}</div>;
}

function mount(ui: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={["/dashboard"]}>
        <Refine dataProvider={createDataProvider({ notifications: { list: "/api/notifications" }, payment: { list: "/api/payment", one: "/api/payment/{id}" } })} options={{ reactQuery: { clientConfig: client }, disableTelemetry: true }}>
          <Routes>
            <Route path="*" element={<>{ui}<Where /></>} />
          </Routes>
        </Refine>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

// antd's responsive grid asks for media queries, which jsdom does not implement.
beforeAll(() => {
  window.matchMedia ??= ((query: string) => ({
    matches: false, media: query, onchange: null,
    addListener: () => {}, removeListener: () => {}, addEventListener: () => {}, removeEventListener: () => {}, dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
});
// The shared test machine is slow: wait longer than the library defaults.
const SLOW = { timeout: 8000 };
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("dashboard cards", () => {
  it("are the spec's eight, in order, then production's three, with their click targets", () => {
    expect(STAT_CARDS.map((c) => [c.label, c.to])).toEqual([
      ["Pending Prints", "/prints?status=In Draft"],
      ["Total Prints", "/prints"],
      ["Printed Images", "/images"],
      ["Used Credits", "/profile"],
      ["Pending Orders", "/orders?status=Pending"],
      ["Total Orders", "/prints"],
      ["Printed Orders", "/orders?status=Completed"],
      ["Integrations", "/integrations"],
      ["Queued Orders", "/production"],
      ["In Production", "/production"],
      ["Fulfilled Orders", "/orders"],
    ]);
  });

  it("show the numbers of GET /api/statistics and lead to their pages", async () => {
    const stats = { pendingPrints: 3, totalPrints: 9, printedImages: 2, usedCredits: 1250, pendingOrders: 4, totalOrders: 7, completedOrders: 1, totalIntegrations: 2, queuedOrders: 3, inProductionOrders: 1, fulfilledOrders: 2 };
    vi.stubGlobal("fetch", vi.fn(async (req: Request) => (new URL(req.url).pathname === "/api/statistics" ? json({ data: stats }) : json({}, 404))));
    mount(<DashboardPage />);
    const card = await screen.findByRole("link", { name: /^Used Credits\s*1,250$/ }, SLOW);
    expect(screen.getByRole("link", { name: /^Pending Prints\s*3$/ })).toBeInTheDocument();
    expect(screen.getAllByTestId("stat-card")).toHaveLength(11);
    fireEvent.click(card);
    expect(screen.getByTestId("where").textContent).toBe("/profile");
    fireEvent.click(screen.getByRole("link", { name: /^Pending Prints\s*3$/ }));
    expect(screen.getByTestId("where").textContent).toBe("/prints?status=In Draft");
  });
});

describe("notification bell", () => {
  it("counts unread from pagination.totalDocuments, truncates titles, marks all read and clicks through", async () => {
    const long = "Your print is ready: 3 sheets to download. The files are kept for 7 days.";
    const calls: string[] = [];
    let unread = 12;
    vi.stubGlobal(
      "fetch",
      vi.fn(async (req: Request) => {
        const url = new URL(req.url);
        calls.push(`${req.method} ${url.pathname}${url.search}`);
        if (req.method === "PUT" && url.pathname === "/api/notifications/read") {
          unread = 0;
          return json({ updated: 12, message: "ok" });
        }
        if (url.searchParams.get("status") === "unread") return json({ data: [], pagination: { totalDocuments: unread, totalPages: 1 } });
        return json({
          data: [{ _id: "n1", type: "print", message: long, attachmentId: "p1", status: unread ? "unread" : "read", createdAt: new Date().toISOString() }],
          pagination: { totalDocuments: 12, totalPages: 2 },
        });
      }),
    );
    mount(<NotificationBell />);
    const bell = await screen.findByRole("button", { name: "Notifications (12)" }, SLOW);
    fireEvent.click(bell);
    const title = await screen.findByText(`${long.slice(0, 50)}…`, {}, SLOW);
    fireEvent.click(screen.getByRole("button", { name: "Mark all read" }));
    await screen.findByRole("button", { name: "Notifications (0)" }, SLOW);
    expect(calls).toContain("PUT /api/notifications/read");
    // Read now (no longer bold): the row was drawn again.
    await waitFor(() => expect(screen.getByTestId("notification-item").getAttribute("data-status")).toBe("read"), SLOW);
    fireEvent.click(screen.getByText(title.textContent!));
    await waitFor(() => expect(screen.getByTestId("where").textContent).toBe("/prints/p1"), SLOW);
  });
});
